package storetest

import (
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"alak/glicko2"
	"alak/server/internal/ratings/update"
	"alak/server/store"
)

// Ratings: a finished rated game updates both players'
// ratings once, in the Update that finishes it.

// accounts makes n accounts named p0, p1 ... and returns their ids.
func accounts(t *testing.T, s store.Store, n int) []int64 {
	t.Helper()
	var ids []int64
	for i := range n {
		a, err := s.CreateAccount(ctx, store.Account{Name: fmt.Sprintf("p%d", i), Created: at})
		must(t, err)
		ids = append(ids, a.ID)
	}
	return ids
}

// finish stores a rated game of alak between black and white and its end
// at when, won by winner (x, o, draw or none), and returns it.
func finish(t *testing.T, s store.Store, id string, black, white int64, winner string, when time.Time, rated bool) store.Game {
	t.Helper()
	g := newGame(id, black, white)
	g.Rated = rated
	g.BlackRating = store.SeatRating{Rating: 1500, RD: 350}
	must(t, s.CreateGame(ctx, g))
	end := g
	end.Version++
	end.State, end.Reason, end.Winner, end.Ended, end.Updated = store.StateFinished, "resignation", winner, when, when
	must(t, s.Update(ctx, end, g, nil))
	return end
}

func rating(t *testing.T, s store.Store, id int64) store.Rating {
	t.Helper()
	rs, err := s.Ratings(ctx, id)
	must(t, err)
	if len(rs) != 1 || rs[0].Pool != "alak" {
		t.Fatalf("account %d's ratings: %+v, want one in alak", id, rs)
	}
	return rs[0]
}

func near(a, b glicko2.Rating) bool {
	return math.Abs(a.Rating-b.Rating) < 1e-9 && math.Abs(a.RD-b.RD) < 1e-9 && math.Abs(a.Volatility-b.Volatility) < 1e-12
}

func testRatings(t *testing.T, s store.Store) {
	defer s.Close()
	ids := accounts(t, s, 4)
	a, b, c, d := ids[0], ids[1], ids[2], ids[3]
	g := finish(t, s, "r1", a, b, "x", at, true)
	got, _, err := s.Game(ctx, "r1")
	must(t, err)
	if got != g || !got.Rated || got.BlackRating.RD != 350 {
		t.Errorf("rated game read back:\n%+v\n%+v", got, g)
	}
	// The update is the glicko2 package's, one game one rating period,
	// from the new players' 1500/350/0.06 (the store must apply it, once).
	def := glicko2.Default()
	wantA := def.Update([]glicko2.Result{{Opponent: def, Score: 1}}, glicko2.Tau)
	wantB := def.Update([]glicko2.Result{{Opponent: def, Score: 0}}, glicko2.Tau)
	ra, rb := rating(t, s, a), rating(t, s, b)
	if !near(ra.Glicko(), wantA) || !near(rb.Glicko(), wantB) || ra.Games != 1 || !ra.Last.Equal(at) {
		t.Errorf("after one game: %+v and %+v, want %+v and %+v", ra, rb, wantA, wantB)
	}
	changes, err := s.GameRatings(ctx, "r1")
	must(t, err)
	if len(changes) != 2 || changes[0].AccountID != a || changes[0].Before != (glicko2.Rating{Rating: 1500, RD: 350}) ||
		!near(changes[0].After, wantA) || changes[1].Change() >= 0 {
		t.Errorf("the game's changes: %+v", changes)
	}
	// A later write of the finished game changes no rating.
	again := g
	again.Version++
	must(t, s.Update(ctx, again, g, nil))
	if r := rating(t, s, a); r.Games != 1 || !near(r.Glicko(), wantA) {
		t.Errorf("a second write of the end rated again: %+v", r)
	}
	// Unrated, void (no winner) and aborted games change nothing.
	finish(t, s, "u1", a, b, "o", at.Add(time.Minute), false)
	finish(t, s, "v1", a, b, "none", at.Add(2*time.Minute), true)
	if r := rating(t, s, a); r.Games != 1 {
		t.Errorf("an unrated or void game counted: %+v", r)
	}
	if rs, _ := s.Ratings(ctx, c); len(rs) != 0 {
		t.Errorf("a player without a rated game has ratings: %+v", rs)
	}
	// Three idle weeks before the next game: the update starts from the
	// deviation grown by three empty rating periods.
	later := at.Add(3*update.IdlePeriod + time.Hour)
	finish(t, s, "r2", b, a, "draw", later, true)
	changes, err = s.GameRatings(ctx, "r2")
	must(t, err)
	idle := wantA.Idle(3)
	for _, ch := range changes {
		if ch.AccountID == a && (math.Abs(ch.Before.RD-idle.RD) > 1e-9 || ch.Before.Rating != wantA.Rating) {
			t.Errorf("after three idle weeks the update started from %+v, want %+v", ch.Before, idle)
		}
	}
	hist, err := s.RatingHistory(ctx, a, "alak", 10)
	must(t, err)
	if len(hist) != 2 || hist[0].GameID != "r1" || hist[1].GameID != "r2" || !hist[1].At.Equal(later) {
		t.Errorf("a's history: %+v", hist)
	}
	// The leaderboard: c and d win in turn until both are settled (RD
	// at most 110), near 1500; a (provisional, above both) comes after
	// them, then b.
	var i int
	for i = 0; i < 40; i++ {
		finish(t, s, fmt.Sprintf("cd%d", i), c, d, []string{"x", "o"}[i%2], later.Add(time.Duration(i+1)*time.Minute), true)
		if rating(t, s, c).RD <= glicko2.ProvisionalRD && rating(t, s, d).RD <= glicko2.ProvisionalRD {
			break
		}
	}
	if i == 40 {
		t.Fatalf("40 games and still provisional: %+v %+v", rating(t, s, c), rating(t, s, d))
	}
	board, err := s.Leaderboard(ctx, "alak", 10)
	must(t, err)
	var names []string
	for _, r := range board {
		names = append(names, r.Name)
	}
	if fmt.Sprint(names) != "[p3 p2 p0 p1]" || rating(t, s, a).Rating < rating(t, s, d).Rating || board[0].Rating < board[1].Rating {
		t.Errorf("leaderboard %v, want the settled p3 and p2 first (d won the last), then p0 and p1", names)
	}
	if board, _ := s.Leaderboard(ctx, "golf", 10); len(board) != 0 {
		t.Errorf("golf's leaderboard: %+v", board)
	}
}

// testRatingsAtOnce ends many rated games of one player at once (from
// many goroutines, as several server processes would), all in the same
// millisecond: every game is applied once, each update starts from the
// rating the previous one left (no update lost to a concurrent one), and
// the history is read in that order, the chain's, though every entry has
// the same time.
func testRatingsAtOnce(t *testing.T, s store.Store) {
	defer s.Close()
	const n = 30
	ids := accounts(t, s, n+1)
	games := make([]store.Game, n)
	for i := range n {
		games[i] = newGame(fmt.Sprintf("c%d", i), ids[0], ids[i+1])
		games[i].Rated = true
		must(t, s.CreateGame(ctx, games[i]))
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func(g store.Game) {
			defer wg.Done()
			end := g
			end.Version++
			end.State, end.Winner, end.Ended = store.StateFinished, []string{"x", "o", "draw"}[i%3], at
			errs <- s.Update(ctx, end, g, nil)
		}(games[i])
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		must(t, err)
	}
	r := rating(t, s, ids[0])
	hist, err := s.RatingHistory(ctx, ids[0], "alak", 100)
	must(t, err)
	if r.Games != n || len(hist) != n {
		t.Fatalf("%d games ended: rating counts %d, history %d", n, r.Games, len(hist))
	}
	// The chain, in the order read: from the new player's 1500, each
	// update's start the end of the one before it, to the stored rating.
	// Games ending at once in another order (by time, then game id) break
	// it at most of its links.
	prev := glicko2.Default().Rating
	var broken int
	for i, h := range hist {
		if h.Before.Rating != prev {
			broken++
			if broken <= 3 {
				t.Errorf("history entry %d (game %s) starts from %.4f, but the entry before it ended at %.4f", i, h.GameID, h.Before.Rating, prev)
			}
		}
		prev = h.After.Rating
	}
	if broken > 0 || prev != r.Rating {
		t.Fatalf("%d of %d history entries break the chain; the last ends at %.4f, the rating is %.4f", broken, n, prev, r.Rating)
	}
	// A shorter read is the chain's end.
	last, err := s.RatingHistory(ctx, ids[0], "alak", 5)
	must(t, err)
	if len(last) != 5 {
		t.Fatalf("the last 5 entries: %d", len(last))
	}
	for i, h := range last {
		if h.GameID != hist[n-5+i].GameID {
			t.Errorf("the last 5 entries: %d is %s, want %s", i, h.GameID, hist[n-5+i].GameID)
		}
	}
	// Each opponent's history is their one game.
	for _, id := range ids[1:4] {
		h, err := s.RatingHistory(ctx, id, "alak", 10)
		must(t, err)
		if len(h) != 1 || h[0].Before.Rating != glicko2.Default().Rating {
			t.Errorf("account %d's history: %+v", id, h)
		}
	}
}
