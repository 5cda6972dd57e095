package update

import (
	"alak/glicko2"
	"alak/server/store"
	"math"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// finished is a rated game of alak between the accounts 1 (Black) and 2
// (White), ended at end with the winner given.
func finished(winner string, end time.Time) store.Game {
	return store.Game{ID: "g1", Preset: "alak", Rules: "alak", Rated: true, State: store.StateFinished, Winner: winner, Ended: end,
		Black: store.Seat{AccountID: 1}, White: store.Seat{AccountID: 2}}
}

// near reports whether got is within tol of want in rating, deviation and
// (a thousandth of tol) volatility.
func near(got glicko2.Rating, r, rd, vol, tol float64) bool {
	return math.Abs(got.Rating-r) <= tol && math.Abs(got.RD-rd) <= tol && math.Abs(got.Volatility-vol) <= tol/1000
}

// TestUpdate checks the update of a game against values computed apart
// from package glicko2: Glickman's "Example of the Glicko-2 system"
// (2012), steps 2 to 8 for one game, written out again with the new
// volatility found by bisection rather than the paper's Illinois
// iteration (as server/ratings_test.go's glickoOneGame does), and step 6
// alone for each empty rating period. Two new players (1500, RD 350,
// σ 0.06) after a win: 1662.31 and 1337.69, both RD 290.32; the
// deviations and volatilities of the second case are that computation's
// too.
func TestUpdate(t *testing.T) {
	newB, newW := store.NewRating(1, "alak"), store.NewRating(2, "alak")
	for _, c := range []struct {
		name         string
		g            store.Game
		black, white store.Rating
		// The ratings the update starts from and ends at: rating, RD,
		// volatility.
		bBefore, wBefore, bAfter, wAfter [3]float64
	}{
		{"new players, Black wins", finished("x", t0), newB, newW,
			[3]float64{1500, 350, 0.06}, [3]float64{1500, 350, 0.06},
			[3]float64{1662.3109, 290.3190, 0.0599997}, [3]float64{1337.6891, 290.3190, 0.0599997}},
		{"new players, White wins", finished("o", t0), newB, newW,
			[3]float64{1500, 350, 0.06}, [3]float64{1500, 350, 0.06},
			[3]float64{1337.6891, 290.3190, 0.0599997}, [3]float64{1662.3109, 290.3190, 0.0599997}},
		// Black last played 15 days before the end (two idle weeks),
		// White 25 days before (three): RD 80 grows to 81.3467 and 150 to
		// 151.0468 before the draw.
		{"a draw after idle weeks", finished("draw", t0.Add(25*24*time.Hour)),
			store.Rating{AccountID: 1, Pool: "alak", Rating: 1700, RD: 80, Volatility: 0.06, Games: 40, Last: t0.Add(10 * 24 * time.Hour)},
			store.Rating{AccountID: 2, Pool: "alak", Rating: 1400, RD: 150, Volatility: 0.059, Games: 9, Last: t0},
			[3]float64{1700, 81.3467, 0.06}, [3]float64{1400, 151.0468, 0.059},
			[3]float64{1688.9087, 80.9639, 0.0599996}, [3]float64{1439.8909, 144.6913, 0.0589997}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, w, ok := Game(c.g, c.black, c.white)
			if !ok {
				t.Fatalf("Update of a rated game's end reports no change")
			}
			for _, ch := range []struct {
				name    string
				got     store.RatingChange
				account int64
				before  [3]float64
				after   [3]float64
			}{{"black", b, 1, c.bBefore, c.bAfter}, {"white", w, 2, c.wBefore, c.wAfter}} {
				got := ch.got
				if got.GameID != c.g.ID || got.AccountID != ch.account || got.Pool != "alak" || !got.At.Equal(c.g.Ended) {
					t.Errorf("%s's change is %+v: want game %s, account %d, pool alak, at %v", ch.name, got, c.g.ID, ch.account, c.g.Ended)
				}
				if !near(got.Before, ch.before[0], ch.before[1], ch.before[2], 0.0001) {
					t.Errorf("%s starts from %+v, want %v", ch.name, got.Before, ch.before)
				}
				if !near(got.After, ch.after[0], ch.after[1], ch.after[2], 0.0001) {
					t.Errorf("%s ends at %+v, want %v", ch.name, got.After, ch.after)
				}
			}
		})
	}
}

// TestUpdateUnrated checks that a game whose end rates nobody gets no
// change from Update.
func TestUpdateUnrated(t *testing.T) {
	g := finished("none", t0)
	if b, w, ok := Game(g, store.NewRating(1, "alak"), store.NewRating(2, "alak")); ok || b != (store.RatingChange{}) || w != (store.RatingChange{}) {
		t.Errorf("a void result: %v %+v %+v, want no change", ok, b, w)
	}
}

// TestAt checks the idle periods: a whole week without a rated game is
// one empty rating period (step 6 of the paper: φ' = √(φ² + σ²)), a part of
// a week none, and the deviation never passes a new player's 350.
func TestAt(t *testing.T) {
	r := store.Rating{Rating: 1620, RD: 60, Volatility: 0.06, Last: t0}
	step := func(rd float64) float64 {
		phi := rd / 173.7178
		return 173.7178 * math.Sqrt(phi*phi+0.06*0.06)
	}
	for _, c := range []struct {
		name string
		at   time.Time
		rd   float64
	}{
		{"at the game's end", t0, 60},
		{"before it", t0.Add(-time.Hour), 60},
		{"six days and 23 hours on", t0.Add(IdlePeriod - time.Hour), 60},
		{"one week on", t0.Add(IdlePeriod), step(60)},
		{"two weeks and a day on", t0.Add(2*IdlePeriod + 24*time.Hour), step(step(60))},
		// From RD 60 and σ 0.06, φ² grows by σ² a week and passes 350's
		// after 1095 weeks.
		{"1600 weeks on", t0.Add(1600 * IdlePeriod), 350},
	} {
		got := At(r, c.at)
		if math.Abs(got.RD-c.rd) > 1e-9 || got.Rating != 1620 || got.Volatility != 0.06 {
			t.Errorf("%s: %+v, want RD %.4f and the rating and volatility as they were", c.name, got, c.rd)
		}
	}
	if got := At(store.NewRating(1, "alak"), t0); got != glicko2.Default() {
		t.Errorf("a new player's rating at any time: %+v, want %+v", got, glicko2.Default())
	}
}

// TestRates checks which written games change ratings: a rated game's
// end with a winner or a draw, between two accounts.
func TestRates(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*store.Game)
		want bool
	}{
		{"Black wins", func(*store.Game) {}, true},
		{"White wins", func(g *store.Game) { g.Winner = "o" }, true},
		{"a draw", func(g *store.Game) { g.Winner = "draw" }, true},
		{"a void result", func(g *store.Game) { g.Winner = "none" }, false},
		{"no result", func(g *store.Game) { g.Winner = "" }, false},
		{"unrated", func(g *store.Game) { g.Rated = false }, false},
		{"still played", func(g *store.Game) { g.State = store.StateActive; g.Winner = "" }, false},
		{"aborted", func(g *store.Game) { g.State = store.StateAborted; g.Winner = "" }, false},
		{"a seat without an account", func(g *store.Game) { g.White.AccountID = 0 }, false},
		{"one account on both seats", func(g *store.Game) { g.White.AccountID = 1 }, false},
	} {
		g := finished("x", t0)
		c.edit(&g)
		if got := Rates(g); got != c.want {
			t.Errorf("%s: Rates = %v, want %v", c.name, got, c.want)
		}
	}
}
