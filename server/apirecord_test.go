package server

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"alak/rules"
	"alak/wire"
)

var updateRecording = flag.Bool("update-recording", false, "write testdata/api_session.txt anew from TestAPIRecording")

// TestAPIRecording drives one session of requests over loopback, as
// players, a guest and scripts would (sign-up, a challenge and its errors,
// a whole game with refused moves, offers, messages, a rematch, the lists,
// the ratings, a finished game's SGF, analysis and event stream, the
// analysis board, a tournament from its creation to its end), and
// compares every answer with testdata/api_session.txt byte for byte: the
// status, the headers a client reads, and the body. Only what changes
// from run to run is replaced, each by a name given in the order it first
// appears: game, tournament and invitation ids, bearer tokens, the
// server's address. The file was recorded before the API's types were
// moved out of this package; a change that alters an answer fails here,
// and -update-recording writes the file again when the API is meant to
// change.
func TestAPIRecording(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{SignupRate: 100, noBackgroundAnalysis: true}) // the analysis answered as the recording asks for it
	rec := &recorder{h: h, names: map[string]string{}, counts: map[string]int{}}
	ada, bob, cy, dee := h.client(), h.client(), h.client(), h.client()
	anon, guest := h.client(), h.client()

	rec.section("accounts")
	rec.call(anon, "GET", "/api/rules", nil)
	rec.call(ada, "POST", "/api/accounts", map[string]any{"name": "ada", "password": "correct horse", "email": "ada@example.org"})
	rec.call(bob, "POST", "/api/accounts", map[string]any{"name": "bob", "password": "correct horse"})
	rec.call(cy, "POST", "/api/accounts", map[string]any{"name": "cy", "password": "correct horse"})
	rec.call(dee, "POST", "/api/accounts", map[string]any{"name": "dee", "password": "correct horse"})
	rec.call(anon, "POST", "/api/accounts", map[string]any{"name": "ada", "password": "correct horse"})
	rec.call(anon, "POST", "/api/accounts", map[string]any{"name": "x", "password": "short"})
	rec.raw(anon, "POST", "/api/accounts", `{"name": "eve", "password": "correct horse"`)
	rec.raw(anon, "POST", "/api/accounts", `{"name": "eve", "pasword": "correct horse"}`)
	rec.call(anon, "POST", "/api/login", map[string]any{"name": "ada", "password": "wrong horse"})
	rec.call(anon, "GET", "/api/me", nil)
	rec.call(ada, "GET", "/api/me", nil)
	rec.call(ada, "PUT", "/api/me", map[string]any{"confirm_moves": true})
	tok := rec.call(anon, "POST", "/api/tokens", map[string]any{"name": "bob", "password": "correct horse"})
	script := h.client()
	var token struct{ Token string }
	json.Unmarshal(tok, &token)
	script.token = token.Token
	rec.call(script, "GET", "/api/me", nil)
	rec.call(script, "GET", "/api/me/games", nil)

	rec.section("a challenge and its errors")
	rec.call(ada, "POST", "/api/games", map[string]any{"rules": "alak size=6", "color": "x", "opponent": "nobody", "clock": "days:3"})
	rec.call(ada, "POST", "/api/games", map[string]any{"rules": "alak size=600", "color": "x", "opponent": "bob"})
	rec.call(ada, "POST", "/api/games", map[string]any{"rules": "alak size=6", "color": "x", "opponent": "ada"})
	rec.call(ada, "POST", "/api/games", map[string]any{"rules": "alak size=6", "clock": "live:forever", "opponent": "bob"})
	g1 := rec.create(ada, map[string]any{"rules": "alak size=6", "color": "x", "opponent": "bob", "clock": "days:3"})
	rec.call(bob, "GET", "/api/me/turns", nil)
	rec.call(bob, "GET", "/api/me/games", nil)
	rec.call(cy, "POST", "/api/games/"+g1+"/join", nil)
	rec.call(bob, "POST", "/api/games/"+g1+"/join", nil)
	rec.call(bob, "POST", "/api/games/"+g1+"/join", nil)

	rec.section("a game of Alak-6, seed 002's, with refused moves")
	for ply, m := range seedAlak6 {
		p := []*client{ada, bob}[ply%2]
		switch ply {
		case 0:
			rec.call(bob, "POST", "/api/games/"+g1+"/moves", map[string]any{"move": m, "ply": ply})
			rec.call(ada, "POST", "/api/games/"+g1+"/moves", map[string]any{"move": m})
			rec.call(ada, "POST", "/api/games/"+g1+"/moves", map[string]any{"move": "zz", "ply": ply})
			rec.call(ada, "POST", "/api/games/"+g1+"/moves", map[string]any{"move": "9", "ply": ply})
			rec.call(ada, "POST", "/api/games/"+g1+"/moves", map[string]any{"move": strings.Repeat("3", 21), "ply": ply})
			rec.call(cy, "POST", "/api/games/"+g1+"/moves", map[string]any{"move": m, "ply": ply})
		case 2:
			rec.call(ada, "POST", "/api/games/"+g1+"/moves", map[string]any{"move": m, "ply": ply - 1})
			rec.call(ada, "POST", "/api/games/"+g1+"/moves", map[string]any{"move": "1", "ply": ply})
			rec.call(ada, "POST", "/api/games/"+g1+"/takeback", nil)
			rec.call(bob, "POST", "/api/games/"+g1+"/takeback", map[string]any{"accept": false})
			rec.call(ada, "POST", "/api/games/"+g1+"/draw", map[string]any{"ply": ply})
			rec.call(bob, "POST", "/api/games/"+g1+"/draw", map[string]any{"accept": false})
			rec.call(bob, "POST", "/api/games/"+g1+"/messages", map[string]any{"text": "good luck"})
			rec.call(ada, "PUT", "/api/games/"+g1+"/conditional", map[string]any{"ply": ply, "tree": map[string]any{}})
			rec.call(bob, "GET", "/api/games/"+g1+"/conditional", nil)
		case 5:
			rec.call(ada, "GET", "/api/games/"+g1, nil)
			rec.call(anon, "GET", "/api/games?state=active", nil)
			rec.call(anon, "GET", "/api/watch", nil)
		}
		rec.call(p, "POST", "/api/games/"+g1+"/moves", map[string]any{"move": m, "ply": ply})
		h.clock.Add(time.Minute)
	}
	rec.call(bob, "POST", "/api/games/"+g1+"/moves", map[string]any{"move": "pass", "ply": len(seedAlak6)})

	rec.section("a finished game")
	rec.call(anon, "GET", "/api/games/"+g1, nil)
	rec.call(anon, "GET", "/api/games/"+g1+"/positions", nil)
	rec.call(anon, "GET", "/api/games/"+g1+"/sgf", nil)
	rec.firstEvent(anon, "/api/games/"+g1+"/events")
	rec.call(anon, "GET", "/api/games/"+g1+"/analysis", nil)
	rec.wait(anon, "/api/games/"+g1+"/analysis")
	rec.call(anon, "GET", "/api/games/"+g1+"/analysis", nil)
	rec.call(bob, "POST", "/api/games/"+g1+"/resign", nil)
	rec.call(bob, "POST", "/api/games/"+g1+"/rematch", nil)
	rec.call(ada, "POST", "/api/games/"+g1+"/rematch", map[string]any{"decline": true})
	rec.call(ada, "POST", "/api/games/"+g1+"/mute", map[string]any{"muted": true})
	rec.call(anon, "GET", "/api/games/nosuchgame", nil)
	rec.call(anon, "GET", "/api/nowhere", nil)

	rec.section("more games: resigned, aborted, a guest's, by link, an open challenge")
	g2 := rec.create(bob, map[string]any{"rules": "alak size=7", "color": "o", "opponent": "ada", "clock": "days:1", "rated": false})
	rec.call(ada, "POST", "/api/games/"+g2+"/join", nil)
	rec.call(ada, "POST", "/api/games/"+g2+"/moves", map[string]any{"move": "resign", "ply": 0})
	g3 := rec.create(cy, map[string]any{"rules": "traditional size=9", "color": "x", "opponent": "dee", "clock": "live:5m+3s"})
	rec.call(dee, "POST", "/api/games/"+g3+"/join", nil)
	rec.call(cy, "POST", "/api/games/"+g3+"/abort", nil)
	rec.call(guest, "POST", "/api/games", map[string]any{"rules": "golf", "opponent": "link", "color": "x"})
	rec.call(anon, "POST", "/api/games/"+rec.last("id")+"/join", map[string]any{"invite": "nope"})
	g5 := rec.create(dee, map[string]any{"rules": "alak size=9 edge=off", "opponent": "open", "color": "o", "clock": "days:2"})
	rec.call(anon, "GET", "/api/lobby", nil)
	rec.call(cy, "POST", "/api/games/"+g5+"/decline", map[string]any{"reason": "not today"})
	rec.call(ada, "GET", "/api/me/games", nil)
	rec.call(anon, "GET", "/api/games?state=all", nil)
	rec.call(anon, "GET", "/api/games?player=ada", nil)
	rec.call(anon, "GET", "/api/games?state=nope", nil)

	rec.section("ratings and players")
	rec.call(anon, "GET", "/api/leaderboard?pool=alak", nil)
	rec.call(anon, "GET", "/api/leaderboard?pool=chess", nil)
	rec.call(anon, "GET", "/api/players/ada", nil)
	rec.call(anon, "GET", "/api/players/ada/ratings?pool=alak", nil)
	rec.call(anon, "GET", "/api/players/nobody", nil)

	rec.section("the analysis board")
	rec.call(anon, "GET", "/api/board?rules=alak+size%3D7&moves=3,4,5", nil)
	rec.call(anon, "GET", "/api/board?rules=alak+size%3D7&moves=3,3", nil)
	rec.waitExplorer("alak size=6")
	rec.call(anon, "GET", "/api/explorer?rules=alak+size%3D6", nil)
	rec.call(anon, "GET", "/api/explorer?rules=alak+size%3D6&moves=1", nil)

	rec.section("a tournament")
	rec.call(ada, "POST", "/api/tournaments", map[string]any{"name": "", "rules": "alak size=5", "clock": "days:3", "format": "round-robin"})
	rec.call(ada, "POST", "/api/tournaments", map[string]any{"name": "Winter cup", "rules": "alak size=5", "clock": "days:3", "format": "round-robin"})
	tid := rec.last("id")
	for _, p := range []*client{ada, bob, cy, dee} {
		rec.call(p, "POST", "/api/tournaments/"+tid+"/join", nil)
	}
	rec.call(bob, "POST", "/api/tournaments/"+tid+"/start", nil)
	rec.call(ada, "POST", "/api/tournaments/"+tid+"/start", nil)
	v := waitTournament(t, ada, tid, "paired", func(v wire.Tournament) bool { return len(v.Games) == 6 && len(pending(v)) == 6 })
	rec.call(anon, "GET", "/api/tournaments/"+tid, nil)
	players := map[string]*client{"ada": ada, "bob": bob, "cy": cy, "dee": dee}
	games := slices.SortedFunc(slices.Values(v.Games), func(a, b wire.TournamentGame) int {
		return cmp.Or(cmp.Compare(a.Round, b.Round), cmp.Compare(a.Slot, b.Slot))
	})
	for _, g := range games {
		rec.call(players[max(g.X, g.O)], "POST", "/api/games/"+g.ID+"/resign", nil)
	}
	waitTournament(t, ada, tid, "finished", func(v wire.Tournament) bool { return v.State == "finished" })
	rec.call(anon, "GET", "/api/tournaments/"+tid, nil)
	rec.call(anon, "GET", "/api/tournaments?state=finished", nil)
	rec.call(anon, "GET", "/api/leaderboard?pool=alak", nil)

	rec.check(t, filepath.Join("testdata", "api_session.txt"))
}

// recorder writes each request and its answer, normalised, to a log.
type recorder struct {
	h      *harness
	log    bytes.Buffer
	names  map[string]string // a value that changes between runs, and its name
	counts map[string]int    // names given, by kind
	prev   []byte            // the last answer's body
}

func (r *recorder) section(title string) {
	fmt.Fprintf(&r.log, "\n## %s\n", title)
}

// call sends body as JSON (nil: none) and records the answer.
func (r *recorder) call(c *client, method, path string, body any) []byte {
	r.h.t.Helper()
	var b string
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			r.h.t.Fatal(err)
		}
		b = string(raw)
	}
	return r.raw(c, method, path, b)
}

// raw sends body as it is and records the answer.
func (r *recorder) raw(c *client, method, path, body string) []byte {
	r.h.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	// A second between requests: no two changes share a time, so the
	// lists, ordered by time, have one order.
	r.h.clock.Add(time.Second)
	resp, data := c.roundTrip(method, path, rd, jsonHeader)
	r.collect(data)
	fmt.Fprintf(&r.log, "\n> %s %s\n", method, r.normal(path))
	if body != "" {
		fmt.Fprintf(&r.log, "> %s\n", r.normal(body))
	}
	fmt.Fprintf(&r.log, "< %d", resp.StatusCode)
	for _, k := range []string{"Content-Type", "Retry-After", "Location"} {
		if v := resp.Header.Get(k); v != "" {
			fmt.Fprintf(&r.log, " %s=%s", k, r.normal(v))
		}
	}
	fmt.Fprintf(&r.log, "\n%s", r.normal(string(data)))
	if !bytes.HasSuffix(data, []byte("\n")) {
		r.log.WriteString("\n")
	}
	r.prev = data
	return data
}

// create makes a game and returns its id.
func (r *recorder) create(c *client, req map[string]any) string {
	r.h.t.Helper()
	r.call(c, "POST", "/api/games", req)
	id := r.last("id")
	if id == "" {
		r.h.t.Fatalf("create %v: %s", req, r.prev)
	}
	return id
}

// last returns a string field of the last answer.
func (r *recorder) last(key string) string {
	var m map[string]any
	json.Unmarshal(r.prev, &m)
	s, _ := m[key].(string)
	return s
}

// wait asks for path (unrecorded) until it answers 200, for at most 20 s.
func (r *recorder) wait(c *client, path string) {
	r.h.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, data := c.roundTrip("GET", path, nil, nil)
		if resp.StatusCode == http.StatusOK {
			return
		}
		if time.Now().After(deadline) {
			r.h.t.Fatalf("%s: %d %s after 20 s", path, resp.StatusCode, data)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitExplorer waits (at most 20 s) until the explorer has counted a
// finished game of the rules: it counts in the background, after the
// game's end is answered.
func (r *recorder) waitExplorer(text string) {
	r.h.t.Helper()
	rs, err := rules.Parse(text)
	if err != nil {
		r.h.t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		ms, err := r.h.st.ExplorerMoves(context.Background(), rs.String(), nil)
		if err != nil {
			r.h.t.Fatal(err)
		}
		if len(ms) > 0 {
			return
		}
		if time.Now().After(deadline) {
			r.h.t.Fatalf("the explorer did not count a game of %s in 20 s", text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// firstEvent records the first event of an event stream, up to its blank
// line.
func (r *recorder) firstEvent(c *client, path string) {
	r.h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", r.h.http.URL+path, nil)
	resp, err := c.c.Do(req)
	if err != nil {
		r.h.t.Fatal(err)
	}
	defer resp.Body.Close()
	var ev bytes.Buffer
	br := bufio.NewReader(resp.Body)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			r.h.t.Fatalf("%s: %v after %q", path, err, ev.String())
		}
		if line == "\n" {
			break
		}
		ev.WriteString(line)
	}
	r.collect(ev.Bytes())
	fmt.Fprintf(&r.log, "\n> GET %s (the first event)\n< %d Content-Type=%s\n%s", r.normal(path), resp.StatusCode, resp.Header.Get("Content-Type"), r.normal(ev.String()))
}

// runVaries are the values of an answer that change from run to run:
// JSON fields holding ids and tokens, and the secret of an invitation.
var (
	runVaries = map[string]string{"id": "id", "game": "id", "token": "token"}
	inviteRe  = regexp.MustCompile(`invite=([A-Za-z0-9_-]+)`)
)

// collect names the values of data (a JSON answer, or an event) that
// change between runs, in the order they appear.
func (r *recorder) collect(data []byte) {
	if _, body, ok := bytes.Cut(data, []byte("data: ")); ok && bytes.HasPrefix(data, []byte("id: ")) {
		data = body
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var key string
	inObject := []bool{}
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				inObject = append(inObject, true)
				expectKey = true
			case '[':
				inObject = append(inObject, false)
				expectKey = false
			default:
				inObject = inObject[:len(inObject)-1]
				expectKey = len(inObject) > 0 && inObject[len(inObject)-1]
			}
			continue
		case string:
			if expectKey {
				key = v
				expectKey = false
				continue
			}
			if kind, ok := runVaries[key]; ok && v != "" {
				r.name(kind, v)
			}
			for _, m := range inviteRe.FindAllStringSubmatch(v, -1) {
				r.name("invite", m[1])
			}
		}
		key = ""
		expectKey = len(inObject) > 0 && inObject[len(inObject)-1]
	}
}

// name gives v a name of its kind, unless it has one.
func (r *recorder) name(kind, v string) {
	if _, ok := r.names[v]; ok {
		return
	}
	r.counts[kind]++
	r.names[v] = fmt.Sprintf("<%s-%d>", kind, r.counts[kind])
}

// normal replaces in s the named values (the longest first) and the
// server's address.
func (r *recorder) normal(s string) string {
	s = strings.ReplaceAll(s, r.h.http.URL, "<server>")
	vs := slices.SortedFunc(func(yield func(string) bool) {
		for v := range r.names {
			if !yield(v) {
				return
			}
		}
	}, func(a, b string) int { return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b)) })
	for _, v := range vs {
		s = strings.ReplaceAll(s, v, r.names[v])
	}
	return s
}

// check compares the log with the file (or writes it, with
// -update-recording), and on a difference shows the first lines that
// differ.
func (r *recorder) check(t *testing.T, path string) {
	t.Helper()
	got := r.log.Bytes()
	if *updateRecording {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run TestAPIRecording -update-recording writes it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gl), len(wl)) {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("the API's answers differ from %s at line %d:\n got: %s\nwant: %s", path, i+1, clipLine(g), clipLine(w))
		}
	}
}

// clipLine shortens a long line for a failure's message.
func clipLine(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}
