package server

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"alak/internal/testlong"
	"alak/notation"
	"alak/rules"
	"alak/server/internal/analysis"
	"alak/server/internal/httpx"
	"alak/solve"
	"alak/wire"
)

// analysisCases are rules of every preset the solver answers, on lines
// and grids small enough for a test (2 random positions each, 12 with
// ALAK_LONG=1; one on the grid): alak on 9 points is answered from a dense
// table in the table directory, the other small lines from the table the
// server makes of them, the rest by the server's search.
var analysisCases = []string{"alak size=9", "alak size=7 edge=off", "traditional size=4", "tromp-taylor size=4", "alterigo size=7", "alterigo size=3x3", "dewdney size=8", "golf size=8"}

// getAnalysis asks GET /api/analysis with q until it is answered (202:
// being computed) and decodes the answer.
func getAnalysis(t *testing.T, c *client, q url.Values) (int, wire.PositionAnalysis, string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, body := c.roundTrip("GET", "/api/analysis?"+q.Encode(), nil, nil)
		if resp.StatusCode == http.StatusAccepted && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		var out wire.PositionAnalysis
		if resp.StatusCode == http.StatusOK {
			if err := json.Unmarshal(body, &out); err != nil {
				t.Fatalf("%s: %v", body, err)
			}
		}
		return resp.StatusCode, out, string(body)
	}
}

// TestPositionAnalysisMatchesSolve: on random positions of every preset
// the solver answers, GET /api/analysis gives the numbers `alak solve
// --json` gives (computed here as the command does: solve.Tables.Solve
// with no node limit, over the same table directory or none), from the
// table where the directory has one or the line is small
// ("source":"table") and by the search otherwise.
func TestPositionAnalysisMatchesSolve(t *testing.T) {
	t.Parallel()
	_, _, dir := denseDir(t, "alak size=9")
	h := newHarness(t, Config{TableDir: dir})
	h.srv.analysis.Limits = httpx.NewLimiters(rate.Inf, 1)
	c := h.client()
	rng := rand.New(rand.NewPCG(31, 1))
	per := 2
	if testlong.Enabled(t) {
		per = 12
	}
	for _, spec := range analysisCases {
		r, err := rules.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		want := &solve.Tables{Jobs: 1}
		if spec == "alak size=9" {
			want = &solve.Tables{Dir: dir, Jobs: 1, ReadOnly: true}
		}
		n := per
		if !r.IsLine() && !testlong.Enabled(t) {
			n = 1 // a grid's search is the slowest here
		}
		for i := 0; i < n; i++ {
			g, err := rules.NewGame(r)
			if err != nil {
				t.Fatal(err)
			}
			var words []string
			for k := rng.IntN(5); k > 0 && !g.Over(); k-- {
				legal := g.Position().LegalMoves(nil)
				m := legal[rng.IntN(len(legal))]
				words = append(words, notation.Human.Encode(r, m))
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			res, err := want.Solve(context.Background(), g, solve.Options{})
			if err != nil {
				t.Fatalf("%s %v: solve: %v", spec, words, err)
			}
			code, got, body := getAnalysis(t, c, url.Values{"rules": {spec}, "moves": {strings.Join(words, ",")}})
			if code != http.StatusOK {
				t.Fatalf("%s %v: status %d: %s", spec, words, code, body)
			}
			name := spec + " " + strings.Join(words, ",")
			a := res.Answer(r)
			if !got.Complete || got.Value == nil || *got.Value != res.Value || got.Outcome != a.Outcome {
				t.Errorf("%s: value %v %q complete %v, alak solve %v %q", name, got.Value, got.Outcome, got.Complete, res.Value, a.Outcome)
			}
			if !reflect.DeepEqual(got.Best, a.Best) || !reflect.DeepEqual(got.PV, a.PV) {
				t.Errorf("%s: best %v pv %v, alak solve %v %v", name, got.Best, got.PV, a.Best, a.PV)
			}
			moves := map[string]float64{}
			for _, m := range got.Moves {
				moves[m.Move] = m.Value
			}
			wantMoves := map[string]float64{}
			for m, v := range res.Moves {
				wantMoves[notation.Human.Encode(r, m)] = v
			}
			if !reflect.DeepEqual(moves, wantMoves) {
				t.Errorf("%s: moves %v, alak solve %v", name, moves, wantMoves)
			}
			wantSource := "search"
			if spec == "alak size=9" || want.Small(r) {
				wantSource = "table"
			}
			if got.Source != wantSource {
				t.Errorf("%s: source %q, want %q", name, got.Source, wantSource)
			}
		}
	}
}

// TestPositionAnalysisDepths: from the dense table of alak on 9 points the
// start position's answer carries depths; the position's depth is one
// more than that of a best move (the winner's quickest), and a move worth
// a draw has none. The values of the depths' graph agree with the table's
// (addDepths drops them otherwise), which solve.Depths checks against a
// brute force. Answers for other positions of the rules read the same
// depths' graph: it is enumerated once (it was for every request before,
// 52 ms of each answer: docs/load.md).
func TestPositionAnalysisDepths(t *testing.T) {
	t.Parallel()
	_, _, dir := denseDir(t, "alak size=9")
	h := newHarness(t, Config{TableDir: dir})
	code, got, body := getAnalysis(t, h.client(), url.Values{"rules": {"alak size=9"}, "moves": {"5"}})
	if code != http.StatusOK || !got.Complete || got.Source != "table" {
		t.Fatalf("status %d: %s", code, body)
	}
	if got.Depth == nil && *got.Value != 0 {
		t.Fatalf("no depth for a decided position: %s", body)
	}
	bestDepth := map[string]int{}
	for _, m := range got.Moves {
		switch {
		case m.Value == 0 && m.Depth != nil:
			t.Errorf("move %s is a draw with depth %d", m.Move, *m.Depth)
		case m.Value != 0 && m.Depth == nil:
			t.Errorf("move %s worth %v has no depth", m.Move, m.Value)
		case m.Depth != nil && m.Value == *got.Value:
			bestDepth[m.Move] = *m.Depth
		}
	}
	if *got.Value != 0 {
		quick := -1
		for _, d := range bestDepth {
			if quick < 0 || d < quick {
				quick = d
			}
		}
		// o is to move after 5: o wins when the value is negative.
		if *got.Value > 0 {
			quick = -1
			for _, d := range bestDepth {
				quick = max(quick, d)
			}
		}
		if *got.Depth != quick+1 {
			t.Errorf("depth %d, best moves' depths %v", *got.Depth, bestDepth)
		}
	}
	for _, moves := range []string{"5,4", "2,7,4"} {
		code, got, body := getAnalysis(t, h.client(), url.Values{"rules": {"alak size=9"}, "moves": {moves}})
		if code != http.StatusOK || got.Source != "table" || got.Depth == nil && *got.Value != 0 {
			t.Fatalf("%s: status %d, no depth for a decided position: %s", moves, code, body)
		}
	}
	if n := h.srv.analysis.Positions.GraphsBuilt(); n != 1 {
		t.Errorf("%d depths' graphs enumerated for three positions of one rule set", n)
	}
}

// TestPositionAnalysisBudget: with a budget of 50 positions a position
// without a table (none made: no small lines here) is not solved, and the
// answer says so: complete false, no value, best nor pv, "not solved
// within 50 positions", and only moves whose values are proved (each equal
// to the full solve's), with the bound they give.
func TestPositionAnalysisBudget(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	h.srv.analysis.Positions.Nodes = 50
	h.srv.tables.SmallStates = -1
	spec := "alak size=9"
	code, got, body := getAnalysis(t, h.client(), url.Values{"rules": {spec}, "moves": {"5,4"}})
	if code != http.StatusOK {
		t.Fatalf("status %d: %s", code, body)
	}
	if got.Complete || got.Value != nil || len(got.Best) != 0 || len(got.PV) != 0 || got.Depth != nil {
		t.Errorf("a cut-off solve gave a value: %s", body)
	}
	if !strings.Contains(got.Message, "not solved within 50 positions") {
		t.Errorf("message %q", got.Message)
	}
	r, _ := rules.Parse(spec)
	g, _ := rules.NewGame(r)
	for _, w := range []string{"5", "4"} {
		m, err := notation.Human.Decode(r, w)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	full, err := solve.Solve(context.Background(), g, solve.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range got.Moves {
		mv, _ := notation.Human.Decode(r, m.Move)
		if full.Moves[mv] != m.Value {
			t.Errorf("move %s: %v, the full solve %v", m.Move, m.Value, full.Moves[mv])
		}
	}
	if len(got.Moves) > 0 && (got.Bound == nil || got.Bound.AtLeast == nil) {
		t.Errorf("x to move with proved moves: want an at_least bound: %s", body)
	}
}

// TestPositionAnalysisRefusals: bad input gets a clear error, and one
// address gets analysis.RequestBurst answers at once, then 429 with
// Retry-After.
func TestPositionAnalysisRefusals(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	c := h.client()
	for _, tc := range []struct {
		q    url.Values
		code int
		word string
	}{
		{url.Values{"rules": {"nosuch"}}, 422, "bad_rules"},
		{url.Values{"rules": {"alak size=5"}, "moves": {"3,3"}}, 422, "bad_position"},
		{url.Values{"rules": {"alak size=5"}, "moves": {strings.Repeat("1,", 3000)}}, 422, "too_long"},
		{url.Values{"rules": {"alterigo"}}, 422, "unsupported"},
		{url.Values{"rules": {"alak size=5"}, "position": {"x-o--"}}, 422, "bad_position"}, // no player to move
	} {
		resp, body := c.roundTrip("GET", "/api/analysis?"+tc.q.Encode(), nil, nil)
		if resp.StatusCode != tc.code || !strings.Contains(string(body), tc.word) {
			t.Errorf("%v: %d %s, want %d %s", tc.q, resp.StatusCode, body, tc.code, tc.word)
		}
	}
	n := 5
	for ; n < analysis.RequestBurst+5; n++ {
		resp, body := c.roundTrip("GET", "/api/analysis?rules=nosuch", nil, nil)
		if resp.StatusCode == http.StatusTooManyRequests {
			if resp.Header.Get("Retry-After") == "" || !strings.Contains(string(body), "rate_limited") {
				t.Errorf("429 without Retry-After: %s", body)
			}
			break
		}
	}
	if n != analysis.RequestBurst {
		t.Errorf("refused after %d requests, want %d", n, analysis.RequestBurst)
	}
}

// TestRulesPageFairPlay: the rules page says plainly that a solver may not
// be used during a rated game.
func TestRulesPageFairPlay(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	resp, body := h.client().roundTrip("GET", "/rules", nil, nil)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `id="fair-play"`) ||
		!strings.Contains(string(body), "using a solver, the analysis board or any other help during a rated game is not allowed") {
		t.Errorf("the rules page: %d, no fair-play rule", resp.StatusCode)
	}
}
