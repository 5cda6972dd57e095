package solve

import (
	"context"
	"fmt"
	"testing"

	"alak/rules"
)

// TestProveTableSame proves every goal on small Traditional boards (from the
// start and after every first move) with and without the table: the table
// must change no result (proved or not, and the plies of the proof, which
// iterative deepening makes the least that suffice), and each proof found
// with it must have a certificate the checker of package proofcheck
// accepts. The values themselves are those of docs/results-traditional.md
// ("traditional"): 2 points a draw, 3 and 4 Black wins, 5 a draw.
func TestProveTableSame(t *testing.T) {
	t.Parallel()
	for _, n := range sameSizes() {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			games := rootAndReplies(t, "traditional", n)
			var plain, shared, hits int64
			for _, g := range games {
				for _, w := range []rules.Color{rules.Black, rules.White} {
					for _, draw := range []bool{false, true} {
						want, err := Prove(context.Background(), g, w, ProveOptions{Draw: draw, Depth: 20})
						if err != nil {
							t.Fatal(err)
						}
						got, err := Prove(context.Background(), g, w, ProveOptions{Draw: draw, Depth: 20, Table: true, Certificate: true})
						if err != nil {
							t.Fatal(err)
						}
						plain, shared, hits = plain+want.Nodes, shared+got.Nodes, hits+got.TableHits
						if got.Proved != want.Proved || got.Plies != want.Plies {
							t.Errorf("after %v, %v (draw %v): with the table proved %v in %d plies, without %v in %d", g.Moves(), w, draw, got.Proved, got.Plies, want.Proved, want.Plies)
							continue
						}
						if got.Proved {
							checkProofLine(t, g, got)
							checkCertificate(t, g, w, draw, got.Tree)
						}
					}
				}
			}
			t.Logf("%d points: %d positions without the table, %d with (%d hits)", n, plain, shared, hits)
			if n >= 4 && hits == 0 {
				t.Error("the table was never used")
			}
		})
	}
}

// TestProveGraphSame proves every goal on small Traditional boards (from
// the start and after every first move) with the state graph and the
// table and without either: the graph settles positions early, so the
// plies may differ, but what is proved must not, and each certificate
// must pass the checker of package proofcheck, which replays it with the
// kernel alone.
func TestProveGraphSame(t *testing.T) {
	t.Parallel()
	for _, n := range sameSizes() {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			games := rootAndReplies(t, "traditional", n)
			for _, g := range games {
				for _, w := range []rules.Color{rules.Black, rules.White} {
					for _, draw := range []bool{false, true} {
						want, err := Prove(context.Background(), g, w, ProveOptions{Draw: draw, Depth: 20})
						if err != nil {
							t.Fatal(err)
						}
						got, err := Prove(context.Background(), g, w, ProveOptions{Draw: draw, Depth: 20, Graph: true, Table: true, Certificate: true})
						if err != nil {
							t.Fatal(err)
						}
						if got.Proved != want.Proved {
							t.Errorf("after %v, %v (draw %v): with the graph proved %v, without %v", g.Moves(), w, draw, got.Proved, want.Proved)
							continue
						}
						if got.Proved {
							checkCertificate(t, g, w, draw, got.Tree)
						}
					}
				}
			}
		})
	}
}

// TestProveSharedCertificate: on 6 points White's draw, proved with the
// graph and the table, writes a certificate with shared subtrees that
// checks and is smaller than the plain tree of the same proof, which
// checks too; so does the graph's own strategy for Black's draw.
func TestProveSharedCertificate(t *testing.T) {
	t.Parallel()
	g := newGame(t, "traditional", 6)
	var size [2]int
	for i, plain := range []bool{false, true} {
		pr, err := Prove(context.Background(), g, rules.White, ProveOptions{Draw: true, Depth: 200, Graph: true, Table: true, Certificate: true, Plain: plain})
		if err != nil || !pr.Proved {
			t.Fatalf("plain %v: %+v, %v", plain, pr, err)
		}
		checkCertificate(t, g, rules.White, true, pr.Tree)
		size[i] = len(pr.Tree)
		t.Logf("plain %v: %d bytes of tree", plain, len(pr.Tree))
	}
	// Measured on 6 points (go test -run SharedCertificate -v): 4,208 and
	// 16,119 bytes of tree; the files, with their header, are 4,291 and
	// 16,202.
	if size[0] >= size[1] {
		t.Errorf("the shared certificate takes %d bytes, the plain tree %d", size[0], size[1])
	}
	for _, plain := range []bool{false, true} {
		pr, err := ProveGraph(context.Background(), g, rules.Black, GraphOptions{Draw: true, Certificate: true, Plain: plain})
		if err != nil || !pr.Proved {
			t.Fatalf("the graph, plain %v: %+v, %v", plain, pr, err)
		}
		checkCertificate(t, g, rules.Black, true, pr.Tree)
	}
}

// TestProveGraphValues checks ProveGraph against the values of
// docs/results-traditional.md ("traditional", proved there by the proof search):
// 2, 5 and 6 points are draws, 3 and 4 Black wins. A draw each side holds
// is proved with a certificate; White cannot win anywhere; Black's win is
// proved where it holds and never where it does not.
func TestProveGraphValues(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n        int
		blackWin bool
	}{{2, false}, {3, true}, {4, true}, {5, false}, {6, false}} {
		g := newGame(t, "traditional", c.n)
		prove := func(w rules.Color, draw bool) GraphProof {
			t.Helper()
			pr, err := ProveGraph(context.Background(), g, w, GraphOptions{Draw: draw, Certificate: true})
			if err != nil {
				t.Fatal(err)
			}
			if pr.Proved {
				checkCertificate(t, g, w, draw, pr.Tree)
			}
			return pr
		}
		if pr := prove(rules.Black, true); !pr.Proved || !pr.Holds {
			t.Errorf("%d points: Black's draw: %+v", c.n, pr)
		}
		if pr := prove(rules.Black, false); pr.Proved != c.blackWin {
			t.Errorf("%d points: Black's win proved %v, want %v", c.n, pr.Proved, c.blackWin)
		}
		if pr := prove(rules.White, false); pr.Proved || !pr.CannotWin {
			t.Errorf("%d points: White's win: %+v; White cannot win", c.n, pr)
		}
		if pr := prove(rules.White, true); !c.blackWin && c.n <= 5 && !pr.Proved {
			// On 6 points White's draw needs the repetition rule: the graph
			// alone does not prove it (Prove with Graph does).
			t.Errorf("%d points: White's draw not proved: %+v", c.n, pr)
		} else if c.blackWin && pr.Proved {
			t.Errorf("%d points: White's draw proved where Black wins", c.n)
		}
	}
}

// Below twice the points plus the komi, passing out does not settle a
// state, so a smaller prisoner range is refused; and the table is not used
// under superko, where legality depends on the history.
func TestProveGraphRefuses(t *testing.T) {
	t.Parallel()
	g := newGame(t, "traditional", 4)
	if _, err := ProveGraph(context.Background(), g, rules.Black, GraphOptions{Prisoners: 8}); err == nil {
		t.Error("a prisoner range of 8 on 4 points was accepted")
	}
	if _, err := ProveGraph(context.Background(), g, rules.Black, GraphOptions{Prisoners: 9}); err != nil {
		t.Errorf("a prisoner range of 9 on 4 points: %v", err)
	}
	tt := newGame(t, "tromp-taylor", 3)
	pr, err := Prove(context.Background(), tt, rules.Black, ProveOptions{Depth: 10, Table: true})
	if err != nil || pr.TableStored != 0 || pr.TableHits != 0 {
		t.Errorf("tromp-taylor with the table: %+v, %v; want no table", pr, err)
	}
	if _, err := ProveGraph(context.Background(), tt, rules.Black, GraphOptions{}); err == nil {
		t.Error("the state graph was built under positional superko")
	}
}

// sameSizes are the boards of the comparisons: 5 points takes seconds
// under the race detector, which runs 2 to 4.
func sameSizes() []int {
	if raceEnabled {
		return []int{2, 3, 4}
	}
	return []int{2, 3, 4, 5}
}

// Beyond the prisoner range the side ahead wins by passing to the end
// (docs/solver-proof-search.md, 5b): on 4 points (range 9), from an empty board with Black
// 20 prisoners ahead, Black's win is proved by passing out, with a
// certificate; White, 20 behind, cannot win. With White to move and White
// ahead by 20, the other way round.
func TestProveGraphBeyondRange(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		black, white int
		ahead        rules.Color
	}{{20, 0, rules.Black}, {0, 20, rules.White}} {
		pos, err := newGame(t, "traditional", 4).Position().WithPrisoners(c.black, c.white)
		if err != nil {
			t.Fatal(err)
		}
		g := rules.NewGameFrom(pos)
		pr, err := ProveGraph(context.Background(), g, c.ahead, GraphOptions{Certificate: true})
		if err != nil {
			t.Fatal(err)
		}
		if !pr.Proved || pr.Plies != 0 {
			t.Errorf("%d-%d prisoners: %v's win %+v; want proved, from beyond the range", c.black, c.white, c.ahead, pr)
		} else {
			checkCertificate(t, g, c.ahead, false, pr.Tree)
		}
		behind := c.ahead.Opp()
		if pr, err := ProveGraph(context.Background(), g, behind, GraphOptions{Draw: true}); err != nil || pr.Proved || !pr.CannotWin || pr.Holds {
			t.Errorf("%d-%d prisoners: %v's draw %+v, %v; it cannot even draw", c.black, c.white, behind, pr, err)
		}
	}
}
