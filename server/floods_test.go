package server

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"alak/server/internal/game"
	"alak/server/internal/tournaments"
	"alak/wire"
)

// TestTournamentTogglesLimited: one account's joins and leaves of
// tournaments, each sent to every watcher, are limited: 10 at once, then
// one every 6 s, answered 429 with Retry-After past that (before, 300
// toggles went through in 3.3 s).
func TestTournamentTogglesLimited(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	org := h.client().signUp("org")
	ada := h.client().signUp("ada")
	var tv struct{ ID string }
	if code := org.do("POST", "/api/tournaments", map[string]string{"name": "cup", "clock": "days:1", "format": "round-robin"}, &tv); code != http.StatusCreated {
		t.Fatalf("tournament: %d", code)
	}
	toggle := func(i int) (int, string, string) {
		return ada.call("POST", "/api/tournaments/"+tv.ID+"/"+[]string{"join", "leave"}[i%2], "")
	}
	done := 0
	for i := range 30 {
		code, e, retry := toggle(i)
		if code == http.StatusOK {
			done++
			continue
		}
		if code != http.StatusTooManyRequests || e != "rate_limited" || retry != "6" {
			t.Errorf("toggle %d: %d %s Retry-After %q; want 429 rate_limited Retry-After 6", i+1, code, e, retry)
		}
	}
	if done != tournaments.ToggleBurst {
		t.Errorf("30 joins and leaves at once: %d done, want %d", done, tournaments.ToggleBurst)
	}
	h.clock.Add(tournaments.ToggleEvery)
	if code, e, _ := toggle(done); code != http.StatusOK {
		t.Errorf("a toggle %v later: %d %s", tournaments.ToggleEvery, code, e)
	}
}

// TestChallengesCapped: an account holds at most 10 open challenges in
// the lobby and 50 waiting challenges of every kind; past them a new one
// is 409 too_many_challenges, saying the cap, and the others' challenges
// stay in the lobby. A challenge taken frees its place. (Before, one
// account could hold hundreds and fill the lobby's 200.)
func TestChallengesCapped(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{GameRate: 1000})
	spammer := h.client().signUp("spammer")
	bo := h.client().signUp("bo")
	mine := bo.create(map[string]string{"opponent": "open"})
	var open []string
	for i := range maxOpenChallenges {
		open = append(open, spammer.create(map[string]string{"opponent": "open", "rules": fmt.Sprintf("alak size=%d", 5+i)}).ID)
	}
	code, e, _ := spammer.call("POST", "/api/games", `{"opponent":"open"}`)
	if code != http.StatusConflict || e != "too_many_challenges" {
		t.Fatalf("open challenge %d: %d %s, want 409 too_many_challenges", maxOpenChallenges+1, code, e)
	}
	var body errBody
	spammer.do("POST", "/api/games", map[string]string{"opponent": "open"}, &body)
	if !strings.Contains(body.Error, fmt.Sprint(maxOpenChallenges)) {
		t.Errorf("the refusal does not say the cap: %q", body.Error)
	}
	var lobby struct{ Games []wire.Summary }
	bo.do("GET", "/api/lobby", nil, &lobby)
	if ids := summaryIDs(lobby.Games); len(ids) != maxOpenChallenges+1 || !strings.Contains(strings.Join(ids, " "), mine.ID) {
		t.Errorf("the lobby: %d challenges %v; want the spammer's %d and bo's", len(ids), ids, maxOpenChallenges)
	}
	// A challenge taken frees its place.
	if code := bo.do("POST", "/api/games/"+open[0]+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	spammer.create(map[string]string{"opponent": "open"})

	// Every kind together: named challenges and links up to 50.
	n := maxOpenChallenges
	for ; n < maxChallenges; n++ {
		spammer.create(map[string]string{"opponent": []string{"bo", "link"}[n%2]})
	}
	for _, opp := range []string{"bo", "link"} {
		if code, e, _ := spammer.call("POST", "/api/games", `{"opponent":"`+opp+`"}`); code != http.StatusConflict || e != "too_many_challenges" {
			t.Errorf("challenge %d (%s): %d %s, want 409 too_many_challenges", maxChallenges+1, opp, code, e)
		}
	}
	if code, _, _ := spammer.call("POST", "/api/games", `{"opponent":"computer:level:1"}`); code != http.StatusCreated {
		t.Errorf("a game against the computer past the cap: %d, want 201 (it waits for nobody)", code)
	}
}

// TestTournamentStreamSlowReaderClosed: a tournament's event stream whose
// client reads the headers and then stops reading, over loopback, is cut
// once a write to it waits past the stream write timeout, as a game's
// stream is (slowstream_test.go), and early: the server's side keeps the
// kernel's buffers but for the bound the stream sets on its connection's
// send buffer, so the cut comes after tens of kilobytes of events (47
// events of 1.3 kB in a run here), not after the megabytes Linux lets a
// send buffer grow to (1,322 such events, 1.7 MB, without the bound; a
// stream not read held 751 KB, and was never cut).
func TestTournamentStreamSlowReaderClosed(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{StreamWriteTimeout: 300 * time.Millisecond, SignupRate: 1000})
	org := h.client().signUp("org")
	var tv struct{ ID string }
	name := strings.Repeat("a long name ", 5)
	if code := org.do("POST", "/api/tournaments", map[string]string{"name": name, "clock": "days:1", "format": "round-robin"}, &tv); code != http.StatusCreated {
		t.Fatalf("tournament: %d", code)
	}
	for i := range 30 { // players, so that a view is a few kilobytes
		c := h.client().signUp(fmt.Sprintf("player%02d", i))
		if code := c.do("POST", "/api/tournaments/"+tv.ID+"/join", nil, nil); code != http.StatusOK {
			t.Fatalf("join: %d", code)
		}
	}
	toggler := h.client().signUp("toggler")
	resp, view := toggler.roundTrip("GET", "/api/tournaments/"+tv.ID, nil, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("view: %d", resp.StatusCode)
	}

	// The client's receive buffer is small (its choice: it reads nothing
	// anyway), so that what is queued is the server's.
	d := net.Dialer{Control: func(network, address string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 1024) })
		return errors.Join(err, serr)
	}}
	conn, err := d.Dial("tcp", h.http.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /api/tournaments/"+tv.ID+"/events HTTP/1.1\r\nHost: test\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReaderSize(conn, 16)
	head, err := http.ReadResponse(br, nil)
	if err != nil || head.StatusCode != http.StatusOK {
		t.Fatalf("the stream: %v %v", head, err)
	}
	// From here on it reads nothing.

	// Events: the toggler joins and leaves, the clock moved on past the
	// toggles' limit before each; bounded by the bytes sent (a server
	// that never cuts fails), the time bound only stops a stuck run.
	const most = 2 << 20
	start := time.Now()
	events := 0
	for ; h.srv.metrics.SlowStreams.Load() == 0; events++ {
		if events*len(view) > most || time.Since(start) > 3*time.Minute {
			t.Fatalf("after %d events (about %d kB) in %v the stream that is not read is still open", events, events*len(view)>>10, time.Since(start))
		}
		h.clock.Add(tournaments.ToggleEvery)
		if code := toggler.do("POST", "/api/tournaments/"+tv.ID+"/"+[]string{"join", "leave"}[events%2], nil, nil); code != http.StatusOK {
			t.Fatalf("toggle %d: %d", events, code)
		}
	}
	t.Logf("cut after %d events of about %d bytes (%d kB), %v", events, len(view), events*len(view)>>10, time.Since(start))
	if kb := events * len(view) >> 10; kb > 512 {
		t.Errorf("cut after about %d kB of events; want the stream's bounded send buffer (%d kB, doubled by the kernel), well under 512 kB", kb, game.StreamSendBuffer>>10)
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.Copy(io.Discard, br); err != nil && strings.Contains(err.Error(), "timeout") {
		t.Errorf("the connection is still open: %v", err)
	}
}
