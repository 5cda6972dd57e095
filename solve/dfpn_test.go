package solve

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"testing"

	"alak/internal/testlong"
	"alak/proofcheck"
	"alak/rules"
)

// TestProveNumbersAgainstBruteForce checks the proof-number search against
// the brute force of brute_test.go on the boards of
// TestProveAgainstBruteForce, from the start and after every first move:
// every goal that holds is proved, with a certificate that checks, and
// every goal that does not is disproved, with a certificate of the
// opponent's (Counter) that checks.
func TestProveNumbersAgainstBruteForce(t *testing.T) {
	t.Parallel()
	cases := []struct {
		preset string
		sizes  []int
	}{
		{"alak", []int{1, 2, 3, 4, 5}},
		{"traditional", []int{1, 2}},
		{"tromp-taylor", []int{1, 2, 3}},
		{"alterigo", []int{1, 2, 3}},
	}
	for _, c := range cases {
		for _, n := range c.sizes {
			t.Run(fmt.Sprintf("%s/%d", c.preset, n), func(t *testing.T) {
				for _, g := range rootAndReplies(t, c.preset, n) {
					nodes := 0
					v := brute(g.Clone(), &nodes, 5e7, map[string]float64{})
					for _, w := range []rules.Color{rules.Black, rules.White} {
						for _, draw := range []bool{false, true} {
							want := provable(v, w, draw)
							for _, table := range []bool{false, true} {
								pr, err := Prove(context.Background(), g, w, ProveOptions{Draw: draw, ProofNumbers: true, Certificate: true, Counter: true, Table: table})
								if err != nil {
									t.Fatal(err)
								}
								if pr.Proved != want || pr.Disproved == want {
									t.Errorf("after %v: value %v; %v (draw %v, table %v): proved %v, disproved %v", g.Moves(), v, w, draw, table, pr.Proved, pr.Disproved)
									continue
								}
								checkSettled(t, g, w, draw, pr)
							}
						}
					}
				}
			})
		}
	}
}

// checkSettled checks the certificate of a settled claim: w's proof, or
// the opponent's of the other goal (Counter) where it was disproved.
func checkSettled(t *testing.T, g *rules.Game, w rules.Color, draw bool, pr Proof) {
	t.Helper()
	if pr.Proved {
		checkCertificate(t, g, w, draw, pr.Tree)
	} else {
		checkCertificate(t, g, w.Opp(), !draw, pr.Counter)
	}
}

// graphSearch is a proof-number search for w's goal on g with the state
// graph, as Prove sets it up, its table at most entries.
func graphSearch(t *testing.T, g *rules.Game, w rules.Color, draw bool, entries int) *pnSearch {
	t.Helper()
	return newSearch(t, g, w, draw, entries, true)
}

// newSearch is a proof-number search for w's goal on g, with the state
// graph or without, its table at most entries.
func newSearch(t *testing.T, g *rules.Game, w rules.Color, draw bool, entries int, graph bool) *pnSearch {
	t.Helper()
	p := &prover{ctx: context.Background(), g: g.Clone(), w: w, draw: draw, cut: map[uint64]rules.Move{}}
	if graph {
		if err := p.useGraph(0); err != nil {
			t.Fatal(err)
		}
	}
	return newPNSearch(p, map[pathKey]pnEntry{}, entries, nil)
}

// TestProveNumbersTraditional: on the seed's Traditional Alak, with the
// state graph, the proof-number search settles every goal from the start
// and after every first move; the values from the start are those of
// docs/results-traditional.md (3 and 4 points Black wins, 5 and 6 draws), everything
// iterative deepening proves it proves too (and never disproves), and its
// certificates check, those of disproofs (the opponent's) included.
func TestProveNumbersTraditional(t *testing.T) {
	t.Parallel()
	sizes := []int{3, 4, 5, 6}
	if raceEnabled {
		sizes = []int{3, 4} // 7 s with 5 points under the race detector
	}
	for _, n := range sizes {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			v := 0.0 // results-traditional.md: the sign is what matters here
			if n == 3 || n == 4 {
				v = 1
			}
			for i, g := range rootAndReplies(t, "traditional", n) {
				for _, w := range []rules.Color{rules.Black, rules.White} {
					for _, draw := range []bool{false, true} {
						pr, err := Prove(context.Background(), g, w, ProveOptions{Draw: draw, Graph: true, ProofNumbers: true, Certificate: true, Counter: true})
						if err != nil {
							t.Fatal(err)
						}
						tpr, err := Prove(context.Background(), g, w, ProveOptions{Draw: draw, Graph: true, ProofNumbers: true, Certificate: true, Counter: true, Table: true})
						if err != nil {
							t.Fatal(err)
						}
						if tpr.Proved != pr.Proved || tpr.Disproved != pr.Disproved {
							t.Fatalf("after %v, %v (draw %v): proved %v, disproved %v with the table by state; %v, %v without", g.Moves(), w, draw, tpr.Proved, tpr.Disproved, pr.Proved, pr.Disproved)
						}
						checkSettled(t, g, w, draw, tpr)
						if pr.Proved == pr.Disproved {
							t.Fatalf("after %v, %v (draw %v): proved %v, disproved %v", g.Moves(), w, draw, pr.Proved, pr.Disproved)
						}
						if i == 0 && pr.Proved != provable(v, w, draw) {
							t.Errorf("from the start, %v (draw %v): proved %v; results-traditional.md says %v", w, draw, pr.Proved, provable(v, w, draw))
						}
						id, err := Prove(context.Background(), g, w, ProveOptions{Draw: draw, Depth: 30, Graph: true, Table: true})
						if err != nil {
							t.Fatal(err)
						}
						if id.Proved && !pr.Proved {
							t.Errorf("after %v, %v (draw %v): iterative deepening proves it, proof numbers disprove it", g.Moves(), w, draw)
						}
						checkSettled(t, g, w, draw, pr)
					}
				}
			}
		})
	}
}

// TestProveNumbersSmallTable: with a table far too small for the search
// (TableEntries 500, where 6 points takes tens of thousands of positions),
// the entries that took least work are dropped again and again (collect),
// and the search still settles every goal on Traditional Alak's 5 and 6
// points as with the default table, with certificates that check both
// ways.
func TestProveNumbersSmallTable(t *testing.T) {
	t.Parallel()
	n := 6
	if raceEnabled {
		n = 5
	}
	g := rootAndReplies(t, "traditional", n)[0]
	for _, w := range []rules.Color{rules.Black, rules.White} {
		for _, draw := range []bool{false, true} {
			want, err := Prove(context.Background(), g, w, ProveOptions{Draw: draw, Graph: true, ProofNumbers: true})
			if err != nil {
				t.Fatal(err)
			}
			pr, err := Prove(context.Background(), g, w, ProveOptions{Draw: draw, Graph: true, ProofNumbers: true, Certificate: true, Counter: true, TableEntries: 500})
			if err != nil {
				t.Fatal(err)
			}
			if pr.Proved != want.Proved || pr.Disproved != want.Disproved {
				t.Fatalf("%v (draw %v): proved %v, disproved %v with 500 entries; %v, %v with the default table", w, draw, pr.Proved, pr.Disproved, want.Proved, want.Disproved)
			}
			if pr.Nodes <= want.Nodes {
				t.Errorf("%v (draw %v): %d positions with 500 entries, %d with the default: the small table should have cost searches again", w, draw, pr.Nodes, want.Nodes)
			}
			checkSettled(t, g, w, draw, pr)
		}
	}
}

// TestGraphWin: where the graph wins for White within 12 plies on 5 points
// of Traditional Alak (positions of random games, their histories kept),
// a strategy graphWin plays out without a repetition is written out as a
// certificate that the checker accepts (a win in the game, with the
// history), and the check does fail where a line of the strategy meets a
// repetition draw.
func TestGraphWin(t *testing.T) {
	t.Parallel()
	g0 := newGame(t, "traditional", 5)
	s := graphSearch(t, g0, rules.White, false, 1000)
	rng := rand.New(rand.NewSource(1))
	held, repeated := 0, 0
	for range 1000 {
		g := g0.Clone()
		s.g = g
		for ply := 0; ply < 60 && !g.Over(); ply++ {
			if i, ok := s.sg.keys[keyOf(g.Position())]; ok && s.grank[i] >= 1 && s.grank[i] <= gwR {
				before := g.Len()
				ok, played := s.graphWin(nil)
				if g.Len() != before {
					t.Fatalf("graphWin left the game at %d moves, not %d", g.Len(), before)
				}
				switch {
				case ok && held < 50:
					held++
					s.startRecording(0, false)
					if !s.writeStrategy() {
						t.Fatalf("after %v: graphWin holds, the strategy written out does not", g.Moves())
					}
					checkCertificate(t, g, rules.White, false, s.rec)
					s.rec, s.recMax = nil, 0
				case !ok && played < gwB:
					repeated++ // a line of the strategy met a repetition draw
				}
			}
			ms := g.LegalMoves(nil)
			if err := g.Play(ms[rng.Intn(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if held < 50 || repeated == 0 {
		t.Errorf("%d strategies held and were checked, %d met a repetition: want 50, and some", held, repeated)
	}
}

// BenchmarkProveNumbers8After3: White's win on 8 points of Traditional
// Alak after Black's 3, the hardest claim of 8 points (results-traditional.md), by
// proof numbers with the graph, from the graph's building to the proof
// (no certificate); positions/op is the search's count, near wins played
// out included.
func BenchmarkProveNumbers8After3(b *testing.B) {
	r := rules.MustPreset("traditional")
	r.Width = 8
	g, err := rules.NewGame(r)
	if err != nil {
		b.Fatal(err)
	}
	if err := g.Play(rules.Place(2)); err != nil {
		b.Fatal(err)
	}
	var nodes int64
	for b.Loop() {
		pr, err := Prove(context.Background(), g, rules.White, ProveOptions{Graph: true, ProofNumbers: true})
		if err != nil || !pr.Proved {
			b.Fatalf("proved %v, %v", pr.Proved, err)
		}
		nodes = pr.Nodes
	}
	b.ReportMetric(float64(nodes), "positions/op")
}

// TestProveNumbersCheckpoints: the search reports its progress at every
// interval however many positions the near wins add at once (White's win
// on 7 points after 3, disproved in some 6,000 positions, near wins
// played out among them), and a context cancelled stops it at its first
// checkpoint.
func TestProveNumbersCheckpoints(t *testing.T) {
	t.Parallel()
	g := newGame(t, "traditional", 7)
	if err := g.Play(rules.Place(2)); err != nil {
		t.Fatal(err)
	}
	s := graphSearch(t, g, rules.White, false, 1<<20)
	var calls []int64
	s.report, s.checkEvery, s.reportEvery = 50, 10, 50
	s.searched = func(nodes int64, _ int) { calls = append(calls, nodes) }
	if r := s.prove(); r != -1 {
		t.Fatalf("White's win on 7 points after 3 (results-traditional.md: Black holds the draw): %d, err %v", r, s.err)
	}
	t.Logf("%d reports in %d positions", len(calls), s.nodes)
	if want := s.nodes / 50 / 2; s.nodes < 5000 || int64(len(calls)) < want {
		t.Errorf("%d reports in %d positions, want %d or more: %v", len(calls), s.nodes, want, calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Prove(ctx, newGame(t, "traditional", 7), rules.White, ProveOptions{Draw: true, ProofNumbers: true})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context: %v", err)
	}
}

// TestProveNumbersWindows: the table by state with its windows (draws that
// relied on repetitions of the last plies' positions, windowKey) settles
// every goal as the search with no table does, from positions of random
// games of Traditional Alak on 5 and 6 points with their histories kept
// and without the graph (so that the draws are repetitions), and the
// certificates it records check with those histories. The windows are
// entered and do answer lookups (else the test would test nothing).
func TestProveNumbersWindows(t *testing.T) {
	t.Parallel()
	// 30 games a size with ALAK_LONG=1, 4 without. The seed's games are
	// fixed: measured, 1 game makes no window hit, 2 make 2 and 4 make 166
	// (30: 292).
	games := testlong.Size(t, 4, 30)
	rng := rand.New(rand.NewSource(7))
	var entries, hits int64
	settled := 0
	atRandomGoals(t, rng, []int{5, 6}, games, 40, 8, func(g *rules.Game, w rules.Color, draw bool) {
		want, err := Prove(context.Background(), g, w, ProveOptions{Draw: draw, ProofNumbers: true})
		if err != nil {
			t.Fatal(err)
		}
		s := newSearch(t, g, w, draw, 1<<20, false)
		s.useTable()
		r := s.prove()
		if r == 0 || (r > 0) != want.Proved || (r < 0) != want.Disproved {
			t.Fatalf("after %v, %v (draw %v): %d with the windows (err %v); proved %v, disproved %v without a table", g.Moves(), w, draw, r, s.err, want.Proved, want.Disproved)
		}
		entries += int64(len(s.ws))
		hits += s.windowHits
		pr, err := Prove(context.Background(), g, w, ProveOptions{Draw: draw, ProofNumbers: true, Table: true, Certificate: true, Counter: true})
		if err != nil {
			t.Fatal(err)
		}
		checkSettled(t, g, w, draw, pr)
		settled++
	})
	t.Logf("%d goals settled; %d window entries, %d lookups answered by them", settled, entries, hits)
	if entries == 0 || hits == 0 {
		t.Errorf("%d window entries, %d lookups answered: the windows were not exercised", entries, hits)
	}
}

// TestProveNumbersSharedWins: with the table by state, wins found on one
// line are used on others where their reach holds (reach.go). From
// positions of random games on 5 to 7 points, up to 80 plies long (so
// that the history holds repetitions the reach is checked against), every
// goal is settled as without shared wins, and so is every goal at the
// lines where the search took a win from the table with positions of its
// reach in the history (up to 4 a search). The certificates, with shared
// subtrees of wins (format 3), check, the checker counting the subtrees
// and references the writer says it wrote; some states have a second
// subtree, written for a line where the first did not hold, and subtrees
// no reference named are written in line (compactWins). A check that ignored the history
// (holds always true) fails it.
func TestProveNumbersSharedWins(t *testing.T) {
	t.Parallel()
	games, sizes := 6, []int{5, 6, 7}
	if raceEnabled {
		// Smaller: its wins taken by the table are checked all the same,
		// but none is refused by the history and no certificate refers
		// to a subtree, so that each is written in line (those are
		// checked without the race detector, as CI does too): 5 and 6
		// points with ALAK_LONG=1, 5 without (measured: 8 goals, the wins
		// taken by the table all on 5 points).
		games, sizes = 2, []int{5, 6}[:testlong.Size(t, 1, 2)]
	}
	rng := rand.New(rand.NewSource(3))
	var hits, misses, shared, refs, again, inLine int64
	settled, checked := 0, 0
	// settle is the search with the table and its windows, shared wins
	// or not.
	settle := func(g *rules.Game, w rules.Color, draw, wins bool, hook func(*pnSearch, *reach)) int {
		s := newSearch(t, g, w, draw, 1<<20, false)
		s.useTable()
		if !wins {
			s.rx, s.sw = nil, nil
		}
		if hook != nil {
			s.onWinHit = func(r *reach) { hook(s, r) }
		}
		r := s.prove()
		if r == 0 {
			t.Fatalf("after %v, %v (draw %v): %v", g.Moves(), w, draw, s.err)
		}
		hits += s.winHits
		misses += s.winMisses
		return r
	}
	atRandomGoals(t, rng, sizes, games, 80, 10, func(g *rules.Game, w rules.Color, draw bool) {
		var at [][]rules.Move // lines where a win was taken with history in its reach
		want := settle(g, w, draw, false, nil)
		got := settle(g, w, draw, true, func(s *pnSearch, r *reach) {
			if len(at) >= 4 {
				return
			}
			for _, e := range r.ids {
				if s.rx.before(e>>4) > 0 {
					at = append(at, s.g.Moves())
					return
				}
			}
		})
		if got != want {
			t.Fatalf("after %v, %v (draw %v): %d with shared wins, %d without", g.Moves(), w, draw, got, want)
		}
		for _, line := range at {
			h := rules.NewGameFrom(g.Start())
			for _, m := range line {
				if err := h.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			winner := w // the side seeking a win there
			if draw {
				winner = w.Opp()
			}
			if settle(h, winner, false, false, nil) <= 0 {
				t.Fatalf("after %v the search took a win for %v from the table, which the search without shared wins disproves there", line, winner)
			}
			checked++
		}
		for _, graph := range []bool{false, true} {
			pr, err := Prove(context.Background(), g, w, ProveOptions{Draw: draw, ProofNumbers: true, Table: true, Graph: graph, Certificate: true, Counter: true})
			if err != nil {
				t.Fatal(err)
			}
			var sum proofcheck.Summary
			switch {
			case pr.Proved:
				sum = checkCertificate(t, g, w, draw, pr.Tree)
			default:
				sum = checkCertificate(t, g, w.Opp(), !draw, pr.Counter)
			}
			if !sum.Draw {
				shared += sum.Shared
				refs += sum.References
				again += pr.WinSubtreesAgain
				inLine += pr.WinSubtreesInLine
				// The writer's counts are the checker's.
				if sum.Shared != pr.WinSubtrees || sum.References != pr.WinReferences {
					t.Errorf("after %v, %v (draw %v): the checker found %d shared subtrees and %d references, the writer says %d and %d",
						g.Moves(), w, draw, sum.Shared, sum.References, pr.WinSubtrees, pr.WinReferences)
				}
			}
		}
		settled++
	})
	t.Logf("%d goals settled; %d lookups answered by shared wins, %d refused by the history; %d lines of such wins checked; win certificates with %d shared subtrees (%d written again at a state for a line the first did not hold on), %d references, %d subtrees no reference named written in line", settled, hits, misses, checked, shared, again, refs, inLine)
	if hits == 0 || checked == 0 || shared+inLine == 0 || !raceEnabled && (misses == 0 || refs == 0 || again == 0 || shared == 0 || inLine == 0) {
		t.Errorf("the sharing of wins was not exercised")
	}
}

// atRandomGoals plays games of Traditional Alak on each size, games a
// size, with random moves from rng for up to plies plies, and calls f with
// the game after every every-th ply where it goes on, for each player and
// goal: positions with histories, as the search meets them.
func atRandomGoals(t *testing.T, rng *rand.Rand, sizes []int, games, plies, every int, f func(g *rules.Game, w rules.Color, draw bool)) {
	t.Helper()
	for _, n := range sizes {
		g0 := newGame(t, "traditional", n)
		for range games {
			g := g0.Clone()
			for ply := 0; ply < plies && !g.Over(); ply++ {
				ms := g.LegalMoves(nil)
				if err := g.Play(ms[rng.Intn(len(ms))]); err != nil {
					t.Fatal(err)
				}
				if ply%every != every-1 || g.Over() {
					continue
				}
				for _, w := range []rules.Color{rules.Black, rules.White} {
					for _, draw := range []bool{false, true} {
						f(g, w, draw)
					}
				}
			}
		}
	}
}
