// Package storetest is the conformance suite of store.Store: every
// implementation runs it (SQLite always, PostgreSQL where one is given),
// so that the server behaves the same on each.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"alak/server/store"
)

// Open returns a new, empty store for one test; Reopen, when not nil,
// closes a store and opens the same database again (to check that what was
// committed stays).
type Open struct {
	New    func(t *testing.T) store.Store
	Reopen func(t *testing.T, s store.Store) store.Store
}

// Run runs the suite. Its tests run in parallel: each has a database of
// its own, and most of a test's time is the database's commits (an fsync
// each on SQLite), which leave the processor idle.
func Run(t *testing.T, o Open) {
	tests := []struct {
		name string
		test func(*testing.T, store.Store)
	}{
		{"Accounts", testAccounts},
		{"Tokens", testTokens},
		{"ChangePassword", testChangePassword},
		{"Games", testGames},
		{"ConcurrentUpdates", testConcurrent},
		{"ManyGamesAtOnce", testManyGames},
		{"Lists", testLists},
		{"ListsPastAWindow", testListsPastAWindow},
		{"PlayerStats", testPlayerStats},
		{"ClaimGames", testClaimGames},
		{"Analysis", testAnalysis},
		{"Resume", testResume},
		{"Ratings", testRatings},
		{"RatingsAtOnce", testRatingsAtOnce},
		{"Messages", testMessages},
		{"Rematches", testRematches},
		{"Conditionals", testConditionals},
		{"Vacations", testVacations},
		{"Bots", testBots},
		{"Tournaments", testTournaments},
		{"MailSecrets", testMailSecrets},
		{"Explorer", testExplorer},
		{"Limits", testLimits},
		{"Puzzles", testPuzzles},
		{"PuzzleAttempts", testPuzzleAttempts},
		{"PuzzleAttemptsAtOnce", testPuzzleAttemptsAtOnce},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.test(t, o.New(t))
		})
	}
	if o.Reopen != nil {
		t.Run("Reopen", func(t *testing.T) {
			t.Parallel()
			testReopen(t, o)
		})
	}
}

var ctx = context.Background()

// at is a fixed instant, to the millisecond the store keeps.
var at = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func testAccounts(t *testing.T, s store.Store) {
	defer s.Close()
	a, err := s.CreateAccount(ctx, store.Account{Name: "Baljeu", PassHash: "h", Email: "a@example.org", Created: at})
	must(t, err)
	if a.ID == 0 {
		t.Fatal("no id")
	}
	if _, err := s.CreateAccount(ctx, store.Account{Name: "baljeu", PassHash: "h2"}); !errors.Is(err, store.ErrDuplicate) {
		t.Errorf("a second Baljeu in another case: %v, want ErrDuplicate", err)
	}
	for _, name := range []string{"Baljeu", "BALJEU", "baljeu"} {
		got, err := s.AccountByName(ctx, name)
		if err != nil || got.ID != a.ID || got.Name != "Baljeu" || got.Email != "a@example.org" || !got.Created.Equal(at) {
			t.Errorf("by name %q: %+v, %v", name, got, err)
		}
	}
	if _, err := s.AccountByName(ctx, "dewdney"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown name: %v", err)
	}
	// Guests have no name, and there can be many.
	g1, err1 := s.CreateAccount(ctx, store.Account{})
	g2, err2 := s.CreateAccount(ctx, store.Account{})
	if err1 != nil || err2 != nil || g1.ID == g2.ID || !g1.Guest() {
		t.Errorf("guests: %+v %v, %+v %v", g1, err1, g2, err2)
	}
	if _, err := s.AccountByName(ctx, ""); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the empty name finds %v", err)
	}
	a.Email, a.ConfirmMoves, a.PassHash = "b@example.org", true, "h3"
	must(t, s.UpdateAccount(ctx, a))
	got, err := s.AccountByID(ctx, a.ID)
	if err != nil || got.Email != "b@example.org" || !got.ConfirmMoves || got.PassHash != "h3" {
		t.Errorf("after update: %+v, %v", got, err)
	}
	if _, err := s.AccountByID(ctx, 99999); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown id: %v", err)
	}
}

func testTokens(t *testing.T, s store.Store) {
	defer s.Close()
	a, err := s.CreateAccount(ctx, store.Account{Name: "ada"})
	must(t, err)
	must(t, s.CreateToken(ctx, store.Token{Hash: "t1", AccountID: a.ID, Kind: store.TokenSession, Created: at, Expires: at.Add(time.Hour)}))
	if err := s.CreateToken(ctx, store.Token{Hash: "t1", AccountID: a.ID, Kind: store.TokenAPI, Created: at, Expires: at.Add(time.Hour)}); !errors.Is(err, store.ErrDuplicate) {
		t.Errorf("a token twice: %v", err)
	}
	got, tok, err := s.TokenAccount(ctx, "t1", at.Add(time.Minute))
	if err != nil || got.ID != a.ID || tok.Kind != store.TokenSession || !tok.Expires.Equal(at.Add(time.Hour)) {
		t.Errorf("token: %+v %+v %v", got, tok, err)
	}
	if _, _, err := s.TokenAccount(ctx, "t1", at.Add(time.Hour)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an expired token still signs in: %v", err)
	}
	must(t, s.DeleteToken(ctx, "t1"))
	if _, _, err := s.TokenAccount(ctx, "t1", at); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a deleted token still signs in: %v", err)
	}
}

// testChangePassword: a password change keeps the one token named and
// deletes every other token of the account (sessions and API tokens), and
// no token of another account; the account's other fields stay.
func testChangePassword(t *testing.T, s store.Store) {
	defer s.Close()
	a, err := s.CreateAccount(ctx, store.Account{Name: "ada", PassHash: "old", Email: "ada@example.org", ConfirmMoves: true, Created: at})
	must(t, err)
	b, err := s.CreateAccount(ctx, store.Account{Name: "bo", PassHash: "bo's", Created: at})
	must(t, err)
	tokens := map[string]int64{"keep": a.ID, "other-session": a.ID, "api": a.ID, "bo": b.ID}
	for hash, id := range tokens {
		kind := store.TokenSession
		if hash == "api" {
			kind = store.TokenAPI
		}
		must(t, s.CreateToken(ctx, store.Token{Hash: hash, AccountID: id, Kind: kind, Created: at, Expires: at.Add(time.Hour)}))
	}
	must(t, s.ChangePassword(ctx, a.ID, "new", "keep"))
	for hash, want := range map[string]bool{"keep": true, "other-session": false, "api": false, "bo": true} {
		_, _, err := s.TokenAccount(ctx, hash, at)
		if got := err == nil; got != want {
			t.Errorf("token %s after ada's password change: valid %v (%v), want %v", hash, got, err, want)
		}
	}
	got, err := s.AccountByID(ctx, a.ID)
	if err != nil || got.PassHash != "new" || got.Email != "ada@example.org" || !got.ConfirmMoves || got.Name != "ada" {
		t.Errorf("ada after the change: %+v, %v", got, err)
	}
	if other, err := s.AccountByID(ctx, b.ID); err != nil || other.PassHash != "bo's" {
		t.Errorf("bo after ada's change: %+v, %v", other, err)
	}
	// Keeping none: every token goes.
	must(t, s.ChangePassword(ctx, a.ID, "newer", ""))
	if _, _, err := s.TokenAccount(ctx, "keep", at); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the kept token after a change that keeps none: %v", err)
	}
	if err := s.ChangePassword(ctx, a.ID+b.ID+100, "x", ""); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("no such account: %v, want ErrNotFound", err)
	}
	// Deleting a token that is not there is no error (signing out twice).
	must(t, s.DeleteToken(ctx, "keep"))
}

// newGame is a game of alak on 6 points between two accounts.
func newGame(id string, black, white int64) store.Game {
	return store.Game{ID: id, Rules: "alak size=6", Preset: "alak", Size: "6", Black: store.Seat{AccountID: black},
		White: store.Seat{AccountID: white}, Creator: black, Color: "x", Kind: store.KindNamed, Opponent: white,
		Clock: "days:3", State: store.StateActive, Version: 1, WarnedEntry: -1,
		TurnStart: at, Deadline: at.Add(72 * time.Hour), Created: at, Updated: at}
}

// move returns g after one more move, and its log entry.
func move(g store.Game, text string, by int64) (store.Game, store.Entry) {
	g.Version++
	g.Ply++
	g.Entries++
	g.Updated = g.Updated.Add(time.Second)
	return g, store.Entry{Move: text, By: by, At: g.Updated, BlackLeft: time.Minute, WhiteLeft: 2 * time.Minute}
}

func testGames(t *testing.T, s store.Store) {
	defer s.Close()
	g := newGame("g1", 1, 2)
	g.Start, g.BlackLeft, g.WhiteLeft = "x--oX- o", 5*time.Minute, 4*time.Minute
	must(t, s.CreateGame(ctx, g))
	if err := s.CreateGame(ctx, g); !errors.Is(err, store.ErrDuplicate) {
		t.Errorf("a game twice: %v", err)
	}
	got, log, err := s.Game(ctx, "g1")
	if err != nil || len(log) != 0 || got != g {
		t.Fatalf("read back:\n%+v\n%+v\n%v", got, g, err)
	}
	if _, _, err := s.Game(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown game: %v", err)
	}
	// Seed 002's Alak-6 game, move by move.
	for i, m := range []string{"1", "4", "5", "6", "2", "3", "5", "1", "2", "6", "4", "3", "1", "5", "4"} {
		next, e := move(g, m, int64(1+i%2))
		must(t, s.Update(ctx, next, g, []store.Entry{e}))
		// A second write of the same change, as a retried request would
		// make it, is refused and changes nothing.
		if err := s.Update(ctx, next, g, []store.Entry{e}); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("move %d applied twice: %v", i+1, err)
		}
		g = next
	}
	got, log, err = s.Game(ctx, "g1")
	if err != nil || got.Version != 16 || got.Ply != 15 || len(log) != 15 || log[14].Move != "4" || log[14].N != 14 || log[0].By != 1 {
		t.Fatalf("after the game: %+v, %d entries, %v", got, len(log), err)
	}
	if log[3].BlackLeft != time.Minute || log[3].WhiteLeft != 2*time.Minute || !log[3].At.Equal(at.Add(4*time.Second)) {
		t.Errorf("entry 3: %+v", log[3])
	}
	// A takeback is an entry of its own: the log is never rewritten.
	next := g
	next.Version++
	next.Entries++
	next.Ply -= 2
	must(t, s.Update(ctx, next, g, []store.Entry{{Undo: 2, By: 2, At: at}}))
	got, log, _ = s.Game(ctx, "g1")
	if got.Ply != 13 || len(log) != 16 || log[15].Undo != 2 || log[14].Move != "4" {
		t.Errorf("after a takeback: ply %d, %d entries, last %+v", got.Ply, len(log), log[len(log)-1])
	}
	// A change that is not one version up, or whose entries do not add up,
	// is a programming error, refused.
	bad := got
	bad.Version += 2
	if err := s.Update(ctx, bad, got, nil); err == nil || errors.Is(err, store.ErrConflict) {
		t.Errorf("a change two versions up: %v", err)
	}
	// The end of the game.
	end := got
	end.Version++
	end.State, end.Result, end.Reason, end.Winner, end.Ended = store.StateFinished, "W+R", "resignation", "o", at.Add(time.Hour)
	must(t, s.Update(ctx, end, got, nil))
	got, _, _ = s.Game(ctx, "g1")
	if got != end {
		t.Errorf("finished game:\n%+v\n%+v", got, end)
	}
	// An update writes every column in which it differs from the game
	// before it (a store may write only those): here all of them.
	all := store.Game{ID: "g1", Rules: "alak size=7", Start: "", Preset: "alak", Size: "7", Black: store.Seat{AccountID: 3, Bot: "b"},
		White: store.Seat{AccountID: 4, Bot: "w"}, Creator: 4, Color: "o", Kind: store.KindOpen, Opponent: 9, InviteHash: "h",
		Clock: "live:5m+3s", State: store.StateAborted, Version: got.Version + 1, Ply: 3, Entries: got.Entries, BlackLeft: time.Second,
		WhiteLeft: 2 * time.Second, TurnStart: at.Add(time.Minute), Deadline: at.Add(2 * time.Minute), WarnedEntry: 7, DrawOffer: "x",
		Takeback: "o", Result: "Void", Reason: "aborted", Winner: "none", Expires: at.Add(3 * time.Minute), Created: at.Add(-time.Hour),
		Updated: at.Add(4 * time.Minute), Ended: at.Add(5 * time.Minute), Rated: true, BlackRating: store.SeatRating{Rating: 1400, RD: 80},
		WhiteRating: store.SeatRating{Rating: 1600, RD: 90}, AllowBots: true}
	must(t, s.Update(ctx, all, got, nil))
	if back, _, _ := s.Game(ctx, "g1"); back != all {
		t.Errorf("every column changed:\n%+v\n%+v", back, all)
	}
}

// testConcurrent sends the same next move from many goroutines, as two
// players' browsers or two server processes might: exactly one is applied.
func testConcurrent(t *testing.T, s store.Store) {
	defer s.Close()
	g := newGame("race", 1, 2)
	must(t, s.CreateGame(ctx, g))
	for round := range 5 {
		var wg sync.WaitGroup
		var mu sync.Mutex
		wins, conflicts := 0, 0
		var winner store.Game
		for k := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				next, e := move(g, fmt.Sprint(1+k%6), int64(k))
				err := s.Update(ctx, next, g, []store.Entry{e})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					wins++
					winner = next
				case errors.Is(err, store.ErrConflict):
					conflicts++
				default:
					t.Errorf("round %d: %v", round, err)
				}
			}()
		}
		wg.Wait()
		if wins != 1 || conflicts != 7 {
			t.Fatalf("round %d: %d applied, %d refused; want 1 and 7", round, wins, conflicts)
		}
		g = winner
	}
	got, log, err := s.Game(ctx, "race")
	if err != nil || got.Ply != 5 || len(log) != 5 {
		t.Errorf("after 5 rounds: ply %d, %d entries, %v", got.Ply, len(log), err)
	}
}

// testManyGames sends many writes at once, as a busy server does: on each
// of many games, several contenders send the same next move every round;
// beside them, a change whose entries do not add up (a programming error),
// and accounts created twice under one name. Every write gets its own
// right answer whatever was written at the same instant (a store that
// commits writes together must roll back a refused one alone): per game
// and round one move applied, the others ErrConflict; the bad change
// refused; per name one account, the other ErrDuplicate. Then every game's
// log holds exactly the moves applied.
func testManyGames(t *testing.T, s store.Store) {
	defer s.Close()
	const games, contenders, rounds, names = 40, 4, 4, 6
	gs := make([]store.Game, games)
	for i := range gs {
		gs[i] = newGame(fmt.Sprintf("many%02d", i), 1, 2)
		must(t, s.CreateGame(ctx, gs[i]))
	}
	applied := make([][]string, games)
	for round := range rounds {
		moves := make([][]error, games)
		bad := make([]error, games)
		accounts := make([][2]error, names)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for gi := range games {
			moves[gi] = make([]error, contenders)
			for k := range contenders {
				next, e := move(gs[gi], fmt.Sprint(1+(k+gi+round)%6), int64(k))
				wg.Go(func() {
					<-start
					moves[gi][k] = s.Update(ctx, next, gs[gi], []store.Entry{e})
				})
			}
			if gi%4 == 0 {
				wrong, e := move(gs[gi], "1", 9)
				wrong.Entries++ // two entries counted, one given
				wg.Go(func() {
					<-start
					bad[gi] = s.Update(ctx, wrong, gs[gi], []store.Entry{e})
				})
			}
		}
		for n := range names {
			for k := range 2 {
				name := fmt.Sprintf("round%d-%d", round, n)
				if k == 1 {
					name = strings.ToUpper(name)
				}
				wg.Go(func() {
					<-start
					_, accounts[n][k] = s.CreateAccount(ctx, store.Account{Name: name, Created: at})
				})
			}
		}
		close(start)
		wg.Wait()
		for gi := range games {
			won := -1
			for k, err := range moves[gi] {
				switch {
				case err == nil && won >= 0:
					t.Errorf("round %d, game %d: contenders %d and %d both applied", round, gi, won, k)
				case err == nil:
					won = k
				case !errors.Is(err, store.ErrConflict):
					t.Errorf("round %d, game %d, contender %d: %v, want ErrConflict", round, gi, k, err)
				}
			}
			if gi%4 == 0 && bad[gi] == nil {
				t.Errorf("round %d, game %d: a change whose entries do not add up: %v", round, gi, bad[gi])
			}
			if won < 0 {
				t.Fatalf("round %d, game %d: no contender applied", round, gi)
			}
			next, _ := move(gs[gi], "", 0)
			gs[gi] = next
			applied[gi] = append(applied[gi], fmt.Sprint(1+(won+gi+round)%6))
		}
		for n, errs := range accounts {
			ok, dup := 0, 0
			for _, err := range errs {
				switch {
				case err == nil:
					ok++
				case errors.Is(err, store.ErrDuplicate):
					dup++
				default:
					t.Errorf("round %d, name %d: %v", round, n, err)
				}
			}
			if ok != 1 || dup != 1 {
				t.Errorf("round %d, name %d: %d created, %d refused; want 1 and 1", round, n, ok, dup)
			}
		}
	}
	for gi, g := range gs {
		got, log, err := s.Game(ctx, g.ID)
		if err != nil || got.Version != g.Version || got.Ply != rounds || len(log) != rounds {
			t.Fatalf("game %d after %d rounds: %+v, %d entries, %v", gi, rounds, got, len(log), err)
		}
		for i, e := range log {
			if e.N != i || e.Move != applied[gi][i] {
				t.Errorf("game %d entry %d: %+v, want move %s", gi, i, e, applied[gi][i])
			}
		}
	}
}

func testLists(t *testing.T, s store.Store) {
	defer s.Close()
	for i, st := range []string{store.StateActive, store.StateFinished, store.StateWaiting, store.StateActive} {
		g := newGame(fmt.Sprintf("l%d", i), int64(1+i%2), 3)
		g.State, g.Updated = st, at.Add(time.Duration(i)*time.Minute)
		if i == 3 {
			g.Preset, g.Size, g.Rules = "golf", "11", "golf"
			g.Deadline = at.Add(-time.Minute) // its player to move is out of time
		}
		if st == store.StateWaiting {
			g.Deadline, g.Expires = time.Time{}, at.Add(time.Hour)
		}
		must(t, s.CreateGame(ctx, g))
	}
	ids := func(gs []store.Game, err error) string {
		if err != nil {
			return err.Error()
		}
		out := ""
		for _, g := range gs {
			out += g.ID + " "
		}
		return out
	}
	cases := []struct {
		f    store.Filter
		want string
	}{
		{store.Filter{}, "l3 l2 l1 l0 "},
		{store.Filter{Player: 1}, "l2 l0 "},
		{store.Filter{Player: 3, States: []string{store.StateActive}}, "l3 l0 "},
		{store.Filter{States: []string{store.StateFinished, store.StateWaiting}}, "l2 l1 "},
		{store.Filter{Preset: "golf", Size: "11"}, "l3 "},
		{store.Filter{Before: at.Add(2 * time.Minute)}, "l1 l0 "},
		{store.Filter{Limit: 1}, "l3 "},
	}
	for _, c := range cases {
		if got := ids(s.Games(ctx, c.f)); got != c.want {
			t.Errorf("%+v: %s, want %s", c.f, got, c.want)
		}
	}
	if got := ids(s.Due(ctx, at)); got != "l3 " {
		t.Errorf("due at the start: %s, want l3", got)
	}
	if got := ids(s.Due(ctx, at.Add(2*time.Hour))); got != "l2 l3 " {
		t.Errorf("due two hours on: %s, want l2 (expired) and l3", got)
	}
	if got := ids(s.Due(ctx, at.Add(100*time.Hour))); got != "l0 l2 l3 " {
		t.Errorf("due 100 hours on: %s", got)
	}
	if got := ids(s.Warnable(ctx, at.Add(100*time.Hour))); got != "l0 l3 " {
		t.Errorf("warnable: %s, want l0 l3", got)
	}
}

func testAnalysis(t *testing.T, s store.Store) {
	defer s.Close()
	must(t, s.CreateGame(ctx, newGame("a1", 1, 2)))
	if _, err := s.Analysis(ctx, "a1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("no analysis yet: %v", err)
	}
	must(t, s.SaveAnalysis(ctx, "a1", []byte(`{"moves":[]}`)))
	if err := s.SaveAnalysis(ctx, "a1", []byte(`{}`)); !errors.Is(err, store.ErrDuplicate) {
		t.Errorf("a second analysis: %v", err)
	}
	body, err := s.Analysis(ctx, "a1")
	if err != nil || string(body) != `{"moves":[]}` {
		t.Errorf("analysis %q, %v", body, err)
	}
	must(t, s.Ping(ctx))
}

// testReopen: what was committed is there after the store is closed and
// opened again.
func testReopen(t *testing.T, o Open) {
	s := o.New(t)
	a, err := s.CreateAccount(ctx, store.Account{Name: "kept"})
	must(t, err)
	g := newGame("kept", a.ID, 0)
	must(t, s.CreateGame(ctx, g))
	next, e := move(g, "3", a.ID)
	must(t, s.Update(ctx, next, g, []store.Entry{e}))
	s = o.Reopen(t, s)
	defer s.Close()
	got, log, err := s.Game(ctx, "kept")
	if err != nil || got.Ply != 1 || len(log) != 1 || log[0].Move != "3" {
		t.Errorf("after reopening: %+v %v %v", got, log, err)
	}
	if _, err := s.AccountByName(ctx, "KEPT"); err != nil {
		t.Errorf("account after reopening: %v", err)
	}
}

// testResume: a process starting when none is alive moves the running
// clocks on by the time since the last beat (live ones always,
// correspondence ones after a downtime longer than DaysAfter); one
// starting while another is alive moves nothing; of several starting at
// once, one moves them.
func testResume(t *testing.T, s store.Store) {
	defer s.Close()
	a, err := s.CreateAccount(ctx, store.Account{Name: "ada"})
	must(t, err)
	b, err := s.CreateAccount(ctx, store.Account{Name: "bo"})
	must(t, err)
	live := newGame("live", a.ID, b.ID)
	live.Clock, live.Deadline = "live:5m", at.Add(4*time.Minute)
	days := newGame("days", a.ID, b.ID)
	over := newGame("over", a.ID, b.ID)
	over.Clock, over.State, over.Deadline = "live:5m", store.StateFinished, time.Time{}
	for _, g := range []store.Game{live, days, over} {
		must(t, s.CreateGame(ctx, g))
	}
	// check wants the games' turn starts and deadlines moved by the
	// durations given, and their versions up by one for each move.
	check := func(when string, liveBy, daysBy time.Duration, liveV, daysV int) {
		t.Helper()
		for _, c := range []struct {
			g  store.Game
			by time.Duration
			v  int
		}{{live, liveBy, liveV}, {days, daysBy, daysV}, {over, 0, 1}} {
			got, _, err := s.Game(ctx, c.g.ID)
			must(t, err)
			if !got.TurnStart.Equal(c.g.TurnStart.Add(c.by)) || !got.Deadline.Equal(c.g.Deadline.Add(c.by)) && !c.g.Deadline.IsZero() || got.Version != c.v {
				t.Errorf("%s: game %s turn %v deadline %v version %d; want moved by %v, version %d", when, c.g.ID, got.TurnStart, got.Deadline, got.Version, c.by, c.v)
			}
		}
	}
	resume := func(proc string, now time.Time) time.Duration {
		t.Helper()
		down, err := s.Resume(ctx, store.Resume{Process: proc, Now: now, Stale: 10 * time.Second, DaysAfter: time.Hour})
		must(t, err)
		return down
	}
	// The first process ever: nothing to give back.
	if down := resume("p1", at); down != 0 {
		t.Errorf("first start: downtime %v", down)
	}
	check("first start", 0, 0, 1, 1)
	// A second process while p1 beats: nothing moves.
	must(t, s.Beat(ctx, "p1", at.Add(5*time.Second), false))
	if down := resume("p2", at.Add(12*time.Second)); down != 0 {
		t.Errorf("start beside a live process: downtime %v", down)
	}
	check("start beside a live process", 0, 0, 1, 1)
	// Both stop cleanly, p2 last at 20 s; p3 starts at 50 s: 30 s of
	// downtime, live clocks only.
	must(t, s.Beat(ctx, "p1", at.Add(15*time.Second), true))
	must(t, s.Beat(ctx, "p2", at.Add(20*time.Second), true))
	if down := resume("p3", at.Add(50*time.Second)); down != 30*time.Second {
		t.Errorf("start after a clean stop: downtime %v, want 30s", down)
	}
	check("start after 30 s down", 30*time.Second, 0, 2, 1)
	// p3 crashes after its beat at 60 s; p4 starts 5 s later: p3 is taken
	// for alive (within Stale), nothing moves.
	must(t, s.Beat(ctx, "p3", at.Add(60*time.Second), false))
	if down := resume("p4", at.Add(65*time.Second)); down != 0 {
		t.Errorf("start 5 s after a crash: downtime %v", down)
	}
	// p3 and p4 crash (last beats 60 s and 65 s); two hours later 16
	// processes start at once: one of them gives back 2 h less 65 s, to
	// the correspondence deadlines too, and the others nothing.
	start := at.Add(2 * time.Hour)
	downs := make([]time.Duration, 16)
	var wg sync.WaitGroup
	// Reads at once first, so that the store's pool holds connections
	// ready for the starts to overlap.
	for range downs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Games(ctx, store.Filter{})
		}()
	}
	wg.Wait()
	gate := make(chan struct{})
	for i := range downs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			d, err := s.Resume(ctx, store.Resume{Process: fmt.Sprintf("q%d", i), Now: start, Stale: 10 * time.Second, DaysAfter: time.Hour})
			if err != nil {
				t.Error(err)
			}
			downs[i] = d
		}()
	}
	close(gate)
	wg.Wait()
	want := 2*time.Hour - 65*time.Second
	shifted := 0
	for _, d := range downs {
		switch d {
		case want:
			shifted++
		case 0:
		default:
			t.Errorf("one of 16 starting at once: downtime %v, want %v or 0", d, want)
		}
	}
	if shifted != 1 {
		t.Errorf("of 16 processes starting at once %d gave the time back, want 1 (%v)", shifted, downs)
	}
	check("16 starts after 2 h down", 30*time.Second+want, want, 3, 2)
}
