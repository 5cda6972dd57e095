package player

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"alak/rules"
)

func mustRules(t testing.TB, s string) rules.Rules {
	t.Helper()
	r, err := rules.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// randomGames plays n seeded random games of at most maxLen moves under r
// with the kernel and calls f with every position reached and the game.
func randomGames(t testing.TB, r rules.Rules, n, maxLen int, seed uint64, f func(g *rules.Game)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	for range n {
		g, err := rules.NewGame(r)
		if err != nil {
			t.Fatal(err)
		}
		for g.Len() < maxLen {
			f(g)
			moves := g.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestLineSimMatchesKernel checks the playouts' bitboard simulator against
// the kernel (Position.LegalPoints and Position.Play) in every position of
// random games, for every placement rule set on a line it covers: the
// primitives it plays with (bitline.Line.Legal and Place, of the Line
// rules.Bitline builds) and the forbidden points it keeps. The primitives
// themselves are checked against the seeds and a reference in
// rules/bitline.
func TestLineSimMatchesKernel(t *testing.T) {
	for _, spec := range []string{
		"alak", "alak size=7", "alak edge=off", "alak own=illegal", "alak own=removed",
		"alak own=together", "alak ko=none size=9", "alak komi=0.5", "alterigo size=11",
		"alak own=together unchanged=on", "tromp-taylor pass=off score=stones size=8",
	} {
		t.Run(spec, func(t *testing.T) {
			r := mustRules(t, spec)
			sim, ok := lineSimFor(r)
			if !ok {
				t.Fatalf("lineSimFor(%s) refused", spec)
			}
			checked := 0
			randomGames(t, r, 60, 200, 1, func(g *rules.Game) {
				pos := g.Position()
				black, white, forbid, _ := pos.Line()
				me, op := black, white
				if pos.ToMove() == rules.White {
					me, op = white, black
				}
				want, _ := pos.LegalPoints()
				got := sim.ln.Legal(me, op, forbid)
				if pos.Over() {
					if got != 0 && !(pos.Outcome().Reason == rules.Unchanged) {
						t.Fatalf("%v: game over (%v) but the simulator has moves %b", pos, pos.Outcome(), got)
					}
					return
				}
				if got != want {
					t.Fatalf("%v %c: legal points %b, kernel %b", pos, pos.ToMove().Symbol(), got, want)
				}
				for set := want; set != 0; set &= set - 1 {
					p := bits.TrailingZeros64(set)
					next, err := pos.Play(rules.Place(p))
					if err != nil {
						t.Fatal(err)
					}
					nb, nw, nf, _ := next.Line()
					nme, nop, capt, _, _ := sim.ln.Place(me, op, p)
					wme, wop := nb, nw
					if pos.ToMove() == rules.White {
						wme, wop = nw, nb
					}
					if nme != wme || nop != wop {
						t.Fatalf("%v %c plays %d: simulator %b/%b, kernel %b/%b", pos, pos.ToMove().Symbol(), p+1, nme, nop, wme, wop)
					}
					if sim.captured && capt != nf && !next.Over() {
						t.Fatalf("%v plays %d: forbidden %b, kernel %b", pos, p+1, capt, nf)
					}
					checked++
				}
			})
			if checked < 500 {
				t.Fatalf("only %d placements checked", checked)
			}
		})
	}
}

// TestLineSimRefuses checks that the rules the simulator does not cover go
// to the kernel.
func TestLineSimRefuses(t *testing.T) {
	for _, spec := range []string{"traditional", "tromp-taylor", "tromp-taylor pass=off size=8", "dewdney", "alterigo", "alak ko=simple"} {
		if _, ok := lineSimFor(mustRules(t, spec)); ok {
			t.Errorf("lineSimFor(%s) accepted rules it does not cover", spec)
		}
	}
}

// TestGridSimMatchesKernel checks the grid simulator against the kernel in
// every position of random games: the board after every legal placement,
// and whether the placement leaves the board unchanged (Alter Igo's loss).
func TestGridSimMatchesKernel(t *testing.T) {
	for _, spec := range []string{
		"alterigo size=5x5", "alterigo", "alterigo size=4x6 edge=off", "alterigo own=removed size=5x5",
		"alterigo own=stays unchanged=off size=4x4 score=stones", "alterigo ko=superko size=4x4",
	} {
		t.Run(spec, func(t *testing.T) {
			r := mustRules(t, spec)
			sim, ok := gridSimFor(r)
			if !ok {
				t.Fatalf("gridSimFor(%s) refused", spec)
			}
			checked := 0
			randomGames(t, r, 8, 120, 2, func(g *rules.Game) {
				pos := g.Position()
				if pos.Over() {
					return
				}
				for _, m := range pos.LegalMoves(nil) {
					next, err := pos.Play(m)
					if err != nil {
						t.Fatal(err)
					}
					sim.load(pos)
					predicted := sim.wouldUnchange(m.Point(), pos.ToMove())
					unchanged := sim.place(m.Point(), pos.ToMove())
					kernelUnchanged := next.Outcome().Reason == rules.Unchanged
					if r.UnchangedLoses && (unchanged != kernelUnchanged || predicted != kernelUnchanged) {
						t.Fatalf("%v plays %v: unchanged %v (predicted %v), kernel %v", pos, m, unchanged, predicted, kernelUnchanged)
					}
					for p := range pos.Points() {
						want := uint8(0)
						if c := next.At(p); c != rules.None {
							want = uint8(c) + 1
						}
						if sim.cells[p] != want {
							t.Fatalf("%v plays %v: point %d is %d, kernel %v (%v)", pos, m, p+1, sim.cells[p], next.At(p), next)
						}
					}
					if sim.count[0] != next.Count(rules.Black) || sim.count[1] != next.Count(rules.White) || sim.nempty != pos.Points()-sim.count[0]-sim.count[1] {
						t.Fatalf("%v plays %v: counts %v with %d empty, kernel %d/%d", pos, m, sim.count, sim.nempty, next.Count(rules.Black), next.Count(rules.White))
					}
					checked++
				}
			})
			if checked < 500 {
				t.Fatalf("only %d placements checked", checked)
			}
		})
	}
}

// TestPlayoutsEnd checks that playouts from the start of every preset
// return a result of the right sign convention: a finished random game's
// margin is Black's, so over many seeds both players win some games.
func TestPlayoutsEnd(t *testing.T) {
	for _, spec := range []string{"alak", "traditional size=7", "tromp-taylor size=6", "alterigo size=5x5", "dewdney", "golf", "alak ko=simple size=8"} {
		t.Run(spec, func(t *testing.T) {
			r := mustRules(t, spec)
			pos, err := rules.NewPosition(r)
			if err != nil {
				t.Fatal(err)
			}
			play := newPlayouter(r)
			rng := fastRand{9}
			var wins [2]int
			for range 400 {
				res := play.run(pos, &rng)
				switch {
				case res.margin > 0:
					wins[0]++
				case res.margin < 0:
					wins[1]++
				}
			}
			if wins[0] == 0 || wins[1] == 0 {
				t.Errorf("400 random games: Black won %d, White %d; both should win some", wins[0], wins[1])
			}
		})
	}
}

// TestLineSimPlayoutsMatchKernel plays the same random games twice, on the
// simulator and on the kernel (linePlayout draws its moves from
// Position.LegalPoints with the same generator calls), from positions of
// random games: the margins must be equal.
func TestLineSimPlayoutsMatchKernel(t *testing.T) {
	for _, spec := range []string{"alak", "alak size=7 edge=off", "alak own=illegal size=9", "alak own=removed ko=none size=8"} {
		t.Run(spec, func(t *testing.T) {
			r := mustRules(t, spec)
			sim, _ := lineSimFor(r)
			games := 0
			randomGames(t, r, 30, 40, 4, func(g *rules.Game) {
				pos := g.Position()
				black, white, forbid, _ := pos.Line()
				for seed := range uint64(5) {
					a, b := fastRand{seed}, fastRand{seed}
					got := sim.run(black, white, forbid, pos.ToMove(), &a, playoutLimit(r))
					want := linePlayout(pos, &b, playoutLimit(r))
					if got != want {
						t.Fatalf("%v seed %d: simulator %+v, kernel %+v", pos, seed, got, want)
					}
					games++
				}
			})
			if games < 500 {
				t.Fatalf("only %d playouts compared", games)
			}
		})
	}
}

// TestKernelPlayoutsMatchSimulators checks that the playouts the rules'
// playout kernel plays, for the rules it plays under, are the games the
// playouts played before it (lineSim where it covers the rules, otherwise
// linePlayout from Position.LegalPoints): from positions of random games,
// with the same seed, the margins are equal and the generators end in the
// same state, having made the same draws. A game that ends on the last
// placement the limit allows is ended for the kernel and cut off for the
// simulators, which test for the end before a placement; otherwise both
// say whether the game ended alike. The rules outside the kernel must not
// use it.
func TestKernelPlayoutsMatchSimulators(t *testing.T) {
	for _, spec := range []string{"alak", "alak size=7 edge=off", "alak ko=none size=9", "alak komi=0.5",
		"alak size=3", "alak size=13", "alak size=20 edge=off", "alak size=40 ko=none", "alak score=area size=10"} {
		t.Run(spec, func(t *testing.T) {
			r := mustRules(t, spec)
			play := newPlayouter(r)
			if !play.kernel {
				t.Fatalf("the playouts of %s do not use the playout kernel", spec)
			}
			sim, simOK := lineSimFor(r)
			games, cutOff := 0, 0
			randomGames(t, r, 30, 40, 5, func(g *rules.Game) {
				pos := g.Position()
				black, white, forbid, _ := pos.Line()
				for seed := range uint64(5) {
					a, b := fastRand{seed}, fastRand{seed}
					got := play.run(pos, &a)
					var want playoutResult
					if simOK {
						want = sim.run(black, white, forbid, pos.ToMove(), &b, playoutLimit(r))
					} else {
						want = linePlayout(pos, &b, playoutLimit(r))
					}
					if got.margin != want.margin || a != b || (want.ended && !got.ended) {
						t.Fatalf("%v seed %d: kernel %+v (generator %x), before %+v (%x)", pos, seed, got, a.s, want, b.s)
					}
					if got.ended != want.ended {
						end, rng := pos, rules.Rand(seed)
						if n, _ := end.Playout(&rng, playoutLimit(r)); n != playoutLimit(r) || !end.Over() {
							t.Fatalf("%v seed %d: kernel %+v, before %+v, after %d placements of %d", pos, seed, got, want, n, playoutLimit(r))
						}
						cutOff++
					}
					games++
				}
			})
			if games < 500 {
				t.Fatalf("only %d playouts compared", games)
			}
			t.Logf("%d playouts, %d ended on the limit's last placement", games, cutOff)
		})
	}
	for _, spec := range []string{"alak own=removed", "alak ko=simple", "alak unchanged=on", "traditional", "alterigo size=11", "dewdney"} {
		if newPlayouter(mustRules(t, spec)).kernel {
			t.Errorf("the playouts of %s use the playout kernel, which does not play under them", spec)
		}
	}
}
