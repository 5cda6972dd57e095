package server

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"alak/internal/testlong"
	"alak/notation"
	"alak/rules"
	"alak/server/internal/httpx"
	"alak/solve"
	"alak/wire"
)

// randomLine plays up to n random moves of r from its start (seeded) and
// returns the game and its moves as the API's moves parameter.
func randomLine(t *testing.T, r rules.Rules, n int, rng *rand.Rand) (*rules.Game, string) {
	t.Helper()
	g, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	for k := n; k > 0 && !g.Over(); k-- {
		legal := g.Position().LegalMoves(nil)
		m := legal[rng.IntN(len(legal))]
		words = append(words, notation.Human.Encode(r, m))
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return g, strings.Join(words, ",")
}

// TestPositionAnalysisSmallLines: a server without a table directory
// answers positions of alak on 11 and 13 points complete (every legal move
// valued) from the dense table it makes of the line at the first question,
// in the background, and keeps: the next position of the rules is answered
// from the kept table (counted: one table made a rule set, answers from a
// table), and the tables kept stay within Config.TableMemoryMB (2 MB here:
// 11 points take 0.35 MB, 13 points 3.3 MB, kept alone as the last made),
// the least recently used dropped and made again when asked for, as the
// metrics say. The values on 11 points are alak solve's (solve.Tables, no
// table directory). Under the race detector without ALAK_LONG=1, which
// slows each line made to seconds, 9 and 10 points take the place of 11
// and 13, both kept (solve's TestTablesSmall drops tables), and the
// values are not compared.
func TestPositionAnalysisSmallLines(t *testing.T) {
	t.Parallel()
	big, budget := "alak size=13", 2
	quick := raceEnabled && !testlong.Enabled(t)
	if quick {
		big = "alak size=10"
	}
	h := newHarness(t, Config{TableMemoryMB: budget})
	h.srv.analysis.Limits = httpx.NewLimiters(rate.Inf, 1)
	h.srv.analysis.Positions.DepthNodes = 0 // values only: the depths' graphs are TestPositionAnalysisDepths's
	c := h.client()
	ts := h.srv.tables
	rng := rand.New(rand.NewPCG(44, 6))
	ask := func(spec string, r rules.Rules) (*rules.Game, wire.PositionAnalysis) {
		t.Helper()
		g, moves := randomLine(t, r, 2+rng.IntN(4), rng)
		code, got, body := getAnalysis(t, c, url.Values{"rules": {spec}, "moves": {moves}})
		if code != http.StatusOK || !got.Complete || got.Source != "table" {
			t.Fatalf("%s %s: status %d: %s", spec, moves, code, body)
		}
		if n := len(g.LegalMoves(nil)); len(got.Moves) != n || got.Value == nil {
			t.Fatalf("%s %s: %d moves valued of %d: %s", spec, moves, len(got.Moves), n, body)
		}
		return g, got
	}
	small := "alak size=11"
	if quick {
		small = "alak size=9"
	}
	for i, spec := range []string{small, big} {
		r, err := rules.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		g, got := ask(spec, r)
		t.Logf("%s: the first position answered in %v", spec, time.Since(t0))
		if spec == "alak size=11" && !raceEnabled {
			want, err := (&solve.Tables{}).Solve(context.Background(), g, solve.Options{})
			if err != nil {
				t.Fatal(err)
			}
			a := want.Answer(r)
			for j, m := range got.Moves {
				if m.Move != a.Moves[j].Move || m.Value != a.Moves[j].Value {
					t.Errorf("%s: move %s worth %v, alak solve's %s %v", spec, m.Move, m.Value, a.Moves[j].Move, a.Moves[j].Value)
				}
			}
		}
		before := ts.Stats()
		// Another position of the rules: from the kept table, at once.
		_, moves := randomLine(t, r, 6, rng)
		t0 = time.Now()
		resp, body := c.roundTrip("GET", "/api/analysis?"+url.Values{"rules": {spec}, "moves": {moves}}.Encode(), nil, nil)
		t.Logf("%s: the second in %v", spec, time.Since(t0))
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"source":"table"`) || !strings.Contains(string(body), `"complete":true`) {
			t.Fatalf("%s %s, second position: %d %s", spec, moves, resp.StatusCode, body)
		}
		after := ts.Stats()
		if after.Made != int64(i+1) || after.FromTable <= before.FromTable {
			t.Errorf("%s: %+v after the second position (before %+v): want %d tables made, one more answer from a table", spec, after, before, i+1)
		}
	}
	st := ts.Stats()
	m := scrape(t, h.http.URL)
	if m["alak_solver_tables_kept_bytes"] != float64(st.KeptBytes) || m["alak_solver_tables_made_total"] != 2 || m["alak_solver_tables_dropped_total"] != float64(st.Dropped) {
		t.Errorf("metrics: kept bytes %v made %v dropped %v, stats %+v", m["alak_solver_tables_kept_bytes"], m["alak_solver_tables_made_total"], m["alak_solver_tables_dropped_total"], st)
	}
	if quick {
		return // both tables within 2 MB; solve's TestTablesSmall drops tables
	}
	if st.Kept != 1 || st.Dropped != 1 || st.KeptBytes <= int64(budget)<<20 {
		t.Errorf("after %s: %+v, want its table kept alone (over %d MB), the 11-point one dropped", big, st, budget)
	}
	r11, _ := rules.Parse("alak size=11")
	ask("alak size=11", r11)
	if st := ts.Stats(); st.Made != 3 || st.Kept != 1 || st.KeptBytes > int64(budget)<<20 {
		t.Errorf("11 points again: %+v, want it made again and kept alone, within %d MB", st, budget)
	}
}

// TestPositionAnalysisFairShare: one address floods GET /api/analysis with
// distinct positions of a 64-point line (each a search of seconds, ended
// by the memory bound) at 8 a second, within its rate limit; another
// address's questions are answered all the same, complete: positions of
// alak on 9 points (from the table the server makes: never behind a
// search) and of traditional on 4 points (a short search, here of 300 ms
// at most: never behind the other address's searches, only beside them in
// turn; not under the race detector without ALAK_LONG=1).
func TestPositionAnalysisFairShare(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	h.srv.analysis.Positions.QuickTime = 300 * time.Millisecond
	h.srv.analysis.Positions.DepthNodes = 0
	if raceEnabled && !testlong.Enabled(t) {
		// The race detector takes seconds over each search's graph, and
		// as long to stop one: there the flood's searches end at 1 MB.
		h.srv.analysis.Positions.MemMB = 1
	}
	flood := loopbackClient(t, h, "127.0.0.2")
	other := loopbackClient(t, h, "127.0.0.3")
	stop := make(chan struct{})
	var floods sync.WaitGroup
	var statuses sync.Map // the flood's answers: status → *atomic.Int64
	floods.Go(func() {
		tick := time.NewTicker(125 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			q := url.Values{"rules": {"alak size=64"}, "moves": {fmt.Sprintf("%d,%d", 1+i%64, 1+(i/64+i%64+1)%64)}}
			resp, _ := flood.roundTrip("GET", "/api/analysis?"+q.Encode(), nil, nil)
			n, _ := statuses.LoadOrStore(resp.StatusCode, new(atomic.Int64))
			n.(*atomic.Int64).Add(1)
		}
	})
	defer func() {
		close(stop)
		floods.Wait()
	}()
	accepted := func() int64 {
		if n, ok := statuses.Load(http.StatusAccepted); ok {
			return n.(*atomic.Int64).Load()
		}
		return 0
	}
	for wait := time.Now().Add(30 * time.Second); accepted() < 4; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(wait) {
			t.Fatal("the flood's positions were not queued")
		}
	}
	rng := rand.New(rand.NewPCG(7, 7))
	deadline := time.Now().Add(30 * time.Second)
	asks := []string{"alak size=9", "traditional size=4", "alak size=9", "alak size=9"}
	if raceEnabled && !testlong.Enabled(t) {
		asks = []string{"alak size=9", "alak size=9", "alak size=9"} // the short search takes seconds there
	}
	for i, spec := range asks {
		r, err := rules.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		_, moves := randomLine(t, r, 1+i, rng)
		q := "/api/analysis?" + url.Values{"rules": {spec}, "moves": {moves}}.Encode()
		t0 := time.Now()
		for {
			resp, body := other.roundTrip("GET", q, nil, nil)
			if resp.StatusCode == http.StatusOK {
				if !strings.Contains(string(body), `"complete":true`) {
					t.Errorf("%s %s: %s", spec, moves, body)
				}
				t.Logf("%s %s: answered in %v", spec, moves, time.Since(t0))
				break
			}
			if resp.StatusCode != http.StatusAccepted || time.Now().After(deadline) {
				t.Fatalf("%s %s while another address floods: %d %s", spec, moves, resp.StatusCode, body)
			}
			time.Sleep(200 * time.Millisecond) // within the address's rate
		}
	}
}
