package server

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"alak/server/store/pgstore"
	"alak/server/store/pgstore/pgtest"
)

// TestMailTwoProcesses: two servers on one PostgreSQL database, each
// taking mail; the same reply reaches both at once (as a mail system with
// two relays could deliver a duplicate): it is played once, and the other
// copy is answered as refused, with the board. The secrets are in the
// database, so either process takes either player's mail.
func TestMailTwoProcesses(t *testing.T) {
	t.Parallel()
	needSwaks(t)
	url := pgtest.Database(t)
	sink := newGoSMTPSink(t)
	box := &mailbox{sink: sink}
	clock := &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	var hs []*harness
	for range 2 {
		st, err := pgstore.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{Now: clock.Now, SweepEvery: time.Hour, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Notifier: pgstore.NewNotifier(st.DB(), url), SMTP: sink.url(), MailListen: "127.0.0.1:0", MailDomain: "play.test"}
		srv, err := New(cfg, st)
		if err != nil {
			t.Fatal(err)
		}
		h := &harness{t: t, clock: clock, cfg: cfg, st: st, srv: srv, http: httptest.NewServer(srv.Handler())}
		srv.cfg.BaseURL = h.http.URL
		t.Cleanup(h.stop)
		hs = append(hs, h)
	}
	a, b := hs[0], hs[1]
	ada := a.client().signUp("ada")
	bo := a.client().signUp("bo")
	ada.setEmail("ada@example.org")
	bo.setEmail("bo@example.org")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:3", "opponent": "bo"})
	bo.on(b).do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	a0 := replyTo(t, box.next(t, "ada@example.org"), g.ID) // made by process b

	// The same reply to both processes at once.
	var wg sync.WaitGroup
	outs, oks := make([]string, 2), make([]bool, 2)
	for i, h := range hs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], oks[i] = swaks(t, h, a0, "ada@example.org", plainReply("ada@example.org", "2"))
		}()
	}
	wg.Wait()
	for i, ok := range oks {
		if !ok {
			t.Fatalf("process %d did not accept the mail:\n%s", i, outs[i])
		}
	}
	if v := ada.game(g.ID); !slices.Equal(v.Moves, []string{"2"}) {
		t.Fatalf("the game's moves: %q, want [2]", v.Moves)
	}
	var played, refused int
	for range 2 {
		m := box.next(t, "ada@example.org")
		switch {
		case strings.Contains(m.body, "You played 2."):
			played++
		case strings.Contains(m.body, "Nothing changed: "):
			refused++
		default:
			t.Errorf("an answer neither played nor refused:\n%s", m.body)
		}
	}
	if played != 1 || refused != 1 {
		t.Errorf("answers: %d played, %d refused; want 1 and 1", played, refused)
	}
	// bo answers through process a what process a or b mailed him.
	b1 := replyTo(t, box.next(t, "bo@example.org"), g.ID)
	send(t, a, b1, "bo@example.org", plainReply("bo@example.org", "4"))
	if v := bo.game(g.ID); !slices.Equal(v.Moves, []string{"2", "4"}) {
		t.Errorf("the game's moves: %q, want [2 4]", v.Moves)
	}
}
