package arena

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"alak/notation"
	"alak/player"
	"alak/rules"
	"alak/session"
)

// resigner resigns at its first move: under every preset the resigning
// player loses (rules.Resigned), so its opponent scores every game.
type resigner struct{}

func (resigner) Name() string { return "resigner" }
func (resigner) Close() error { return nil }
func (resigner) Move(ctx context.Context, g *rules.Game) (rules.Move, error) {
	return rules.Resign, nil
}

// failing returns an error at its first move.
type failing struct{}

func (failing) Name() string { return "failing" }
func (failing) Close() error { return nil }
func (failing) Move(ctx context.Context, g *rules.Game) (rules.Move, error) {
	return rules.NoMove, errors.New("engine crashed")
}

// stalling thinks until its context ends.
type stalling struct{}

func (stalling) Name() string { return "stalling" }
func (stalling) Close() error { return nil }
func (stalling) Move(ctx context.Context, g *rules.Game) (rules.Move, error) {
	<-ctx.Done()
	return rules.NoMove, ctx.Err()
}

// counted is a player that counts its Close calls in closes.
type counted struct {
	player.Player
	closes *atomic.Int64
}

func (p counted) Close() error {
	p.closes.Add(1)
	return p.Player.Close()
}

// reporting plays at random and reports every move as "tested" (a
// player.Reporter), counting its moves.
type reporting struct {
	player.Player
	moves int
}

func (p *reporting) Move(ctx context.Context, g *rules.Game) (rules.Move, error) {
	p.moves++
	return p.Player.Move(ctx, g)
}

func (p *reporting) Report() player.Report {
	return player.Report{Moves: p.moves, Kinds: map[string]int{"tested": p.moves}}
}

func withTestPlayers(spec string, seed uint64) (player.Player, error) {
	switch spec {
	case "reporting":
		return &reporting{Player: player.NewRandom(seed)}, nil
	case "resigner":
		return resigner{}, nil
	case "failing":
		return failing{}, nil
	case "stalling":
		return stalling{}, nil
	}
	return player.New(spec, seed)
}

func TestMatchAgainstResigner(t *testing.T) {
	var mu sync.Mutex
	var seen []int
	res, err := Match(context.Background(), Config{
		Rules: rules.MustPreset("alak"), Players: [2]string{"random", "resigner"}, Games: 12,
		Openings: "random:2", Workers: 3, NewPlayer: withTestPlayers,
		Progress: func(p Progress) { mu.Lock(); seen = append(seen, p.Done); mu.Unlock() },
	})
	if err != nil {
		t.Fatal(err)
	}
	// Every game is won by P1: the resigner loses each one.
	if res.Games != 12 || res.Wins != [2]int{12, 0} || res.Draws != 0 || res.Score != 1 || res.Elo != EloCap {
		t.Fatalf("result %+v, want 12 wins of 12, score 1, Elo %d", res, EloCap)
	}
	// Wilson's interval at a score of 1 over n games is [n/(n+z²), 1].
	if want := 12 / (12 + z95*z95); math.Abs(res.ScoreCI[0]-want) > 1e-12 || res.ScoreCI[1] != 1 {
		t.Errorf("score interval %v, want [%v, 1]", res.ScoreCI, want)
	}
	if !slices.Equal(seen, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}) {
		t.Errorf("progress reported %v games done", seen)
	}
	for i, g := range res.Played {
		if g.Index != i || g.P1Black != (i%2 == 0) || g.Outcome.Reason != rules.Resigned {
			t.Errorf("game %d: index %d, P1 black %v, %v", i, g.Index, g.P1Black, g.Outcome)
		}
	}
}

func TestMatchError(t *testing.T) {
	_, err := Match(context.Background(), Config{
		Rules: rules.MustPreset("alak"), Players: [2]string{"random", "failing"}, Games: 6, NewPlayer: withTestPlayers,
	})
	if err == nil || !strings.Contains(err.Error(), "engine crashed") {
		t.Fatalf("a failing player: error %v", err)
	}
	for _, cfg := range []Config{
		{Rules: rules.MustPreset("alak"), Players: [2]string{"random", "nobody"}, Games: 2},
		{Rules: rules.MustPreset("alak"), Players: [2]string{"random", "random"}, Games: 0},
		{Rules: rules.MustPreset("alak"), Players: [2]string{"random", "random"}, Games: 2, Openings: "book"},
	} {
		if _, err := Match(context.Background(), cfg); err == nil {
			t.Errorf("Match(%+v) accepted", cfg)
		}
	}
}

// TestMatchGames plays random against greedy in parallel and checks the
// bookkeeping against the games themselves, the shared openings, the SGF
// files, and that the same seed replays the same match.
func TestMatchGames(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{
		Rules: rules.MustPreset("alak"), Players: [2]string{"random", "greedy"}, Games: 16,
		Openings: "random:3", Seed: 42, SGFDir: dir,
	}
	res, err := Match(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Played) != 16 || res.Wins[0]+res.Wins[1]+res.Draws != 16 {
		t.Fatalf("%d games, %v wins, %d draws", len(res.Played), res.Wins, res.Draws)
	}
	points := 0.0
	for i, g := range res.Played {
		// P1's score from the outcome, recomputed here.
		want := 0.5
		if g.Outcome.Winner != rules.None {
			want = 0
			if (g.Outcome.Winner == rules.Black) == g.P1Black {
				want = 1
			}
		}
		if g.P1Score != want {
			t.Errorf("game %d: P1 score %v, outcome %v with P1 black %v", i, g.P1Score, g.Outcome, g.P1Black)
		}
		points += want
		if i%2 == 1 && !slices.Equal(g.Moves[:3], res.Played[i-1].Moves[:3]) {
			t.Errorf("games %d and %d open %v and %v: a pair shares its opening", i-1, i, res.Played[i-1].Moves[:3], g.Moves[:3])
		}
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("game-%03d.sgf", i+1)))
		if err != nil {
			t.Fatal(err)
		}
		rec, err := notation.ReadSGF(data)
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		replay, err := rec.Game()
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		if !slices.Equal(rec.Moves, g.Moves) || replay.Outcome() != g.Outcome {
			t.Errorf("game %d: the SGF holds %v (%v), the match played %v (%v)", i+1, rec.Moves, replay.Outcome(), g.Moves, g.Outcome)
		}
		wantBlack := "random"
		if !g.P1Black {
			wantBlack = "greedy"
		}
		if rec.Black != wantBlack {
			t.Errorf("game %d: PB %q, want %q", i+1, rec.Black, wantBlack)
		}
	}
	if res.Score != points/16 {
		t.Errorf("score %v, the games give %v", res.Score, points/16)
	}
	cfg.SGFDir = ""
	cfg.Workers = 1
	again, err := Match(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range again.Played {
		if !slices.Equal(again.Played[i].Moves, res.Played[i].Moves) {
			t.Fatalf("game %d differs between runs with seed 42: %v and %v", i, res.Played[i].Moves, again.Played[i].Moves)
		}
	}
}

// TestMatchSearchPlayers runs the search players in parallel under the race
// detector (go test -race), on a line and on a grid.
func TestMatchSearchPlayers(t *testing.T) {
	for _, tc := range []struct{ rules, a, b string }{
		{"alak size=9", "mcts:playouts=200", "alphabeta:nodes=2000"},
		{"alterigo size=5x5", "mcts:playouts=100", "greedy"},
	} {
		r, err := rules.Parse(tc.rules)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Match(context.Background(), Config{Rules: r, Players: [2]string{tc.a, tc.b}, Games: 4, Openings: "random:2", Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if res.Games != 4 {
			t.Errorf("%s: %d games", tc.rules, res.Games)
		}
	}
}

func TestMatchCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Match(ctx, Config{Rules: rules.MustPreset("alak"), Players: [2]string{"mcts", "mcts"}, Games: 4})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled match: %v", err)
	}
}

func TestMoveLimit(t *testing.T) {
	// Without a repetition rule an alak game need not end (positions
	// repeat on 7 points and more, SEEDS.md); the limit draws it.
	r := rules.MustPreset("alak")
	r.Repetition = 0
	res, err := Match(context.Background(), Config{Rules: r, Players: [2]string{"random", "random"}, Games: 4, MaxMoves: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range res.Played {
		if !g.Limit || g.P1Score != 0.5 || len(g.Moves) != 5 {
			t.Errorf("game %d: limit %v, score %v after %d moves; want a draw after 5", g.Index, g.Limit, g.P1Score, len(g.Moves))
		}
	}
}

// TestMatchClosesPlayers checks that every player built is closed once: the
// two of each game by its session, and the two Match builds to check the
// specs.
func TestMatchClosesPlayers(t *testing.T) {
	var built, closes atomic.Int64
	newPlayer := func(spec string, seed uint64) (player.Player, error) {
		p, err := withTestPlayers(spec, seed)
		if err != nil {
			return nil, err
		}
		built.Add(1)
		return counted{p, &closes}, nil
	}
	for _, players := range [][2]string{{"random", "greedy"}, {"random", "resigner"}, {"failing", "random"}} {
		built.Store(0)
		closes.Store(0)
		_, err := Match(context.Background(), Config{
			Rules: rules.MustPreset("alak"), Players: players, Games: 6, Workers: 2, NewPlayer: newPlayer,
		})
		if (err != nil) != (players[0] == "failing") {
			t.Errorf("%v: error %v", players, err)
		}
		if built.Load() < 4 || closes.Load() != built.Load() {
			t.Errorf("%v: %d players built, %d closes", players, built.Load(), closes.Load())
		}
	}
}

// TestMatchMoveTime checks that a player still thinking at the end of its
// move time ends the match with the session's error.
func TestMatchMoveTime(t *testing.T) {
	_, err := Match(context.Background(), Config{
		Rules: rules.MustPreset("alak"), Players: [2]string{"random", "stalling"}, Games: 2,
		MoveTime: 50 * time.Millisecond, NewPlayer: withTestPlayers,
	})
	if !errors.Is(err, session.ErrMoveTime) || !strings.Contains(err.Error(), "stalling") {
		t.Fatalf("a player that never moves: error %v, want %v naming it", err, session.ErrMoveTime)
	}
}

// TestMatchReports checks that the reports of players that give one are
// kept per game and summed per player, P1's and P2's apart, whichever
// colour they had.
func TestMatchReports(t *testing.T) {
	res, err := Match(context.Background(), Config{
		Rules: rules.MustPreset("alak"), Players: [2]string{"random", "reporting"}, Games: 6,
		Openings: "random:2", Workers: 2, NewPlayer: withTestPlayers,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, g := range res.Played {
		// The reporting player (P2) moves after the opening on every
		// other ply: second when P1 has Black.
		n := len(g.Moves) - g.Opening
		mine := n / 2
		if n%2 == 1 && !g.P1Black {
			mine++
		}
		if g.Reports[0].Moves != 0 || g.Reports[1].Moves != mine || g.Reports[1].Kinds["tested"] != mine {
			t.Errorf("game %d (%d moves after the opening, P1 black %v): reports %v", g.Index, n, g.P1Black, g.Reports)
		}
		want += mine
	}
	if res.Reports[0].Moves != 0 || res.Reports[1].Moves != want || res.Reports[1].Kinds["tested"] != want {
		t.Errorf("summed reports %v, want P2 %d moves", res.Reports, want)
	}
}
