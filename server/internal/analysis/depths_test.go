package analysis

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"alak/rules"
	"alak/solve"
)

// TestDepthGraphsMatchDepths: the depths read from the kept graph of the
// rules' start position (depthGraphs) are those solve.Depths finds from
// the position's own graph, as the server computed them for every request
// before, on random games of alak on 7 points without a ko rule (long
// enough that some histories use positions up: the third occurrence is a
// draw), on 9 points, and for a diagram of alak on 7 points reachable from
// the start and one that is not (answered from its own graph); one graph
// is enumerated for each rule set whatever the number of positions asked.
func TestDepthGraphsMatchDepths(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := newDepthGraphs(posDepthCached)
	opt := solve.Options{MaxNodes: posDepthNodes, MemoryMB: MemoryMB}
	check := func(name string, g *rules.Game) {
		t.Helper()
		want, werr := solve.Depths(ctx, g, opt)
		got, err := d.depths(ctx, g, posDepthNodes, posDepthNodes, MemoryMB, true)
		if err != nil || werr != nil {
			t.Fatalf("%s: depths %v, solve.Depths %v", name, err, werr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: depths from the kept graph %v, solve.Depths %v", name, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(26, 31))
	usedUp := 0
	for _, c := range []struct {
		spec         string
		games, plies int
	}{{"alak size=7 ko=none", 30, 40}, {"alak size=9", 1, 12}} {
		r, err := rules.Parse(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < c.games; i++ {
			g, _ := rules.NewGame(r)
			for k := rng.IntN(c.plies + 1); k > 0 && !g.Over(); k-- {
				legal := g.Position().LegalMoves(nil)
				if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
			seen := map[uint64]int{}
			for p := 0; p <= g.Len(); p++ {
				if seen[g.PositionAt(p).Hash()]++; seen[g.PositionAt(p).Hash()] == r.Repetition-1 {
					usedUp++
				}
			}
			check(fmt.Sprint(c.spec, " ", g.Moves()), g)
		}
	}
	if usedUp == 0 {
		t.Errorf("no game's history used a position up: the seed no longer tests it")
	}
	r, _ := rules.Parse("alak size=7")
	g, _ := rules.NewGame(r)
	check("alak size=7", g)
	for _, c := range []struct {
		diagram string
		inGraph bool
	}{{"x-o-x-- x", true}, {"xxxxxx- o", false}} {
		pos, err := rules.ParsePosition(r, c.diagram)
		if err != nil {
			t.Fatal(err)
		}
		e := d.entry(r.String())
		e.mu.Lock()
		in := e.gr.Contains(pos)
		e.mu.Unlock()
		if in != c.inGraph {
			t.Fatalf("%s: in the start's graph %v, want %v", c.diagram, in, c.inGraph)
		}
		check(c.diagram, rules.NewGameFrom(pos))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.built != 3 {
		t.Errorf("%d graphs enumerated for 3 rule sets", d.built)
	}
}

// TestDepthGraphsBounded: past the positions kept the least recently used
// rule set's graph is forgotten (and enumerated again when asked), never
// the one just asked; the count of positions kept is the graphs'.
func TestDepthGraphsBounded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sizes := map[string]int{}
	ask := func(d *depthGraphs, spec string) {
		t.Helper()
		r, _ := rules.Parse(spec)
		g, _ := rules.NewGame(r)
		if _, err := d.depths(ctx, g, posDepthNodes, posDepthNodes, MemoryMB, true); err != nil {
			t.Fatal(err)
		}
		sizes[spec] = d.by[r.String()].size
	}
	// Sizes measured by a first pass with room for all.
	all := newDepthGraphs(posDepthCached)
	for _, spec := range []string{"alak size=5", "alak size=6", "alak size=7"} {
		ask(all, spec)
	}
	// Room for 6 and 7 together but not with 5 as well.
	d := newDepthGraphs(sizes["alak size=6"] + sizes["alak size=7"])
	for _, spec := range []string{"alak size=5", "alak size=6", "alak size=5", "alak size=7", "alak size=6"} {
		ask(d, spec)
	}
	// 5, 6, 5 (kept), 7 (6 goes: the least recently used), 6 (again; 5 goes).
	if d.built != 4 || len(d.by) != 2 || d.kept != sizes["alak size=6"]+sizes["alak size=7"] || d.kept > d.max {
		t.Errorf("built %d, kept %d rule sets with %d positions (bound %d), want 4, 2 and %d", d.built, len(d.by), d.kept, d.max, sizes["alak size=6"]+sizes["alak size=7"])
	}
	r5, _ := rules.Parse("alak size=5")
	if _, ok := d.by[r5.String()]; ok {
		t.Errorf("alak size=5 kept: it was the least recently used")
	}
}

// TestDepthGraphsConcurrent: requests at once on one rule set share its
// graph (whose values are recomputed when histories use different
// positions up) and each gets solve.Depths' answer for its own position;
// run under -race.
func TestDepthGraphsConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, err := rules.Parse("alak size=7 ko=none")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(27, 31))
	var games []*rules.Game
	var want []map[rules.Move]solve.MoveDepth
	for range 16 {
		g, _ := rules.NewGame(r)
		for k := rng.IntN(30); k > 0 && !g.Over(); k-- {
			legal := g.Position().LegalMoves(nil)
			if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		w, err := solve.Depths(ctx, g, solve.Options{MaxNodes: posDepthNodes, MemoryMB: MemoryMB})
		if err != nil {
			t.Fatal(err)
		}
		games, want = append(games, g), append(want, w)
	}
	d := newDepthGraphs(posDepthCached)
	errs := make(chan string, len(games))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(games); i += 4 {
				got, err := d.depths(ctx, games[i], posDepthNodes, posDepthNodes, MemoryMB, true)
				if err != nil || !reflect.DeepEqual(got, want[i]) {
					errs <- fmt.Sprintf("game %d %v: %v %v, solve.Depths %v", i, games[i].Moves(), got, err, want[i])
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if d.built != 1 {
		t.Errorf("%d graphs enumerated for one rule set", d.built)
	}
}
