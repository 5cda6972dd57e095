package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"alak/server/internal/pages"
	"alak/server/internal/tournaments"
	"alak/server/store"
	"alak/server/store/sqlitestore"
	"alak/wire"
)

// Tournaments played through the API, on real SQLite and
// PostgreSQL.

// tourneyPlayers signs up players p1, p2 ... (all at the new player's
// rating, so seeded by name).
func tourneyPlayers(h *harness, n int) map[string]*client {
	ps := map[string]*client{}
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("p%d", i)
		ps[name] = h.client().signUp(name)
	}
	return ps
}

func (c *client) tournament(id string) wire.Tournament {
	c.h.t.Helper()
	var v wire.Tournament
	if code := c.do("GET", "/api/tournaments/"+id, nil, &v); code != http.StatusOK {
		c.h.t.Fatalf("get tournament %s: %d", id, code)
	}
	return v
}

// createTournament creates a tournament, lets every player join and the
// organiser (the first player) start it.
func createTournament(t *testing.T, ps map[string]*client, req map[string]any) string {
	t.Helper()
	var out wire.Created
	var e errBody
	org := ps["p1"]
	if code := org.do("POST", "/api/tournaments", req, &out); code != http.StatusCreated {
		org.do("POST", "/api/tournaments", req, &e)
		t.Fatalf("create %v: %d %+v", req, code, e)
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range ps {
			if !yield(n) {
				return
			}
		}
	})
	for _, n := range names {
		if code := ps[n].do("POST", "/api/tournaments/"+out.ID+"/join", nil, &e); code != http.StatusOK {
			t.Fatalf("%s joins: %d %+v", n, code, e)
		}
	}
	if code := org.do("POST", "/api/tournaments/"+out.ID+"/start", nil, &e); code != http.StatusOK {
		t.Fatalf("start: %d %+v", code, e)
	}
	return out.ID
}

// waitTournament reads the tournament until cond holds (the runner
// works on its own goroutine after a game ends), for at most 10 s.
func waitTournament(t *testing.T, c *client, id, what string, cond func(wire.Tournament) bool) wire.Tournament {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		v := c.tournament(id)
		if cond(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("tournament %s: never %s: %+v", id, what, v)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// pending returns the tournament's games being played.
func pending(v wire.Tournament) []wire.TournamentGame {
	var out []wire.TournamentGame
	for _, g := range v.Games {
		if g.Result == "pending" && g.State == store.StateActive {
			out = append(out, g)
		}
	}
	return out
}

// lowerWins decides a game the way the whole-tournament tests do: the
// player whose name sorts first wins, the other resigns.
func lowerWins(t *testing.T, ps map[string]*client, g wire.TournamentGame) {
	t.Helper()
	loser := max(g.X, g.O)
	var e errBody
	if code := ps[loser].do("POST", "/api/games/"+g.ID+"/resign", nil, &e); code != http.StatusOK {
		t.Fatalf("%s resigns game %s: %d %+v", loser, g.ID, code, e)
	}
}

// playOut plays the tournament to its end with decide, and returns its
// last view.
func playOut(t *testing.T, ps map[string]*client, id string, decide func(wire.TournamentGame)) wire.Tournament {
	t.Helper()
	c := ps["p1"]
	for range 200 {
		v := waitTournament(t, c, id, "paired or finished", func(v wire.Tournament) bool {
			return v.State == store.TournamentFinished || len(pending(v)) > 0
		})
		if v.State == store.TournamentFinished {
			return v
		}
		for _, g := range pending(v) {
			decide(g)
		}
	}
	t.Fatal("the tournament did not end in 200 rounds")
	return wire.Tournament{}
}

type standingLine struct {
	Name      string
	Score     float64
	Tiebreaks []float64
}

func standingLines(v wire.Tournament) []standingLine {
	var out []standingLine
	for _, s := range v.Standings {
		out = append(out, standingLine{s.Name, s.Score, s.Tiebreaks})
	}
	return out
}

// tournamentGames counts the games stored for tournaments.
func tournamentGames(t *testing.T, st store.Store) int {
	t.Helper()
	gs, err := st.Games(context.Background(), store.Filter{Kind: store.KindTournament, Limit: 200})
	if err != nil {
		t.Fatal(err)
	}
	return len(gs)
}

// TestTournamentRoundRobinByCorrespondence: four players, a round robin
// by correspondence: its six games start at once (as Little Golem does);
// the lower name wins every game, so the standings are p1 3, p2 2, p3 1,
// p4 0 with Sonneborn-Berger (the sum of the scores of the players beaten)
// p1 2+1+0 = 3, p2 1+0 = 1, p3 0, p4 0, computed by hand.
func TestTournamentRoundRobinByCorrespondence(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{SignupRate: 100})
	ps := tourneyPlayers(h, 4)
	id := createTournament(t, ps, map[string]any{"name": "Autumn cup", "rules": "alak size=7", "clock": "days:3", "format": "round-robin"})
	v := waitTournament(t, ps["p1"], id, "paired", func(v wire.Tournament) bool { return len(v.Games) == 6 })
	if v.State != store.TournamentRunning || len(pending(v)) != 6 || !v.Rated {
		t.Fatalf("after the start: state %s, %d games being played, rated %v; want running, 6, true", v.State, len(pending(v)), v.Rated)
	}
	// Every pair once.
	pairs := map[string]int{}
	for _, g := range v.Games {
		pairs[min(g.X, g.O)+"-"+max(g.X, g.O)]++
	}
	if len(pairs) != 6 {
		t.Errorf("pairs: %v, want the 6 pairs of 4 players once each", pairs)
	}
	// A game shows its tournament and round, in its view and in My games.
	g0 := v.Games[0]
	gv := ps[g0.X].game(g0.ID)
	if gv.Tournament == nil || gv.Tournament.ID != id || gv.Tournament.Round != g0.Round || gv.Tournament.Name != "Autumn cup" || gv.Kind != store.KindTournament {
		t.Errorf("game %s's view: kind %s tournament %+v, want %s round %d", g0.ID, gv.Kind, gv.Tournament, id, g0.Round)
	}
	var mine struct {
		Games []wire.Summary `json:"games"`
	}
	ps["p4"].do("GET", "/api/me/games", nil, &mine)
	tagged := 0
	for _, g := range mine.Games {
		if g.Tournament != nil && g.Tournament.ID == id && g.Tournament.Round >= 1 {
			tagged++
		}
	}
	if len(mine.Games) != 3 || tagged != 3 {
		t.Errorf("p4's games: %d, %d of them with their tournament and round; want 3 and 3", len(mine.Games), tagged)
	}
	// After the start: no joining, no leaving.
	late := h.client().signUp("late")
	var e errBody
	if code := late.do("POST", "/api/tournaments/"+id+"/join", nil, &e); code != http.StatusConflict || e.Code != "not_open" {
		t.Errorf("a join after the start: %d %+v", code, e)
	}

	v = playOut(t, ps, id, func(g wire.TournamentGame) { lowerWins(t, ps, g) })
	want := []standingLine{{"p1", 3, []float64{3}}, {"p2", 2, []float64{1}}, {"p3", 1, []float64{0}}, {"p4", 0, []float64{0}}}
	if got := standingLines(v); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("standings: %v, want %v", got, want)
	}
	if v.Winner != "p1" || v.Crosstable == nil || v.Crosstable.Cells[0][1] != "1" || v.Crosstable.Cells[3][0] != "0" {
		t.Errorf("winner %q, crosstable %+v", v.Winner, v.Crosstable)
	}
	if n := tournamentGames(t, h.st); n != 6 {
		t.Errorf("%d tournament games stored, want 6", n)
	}
	var list struct {
		Tournaments []wire.TournamentSummary `json:"tournaments"`
	}
	ps["p2"].do("GET", "/api/tournaments?state=finished", nil, &list)
	if len(list.Tournaments) != 1 || list.Tournaments[0].ID != id || list.Tournaments[0].Winner != "p1" || list.Tournaments[0].Players != 4 {
		t.Errorf("finished tournaments: %+v", list.Tournaments)
	}
	ps["p2"].do("GET", "/api/tournaments?state=open", nil, &list)
	if len(list.Tournaments) != 0 {
		t.Errorf("open tournaments: %+v, want none", list.Tournaments)
	}
}

// TestTournamentRefusals: what the API refuses, with the reason.
func TestTournamentRefusals(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{SignupRate: 100})
	ps := tourneyPlayers(h, 2)
	for _, c := range []struct {
		req  map[string]any
		code string
	}{
		{map[string]any{"name": "x", "clock": "days:3", "format": "ladder"}, "bad_format"},
		{map[string]any{"name": "x", "clock": "none", "format": "swiss"}, "bad_clock"},
		{map[string]any{"name": "", "clock": "days:3", "format": "swiss"}, "bad_name"},
		{map[string]any{"name": strings.Repeat("é", 61), "clock": "days:3", "format": "swiss"}, "bad_name"},
		{map[string]any{"name": "a\x00b", "clock": "days:3", "format": "swiss"}, "bad_name"},
		{map[string]any{"name": "x", "clock": "days:3", "format": "swiss", "rounds": 65}, "bad_rounds"},
		{map[string]any{"name": "x", "clock": "days:3", "format": "swiss", "max_players": 129}, "bad_max_players"},
		{map[string]any{"name": "x", "clock": "days:3", "format": "swiss", "rules": strings.Repeat("a", 201)}, "too_long"},
		{map[string]any{"name": "x", "clock": "days:3", "format": "swiss", "rules": "alak size=99"}, "bad_rules"},
		{map[string]any{"name": "x", "clock": "days:3", "format": "knockout", "rounds": 3}, "bad_rounds"},
		{map[string]any{"name": "x", "clock": "days:3", "format": "swiss", "max_players": 1}, "bad_max_players"},
		{map[string]any{"name": "x", "clock": "days:3", "format": "swiss", "starts": "yesterday"}, "bad_starts"},
		{map[string]any{"name": "x", "clock": "days:3", "format": "swiss", "rules": "alak edge=off", "rated": true}, "not_rated"},
	} {
		var e errBody
		if code := ps["p1"].do("POST", "/api/tournaments", c.req, &e); code < 400 || e.Code != c.code {
			t.Errorf("%v: %d %+v, want %s", c.req, code, e, c.code)
		}
	}
	var out wire.Created
	ps["p1"].do("POST", "/api/tournaments", map[string]any{"name": "Small", "clock": "days:3", "format": "swiss", "max_players": 2}, &out)
	var e errBody
	if code := ps["p1"].do("POST", "/api/tournaments/"+out.ID+"/start", nil, &e); code != http.StatusConflict || e.Code != "too_few" {
		t.Errorf("a start without players: %d %+v", code, e)
	}
	ps["p1"].do("POST", "/api/tournaments/"+out.ID+"/join", nil, nil)
	if code := ps["p1"].do("POST", "/api/tournaments/"+out.ID+"/join", nil, &e); code != http.StatusConflict || e.Code != "joined" {
		t.Errorf("a second join: %d %+v", code, e)
	}
	ps["p2"].do("POST", "/api/tournaments/"+out.ID+"/join", nil, nil)
	third := h.client().signUp("third")
	if code := third.do("POST", "/api/tournaments/"+out.ID+"/join", nil, &e); code != http.StatusConflict || e.Code != "full" {
		t.Errorf("a join past max_players: %d %+v", code, e)
	}
	if code := ps["p2"].do("POST", "/api/tournaments/"+out.ID+"/start", nil, &e); code != http.StatusForbidden || e.Code != "not_organiser" {
		t.Errorf("a start by a player: %d %+v", code, e)
	}
	if code := ps["p2"].do("POST", "/api/tournaments/"+out.ID+"/leave", nil, &e); code != http.StatusOK {
		t.Errorf("a leave: %d %+v", code, e)
	}
	if v := ps["p1"].tournament(out.ID); len(v.Players) != 1 || v.Players[0].Name != "p1" {
		t.Errorf("after p2 left: %+v", v.Players)
	}
	if code := h.client().do("POST", "/api/tournaments/"+out.ID+"/join", nil, &e); code != http.StatusUnauthorized {
		t.Errorf("a join without an account: %d %+v", code, e)
	}
	var bad errBody
	if code := ps["p1"].do("GET", "/api/tournaments?state=closed", nil, &bad); code != http.StatusBadRequest || bad.Code != "bad_state" {
		t.Errorf("list of state closed: %d %+v", code, bad)
	}
	// New tournaments count with new games: 30 a minute for an account
	// (Config.GameRate's default).
	made := 0
	for ; made < 40; made++ {
		if code := ps["p2"].do("POST", "/api/tournaments", map[string]any{"name": "flood", "clock": "days:3", "format": "swiss"}, &bad); code != http.StatusCreated {
			if code != http.StatusTooManyRequests || bad.Code != "rate_limited" {
				t.Errorf("tournament %d: %d %+v, want 429 rate_limited", made, code, bad)
			}
			break
		}
	}
	if made != 30 {
		t.Errorf("%d tournaments made before the limit, want 30", made)
	}
}

// TestTournamentOrganiserPlays: "play": true enters the organiser at once,
// seeded as a join would; without it the organiser only organises.
func TestTournamentOrganiserPlays(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{SignupRate: 100})
	ps := tourneyPlayers(h, 1)
	for _, play := range []bool{true, false} {
		var out wire.Created
		if code := ps["p1"].do("POST", "/api/tournaments", map[string]any{"name": "Mine", "clock": "days:3", "format": "swiss", "play": play}, &out); code != http.StatusCreated {
			t.Fatalf("create with play %v: %d", play, code)
		}
		v := ps["p1"].tournament(out.ID)
		var names []string
		for _, p := range v.Players {
			names = append(names, fmt.Sprintf("%s %.0f", p.Name, p.Rating))
		}
		// 1500: a new player's rating, the seeding of one without games.
		if want := map[bool]string{true: "p1 1500", false: ""}[play]; strings.Join(names, ",") != want || v.State != store.TournamentOpen {
			t.Errorf("created with play %v: players %q (%s), want %q, open", play, names, v.State, want)
		}
	}
}

// TestTournamentSwissRestartMidRound: a Swiss tournament of five players
// (a bye a round). Mid-round the server restarts: nothing is re-created.
// Then the last game of a round ends while no process runs (written to
// the database as a process that stopped after committing it, before
// pairing, leaves it): the next process's first sweep pairs the round.
// At the end, no pair met twice, nobody had two byes, and the view has
// standings but no crosstable (round robins only) nor bracket.
func TestTournamentSwissRestartMidRound(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{SignupRate: 100})
	ps := tourneyPlayers(h, 5)
	id := createTournament(t, ps, map[string]any{"name": "Swiss", "rules": "alak size=7", "clock": "days:3", "format": "swiss", "rounds": 3})
	v := waitTournament(t, ps["p1"], id, "paired", func(v wire.Tournament) bool { return len(v.Games) == 3 })
	byes := 0
	for _, g := range v.Games {
		if g.State == "bye" {
			byes++
		}
	}
	if v.Round != 1 || byes != 1 || len(pending(v)) != 2 || v.Rounds != 3 {
		t.Fatalf("round 1: round %d, %d byes, %d games being played: %+v", v.Round, byes, len(pending(v)), v.Games)
	}
	round1 := pending(v)
	lowerWins(t, ps, round1[0])
	stored := tournamentGames(t, h.st)
	h.restart()
	v = ps["p1"].tournament(id)
	if n := tournamentGames(t, h.st); n != stored || v.Round != 1 || len(v.Games) != 3 {
		t.Fatalf("after a restart mid-round: %d games stored (was %d), round %d, %d slots", n, stored, v.Round, len(v.Games))
	}
	// The last game of round 1 ends with no process running.
	last := round1[1]
	h.stop()
	st, err := sqlitestore.Open(context.Background(), h.path)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := st.Game(context.Background(), last.ID)
	if err != nil {
		t.Fatal(err)
	}
	loser := "o"
	if last.X > last.O {
		loser = "x"
	}
	read := g
	g.Version, g.State, g.Reason, g.Winner, g.Deadline, g.Ended = g.Version+1, store.StateFinished, "resignation", map[string]string{"x": "o", "o": "x"}[loser], time.Time{}, h.clock.Now()
	g.Result = map[string]string{"x": "W+R", "o": "B+R"}[loser]
	if err := st.Update(context.Background(), g, read, nil); err != nil {
		t.Fatal(err)
	}
	st.Close()
	h.start()
	v = waitTournament(t, ps["p1"], id, "paired round 2 after the restart", func(v wire.Tournament) bool { return v.Round == 2 })
	if len(v.Games) != 6 {
		t.Errorf("round 2: %d slots, want 6", len(v.Games))
	}
	v = playOut(t, ps, id, func(g wire.TournamentGame) { lowerWins(t, ps, g) })
	// No pair met twice, each player had at most one bye.
	met, bye := map[string]bool{}, map[string]int{}
	for _, g := range v.Games {
		if g.O == "" {
			bye[g.X]++
			continue
		}
		key := min(g.X, g.O) + "-" + max(g.X, g.O)
		if met[key] {
			t.Errorf("%s met twice", key)
		}
		met[key] = true
	}
	for p, n := range bye {
		if n > 1 {
			t.Errorf("%s had %d byes", p, n)
		}
	}
	if v.State != store.TournamentFinished || v.Round != 3 || len(v.Games) != 9 || v.Winner == "" || v.Crosstable != nil || v.Bracket != nil {
		t.Errorf("the end: %s round %d, %d slots, winner %q", v.State, v.Round, len(v.Games), v.Winner)
	}
	if n := tournamentGames(t, h.st); n != 6 {
		t.Errorf("%d tournament games stored for 3 rounds of 2, want 6", n)
	}
}

// TestTournamentWithdrawal: in a correspondence round robin of four, p4
// wins one game, then withdraws: that game counts, p4's two other games
// are forfeited (the opponents win, the games end), and p4 is paired no
// more.
func TestTournamentWithdrawal(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{SignupRate: 100})
	ps := tourneyPlayers(h, 4)
	id := createTournament(t, ps, map[string]any{"name": "RR", "rules": "alak size=7", "clock": "days:3", "format": "round-robin"})
	v := waitTournament(t, ps["p1"], id, "paired", func(v wire.Tournament) bool { return len(v.Games) == 6 })
	var played wire.TournamentGame
	for _, g := range v.Games {
		if (g.X == "p4" || g.O == "p4") && (g.X == "p3" || g.O == "p3") {
			played = g
		}
	}
	var e errBody
	if code := ps["p3"].do("POST", "/api/games/"+played.ID+"/resign", nil, &e); code != http.StatusOK {
		t.Fatalf("p3 resigns to p4: %d %+v", code, e)
	}
	if code := ps["p4"].do("POST", "/api/tournaments/"+id+"/withdraw", nil, &e); code != http.StatusOK {
		t.Fatalf("withdraw: %d %+v", code, e)
	}
	if code := ps["p4"].do("POST", "/api/tournaments/"+id+"/withdraw", nil, &e); code != http.StatusConflict || e.Code != "withdrawn" {
		t.Errorf("a second withdrawal: %d %+v", code, e)
	}
	v = waitTournament(t, ps["p1"], id, "p4's games forfeited", func(v wire.Tournament) bool {
		n := 0
		for _, g := range v.Games {
			if (g.X == "p4" || g.O == "p4") && g.Forfeit {
				n++
			}
		}
		return n == 2
	})
	for _, g := range v.Games {
		if g.X != "p4" && g.O != "p4" {
			continue
		}
		switch {
		case g.ID == played.ID:
			if g.Forfeit || g.Result != map[bool]string{true: "x", false: "o"}[g.X == "p4"] {
				t.Errorf("p4's played game: %+v, want p4's win, no forfeit", g)
			}
		default:
			want := map[bool]string{true: "o", false: "x"}[g.X == "p4"]
			if g.Result != want {
				t.Errorf("p4's unplayed game: %+v, want a forfeit won by %s", g, want)
			}
			if gv := ps["p1"].game(g.ID); gv.State != store.StateFinished {
				t.Errorf("p4's forfeited game %s is %s, want finished", g.ID, gv.State)
			}
		}
	}
	v = playOut(t, ps, id, func(g wire.TournamentGame) { lowerWins(t, ps, g) })
	score := map[string]float64{}
	for _, s := range v.Standings {
		score[s.Name] = s.Score
	}
	// p1: beats p2, p3, p4 (forfeit) = 3; p2: p3, p4 (forfeit) = 2; p3:
	// lost to p4 and to p1, p2 = 0; p4: beat p3 = 1.
	if want := map[string]float64{"p1": 3, "p2": 2, "p3": 0, "p4": 1}; fmt.Sprint(score) != fmt.Sprint(want) {
		t.Errorf("scores: %v, want %v", score, want)
	}
	if !v.Players[3].Withdrawn || v.Winner != "p1" {
		t.Errorf("players %+v, winner %q", v.Players, v.Winner)
	}
}

// TestTournamentTimeForfeit: a knockout of two by correspondence (days:1):
// game 1's X never moves and loses on time when the sweep finds the
// deadline passed; that loss counts in the match like any other.
func TestTournamentTimeForfeit(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{SignupRate: 100})
	ps := tourneyPlayers(h, 2)
	id := createTournament(t, ps, map[string]any{"name": "KO", "rules": "alak size=7", "clock": "days:1", "format": "knockout"})
	v := waitTournament(t, ps["p1"], id, "paired", func(v wire.Tournament) bool { return len(pending(v)) > 0 })
	first := pending(v)[0]
	h.clock.Add(25 * time.Hour)
	h.srv.sweepOnce(false)
	if gv := ps["p1"].game(first.ID); gv.State != store.StateFinished || *gv.Reason != "time" || *gv.Winner != "o" {
		t.Fatalf("after 25 hours: %s %v %v", gv.State, gv.Reason, gv.Winner)
	}
	waitTournament(t, ps["p1"], id, "game 1's loss on time recorded", func(v wire.Tournament) bool {
		for _, g := range v.Games {
			if g.ID == first.ID {
				return g.Result == "o"
			}
		}
		return false
	})
	// The rest: every other game won by X (each player wins once: 1-1,
	// then deciders).
	v = playOut(t, ps, id, func(g wire.TournamentGame) {
		var e errBody
		if code := ps[g.O].do("POST", "/api/games/"+g.ID+"/resign", nil, &e); code != http.StatusOK {
			t.Fatalf("%s resigns: %d %+v", g.O, code, e)
		}
	})
	if v.State != store.TournamentFinished || v.Winner == "" || len(v.Bracket) == 0 {
		t.Errorf("the end: %s, winner %q, bracket %+v", v.State, v.Winner, v.Bracket)
	}
}

// TestTournamentAbortedReplayed: a live round robin of two: a game whose
// X makes no first move is aborted (the first move's time) and replayed;
// after the third abort the slot is forfeited by the player who never
// moved. Neither player may abort a tournament game at will (either could
// then hand the other that forfeit).
func TestTournamentAbortedReplayed(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{SignupRate: 100, FirstMove: 10 * time.Second})
	ps := tourneyPlayers(h, 2)
	id := createTournament(t, ps, map[string]any{"name": "Live", "rules": "alak size=7", "clock": "live:5m+3s", "format": "round-robin"})
	var ids []string
	for try := 1; try <= tournaments.MaxTries; try++ {
		v := waitTournament(t, ps["p1"], id, fmt.Sprintf("game %d of the slot", try), func(v wire.Tournament) bool {
			return len(pending(v)) == 1 && !slices.Contains(ids, pending(v)[0].ID)
		})
		g := pending(v)[0]
		ids = append(ids, g.ID)
		// Neither player may call it off: the abort is the clock's.
		for _, p := range []string{g.X, g.O} {
			var e errBody
			if code := ps[p].do("POST", "/api/games/"+g.ID+"/abort", nil, &e); code != http.StatusConflict || e.Code != "tournament_game" {
				t.Errorf("try %d: %s aborts: %d %+v, want 409 tournament_game", try, p, code, e)
			}
		}
		h.clock.Add(11 * time.Second)
		h.srv.sweepOnce(false)
		if gv := ps["p1"].game(g.ID); gv.State != store.StateAborted {
			t.Fatalf("try %d: %s after the first move's time", try, gv.State)
		}
	}
	v := waitTournament(t, ps["p1"], id, "finished", func(v wire.Tournament) bool { return v.State == store.TournamentFinished })
	g := v.Games[0]
	if len(v.Games) != 1 || !g.Forfeit || g.Result != "o" || v.Winner != g.O {
		t.Errorf("after %d aborts: %+v, winner %q; want the slot forfeited by X, %s the winner", tournaments.MaxTries, v.Games, v.Winner, g.O)
	}
}

// TestTournamentTwoProcesses: two processes on one PostgreSQL database; in
// every round of a round robin of six (live, round by round) the three
// games end at the same moment, through both processes, while both sweep:
// each round is paired exactly once, and the tournament ends with its 15
// games.
func TestTournamentTwoProcesses(t *testing.T) {
	t.Parallel()
	clock := &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	// Six players sign up from one address: over the default rate.
	hs := pgProcessesWith(t, 2, clock, func(c *Config) { c.SignupRate = 100 })
	ps := tourneyPlayers(hs[0], 6)
	id := createTournament(t, ps, map[string]any{"name": "PG", "rules": "alak size=7", "clock": "live:5m+3s", "format": "round-robin"})
	for round := 1; round <= 5; round++ {
		v := waitTournament(t, ps["p1"], id, fmt.Sprintf("round %d paired", round), func(v wire.Tournament) bool {
			return v.State == store.TournamentRunning && len(pending(v)) == 3 && v.Round == round
		})
		games := pending(v)
		sort.Slice(games, func(i, j int) bool { return games[i].Slot < games[j].Slot })
		// Each game ends through its own process, at once, and each
		// process's sweep runs the tournament at the same time too (after
		// a crash, or with its ticker).
		var wg sync.WaitGroup
		for i, g := range games {
			wg.Add(2)
			go func() {
				defer wg.Done()
				loser := ps[max(g.X, g.O)].on(hs[i%2])
				loser.do("POST", "/api/games/"+g.ID+"/resign", nil, nil)
			}()
			go func() {
				defer wg.Done()
				hs[i%2].srv.tourneys.Sweep()
			}()
		}
		wg.Wait()
	}
	v := waitTournament(t, ps["p1"], id, "finished", func(v wire.Tournament) bool { return v.State == store.TournamentFinished })
	if len(v.Games) != 15 || v.Winner != "p1" {
		t.Errorf("the end: %d slots, winner %q", len(v.Games), v.Winner)
	}
	if n := tournamentGames(t, hs[0].st); n != 15 {
		t.Errorf("%d tournament games stored, want 15: a round paired twice", n)
	}
}

// tournamentStream reads a tournament's event stream: each event's view.
func tournamentStream(t *testing.T, ctx context.Context, url string) <-chan wire.Tournament {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := make(chan wire.Tournament, 16)
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var kind string
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				kind = line[7:]
			case strings.HasPrefix(line, "data: ") && kind == "tournament":
				var v wire.Tournament
				if json.Unmarshal([]byte(line[6:]), &v) != nil {
					return
				}
				select {
				case out <- v:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}

// TestTournamentEventsAndPages: the tournament's event stream sends the
// view at once, then each change (a join, the start's pairing, a game's
// end); the pages answer, a name with markup is escaped, and an unknown
// tournament is 404 on the API and the page.
func TestTournamentEventsAndPages(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{SignupRate: 100})
	ps := tourneyPlayers(h, 2)
	var out wire.Created
	ps["p1"].do("POST", "/api/tournaments", map[string]any{"name": "<b>Cup</b> & co", "rules": "alak size=7", "clock": "days:3", "format": "round-robin"}, &out)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := tournamentStream(t, ctx, h.http.URL+"/api/tournaments/"+out.ID+"/events")
	next := func(what string, cond func(wire.Tournament) bool) wire.Tournament {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for {
			select {
			case v := <-events:
				if cond(v) {
					return v
				}
			case <-timeout:
				t.Fatalf("the stream never sent %s", what)
			}
		}
	}
	first := next("the current view", func(v wire.Tournament) bool { return true })
	if first.Name != "<b>Cup</b> & co" || first.State != store.TournamentOpen || len(first.Players) != 0 {
		t.Errorf("first event: %+v", first)
	}
	ps["p1"].do("POST", "/api/tournaments/"+out.ID+"/join", nil, nil)
	next("p1's join", func(v wire.Tournament) bool { return len(v.Players) == 1 })
	ps["p2"].do("POST", "/api/tournaments/"+out.ID+"/join", nil, nil)
	ps["p1"].do("POST", "/api/tournaments/"+out.ID+"/start", nil, nil)
	v := next("the pairing", func(v wire.Tournament) bool { return len(pending(v)) == 1 })
	lowerWins(t, ps, pending(v)[0])
	v = next("the end", func(v wire.Tournament) bool { return v.State == store.TournamentFinished })
	if v.Winner != "p1" || v.Standings[0].Name != "p1" || v.Standings[0].Score != 1 {
		t.Errorf("the end's event: winner %q, standings %+v", v.Winner, v.Standings)
	}

	anon := h.client()
	for _, c := range []struct {
		path   string
		status int
		want   string
	}{
		{"/tournaments", 200, `src="` + pages.StaticURL("tournaments.js") + `"`},
		{"/t/" + out.ID, 200, `data-id="` + out.ID + `"`},
		{"/t/" + out.ID, 200, `<title>&lt;b&gt;Cup&lt;/b&gt; &amp; co · alak</title>`},
		{"/t/nosuch", 404, `There is no tournament nosuch.`},
		{"/api/tournaments/nosuch", 404, `"code":"not_found"`},
	} {
		status, _, body := anon.get(c.path, nil)
		if status != c.status || !strings.Contains(body, c.want) {
			t.Errorf("%s: %d, want %d with %s", c.path, status, c.status, c.want)
		}
		if strings.Contains(body, "<b>Cup</b>") {
			t.Errorf("%s: the name's markup is not escaped", c.path)
		}
	}
}

// TestTournamentKnockoutStartsAtItsTime: a knockout of five with a start
// time starts by itself on the first sweep after it, not before; the top
// three seeds (equal ratings: by name, p1 p2 p3) have byes in the first
// round of a bracket of eight, and the lower name wins every game, so p1
// wins the tournament after three rounds.
func TestTournamentKnockoutStartsAtItsTime(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{SignupRate: 100})
	ps := tourneyPlayers(h, 5)
	var out wire.Created
	starts := h.clock.Now().Add(time.Hour).Format(time.RFC3339)
	if code := ps["p1"].do("POST", "/api/tournaments", map[string]any{"name": "KO", "rules": "alak size=7", "clock": "days:3", "format": "knockout", "starts": starts}, &out); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	for _, n := range []string{"p1", "p2", "p3", "p4", "p5"} {
		ps[n].do("POST", "/api/tournaments/"+out.ID+"/join", nil, nil)
	}
	h.srv.tourneys.Sweep()
	if v := ps["p1"].tournament(out.ID); v.State != store.TournamentOpen || v.Starts == nil {
		t.Fatalf("before its time: %s, starts %v", v.State, v.Starts)
	}
	h.clock.Add(time.Hour)
	h.srv.tourneys.Sweep()
	v := ps["p1"].tournament(out.ID)
	if v.State != store.TournamentRunning || v.Round != 1 {
		t.Fatalf("at its time: %s round %d", v.State, v.Round)
	}
	byes := map[string]bool{}
	for _, m := range v.Bracket[0].Matches {
		if m.Bye {
			byes[m.Players[0]+m.Players[1]] = true
		}
	}
	if fmt.Sprint(byes) != "map[p1:true p2:true p3:true]" {
		t.Errorf("first round's byes: %v, want p1, p2 and p3's; bracket %+v", byes, v.Bracket)
	}
	v = playOut(t, ps, out.ID, func(g wire.TournamentGame) { lowerWins(t, ps, g) })
	if v.Winner != "p1" || len(v.Bracket) != 3 || v.Standings[0].Name != "p1" {
		t.Errorf("the end: winner %q, %d bracket rounds, standings %+v", v.Winner, len(v.Bracket), v.Standings)
	}
}

// TestTournamentDoubleRoundRobin: three players, a double round robin by
// correspondence: its six games (with a bye a round) start at once, each
// pair plays twice with the colours swapped, and with the lower name
// winning every game the scores are p1 4, p2 2, p3 0.
func TestTournamentDoubleRoundRobin(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{SignupRate: 100})
	ps := tourneyPlayers(h, 3)
	id := createTournament(t, ps, map[string]any{"name": "Double", "rules": "alak size=7", "clock": "days:3", "format": "double-round-robin"})
	v := waitTournament(t, ps["p1"], id, "paired", func(v wire.Tournament) bool { return len(pending(v)) == 6 })
	colours := map[string]int{}
	for _, g := range v.Games {
		if g.O != "" {
			colours[g.X+"-"+g.O]++
		}
	}
	for _, pair := range [][2]string{{"p1", "p2"}, {"p1", "p3"}, {"p2", "p3"}} {
		if colours[pair[0]+"-"+pair[1]] != 1 || colours[pair[1]+"-"+pair[0]] != 1 {
			t.Errorf("%s and %s: %v, want one game with each colour", pair[0], pair[1], colours)
		}
	}
	v = playOut(t, ps, id, func(g wire.TournamentGame) { lowerWins(t, ps, g) })
	score := map[string]float64{}
	for _, s := range v.Standings {
		score[s.Name] = s.Score
	}
	if fmt.Sprint(score) != "map[p1:4 p2:2 p3:0]" || v.Winner != "p1" || v.Crosstable.Cells[0][1] != "1 1" {
		t.Errorf("the end: scores %v, winner %q, crosstable %+v", score, v.Winner, v.Crosstable)
	}
}
