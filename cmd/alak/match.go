package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"alak/arena"
	"alak/player"
	"alak/rules"
	"alak/solve"
)

func init() {
	register(command{name: "match", summary: "play computer players against each other and measure their strength", run: matchRun})
}

const matchUsage = `usage: alak match P1 P2 [--rules R] [--size N] [--OPTION VALUE ...] [--games K]
                  [--movetime 100ms | --playouts N] [--openings random:2] [--json] [--sgf-dir DIR]
                  [--judge-openings] [--judge-moves] [--table-dir DIR] [--memory MB] [--judge-nodes N]
       alak match --ladder [--players P,P,...] [--rules R] [--size N] [--games K] [--movetime 100ms]
Plays K games between two players, alternating colours, from random openings
shared by each pair of games, in parallel on every core. It prints P1's wins,
draws and losses, P1's score with a 95% confidence interval and the Elo
difference. --ladder plays every player against every other and prints an Elo
table and every pair's games (with --json, "ratings" and "pairs"); a ladder
stopped before its end (an interrupt, a failing player) prints the pairs it
finished, unrated, and fails. A player is a spec such as random, greedy,
alphabeta:depth=6, mcts:playouts=2000, perfect, strong, level:5, or
"gtp:PATH ARGS..." (one argument, quoted) for an external engine, which may
start with time limits:
"gtp:setup=10s genmove=30s PATH ARGS..." (the defaults). --movetime and
--playouts set the budget of search players whose spec sets none; --movetime
also limits an engine's genmove to twice the move time plus 5s.
--judge-openings solves the position after each game's opening (with the
tables of --table-dir, if given) and prints P1's wins, draws and losses by
the value the game started with for P1: won, drawn or lost. --judge-moves
solves the position before every move after the opening (each game's
history counted) and prints each player's value-losing moves: those that
lowered its margin under perfect play, a resignation of a position not
lost included; with --sgf-dir each judged move's verdict is a comment.
--judge-nodes bounds each of those solves (a history that has used a
position up can make one search long): a game is then judged to the ply
whose solve passed it, and the output says so.`

// matchLadderPlayers are the built-in players a ladder plays by default.
var matchLadderPlayers = []string{"random", "greedy", "alphabeta", "mcts", "perfect"}

func matchRun(e *env, args []string) int {
	fs := newFlagSet(e, "match", matchUsage)
	buildRules := rulesFlags(fs)
	games := fs.Int("games", 20, "games to play (per pair with --ladder)")
	movetime := fs.Duration("movetime", 0, "time per move of the search players whose spec sets no budget, such as 100ms (an external engine's genmove: twice it plus 5s)")
	playouts := fs.Int("playouts", 0, "playouts per move of mcts players whose spec sets no budget")
	openings := fs.String("openings", "random:2", "openings: random:N (N random plies, shared by each pair of games) or none")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	sgfDir := fs.String("sgf-dir", "", "write every game as SGF into this folder")
	seed := fs.Uint64("seed", 1, "seed of the openings and the players")
	workers := fs.Int("workers", 0, "games played at once (default: one per core)")
	ladder := fs.Bool("ladder", false, "play every player against every other and print an Elo table")
	judgeOpenings := fs.Bool("judge-openings", false, "solve each game's start (the position after the opening) and count P1's results by its value")
	judgeMoves := fs.Bool("judge-moves", false, "solve the position before every move after the opening and count each player's value-losing moves (in the SGF comments with --sgf-dir)")
	judgeTables := fs.String("table-dir", "", "with --judge-openings or --judge-moves: a directory of solver tables to answer from (default: none)")
	judgeMemory := fs.Int("memory", 1024, "with --judge-openings or --judge-moves: the solver's memory in MB")
	judgeNodes := fs.Int64("judge-nodes", 0, "with --judge-openings or --judge-moves: the most positions one solve may search (0: no limit); a game whose solve passes it is judged to that ply, and says so")
	ladderPlayers := fs.String("players", strings.Join(matchLadderPlayers, ","), "with --ladder: the players, comma-separated")
	pos, err := matchParse(fs, args)
	if err != nil {
		return flagStatus(e, fs, err)
	}
	r, err := buildRules()
	if err != nil {
		return fail(e, "match", err)
	}
	if *games < 1 {
		return fail(e, "match", fmt.Errorf("--games %d: play at least one game", *games))
	}
	if *movetime < 0 || *playouts < 0 {
		return fail(e, "match", errors.New("--movetime and --playouts must not be negative"))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	budget := func(spec string) string { return player.WithBudget(spec, *movetime, *playouts) }

	if *ladder {
		if len(pos) > 0 {
			return fail(e, "match", fmt.Errorf("--ladder takes its players from --players, not %q", strings.Join(pos, " ")))
		}
		return matchLadder(ctx, e, r, strings.Split(*ladderPlayers, ","), budget, arena.LadderConfig{
			Rules: r, Games: *games, Openings: *openings, Seed: *seed, Workers: *workers,
		}, *asJSON)
	}
	if len(pos) != 2 {
		fmt.Fprintln(e.stderr, matchUsage)
		return fail(e, "match", fmt.Errorf("two players are needed, got %d: %q", len(pos), pos))
	}
	cfg := arena.Config{
		Rules: r, Players: [2]string{budget(pos[0]), budget(pos[1])}, Games: *games,
		Openings: *openings, Seed: *seed, Workers: *workers, SGFDir: *sgfDir,
	}
	start := time.Now()
	if e.terminal {
		cfg.Progress = func(p arena.Progress) {
			fmt.Fprintf(e.stderr, "\r\033[K%d/%d games: P1 %d wins, %d draws, %d losses, %s",
				p.Done, p.Games, p.Wins[0], p.Draws, p.Wins[1], time.Since(start).Round(time.Second))
		}
	}
	res, err := arena.Match(ctx, cfg)
	if e.terminal {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	if err != nil {
		if res.Games > 0 {
			matchPrint(e.stderr, r, [2]string{pos[0], pos[1]}, res, *openings)
		}
		return fail(e, "match", err)
	}
	var judged *arena.Judgement
	var moves *arena.MoveJudgement
	if *judgeOpenings || *judgeMoves {
		if *judgeNodes < 0 {
			return fail(e, "match", fmt.Errorf("--judge-nodes %d: a number of positions, 0 (no limit) or more, is accepted", *judgeNodes))
		}
		opt := solve.Options{MemoryMB: *judgeMemory, MaxNodes: *judgeNodes}
		if *judgeTables != "" {
			tab, err := solve.LoadTable(*judgeTables, r)
			if err != nil {
				return fail(e, "match", fmt.Errorf("--table-dir: %w", err))
			}
			tab.Freeze()
			opt.Table = tab
		}
		if *judgeOpenings {
			j, err := arena.JudgeOpenings(ctx, r, res.Played, opt)
			if err != nil {
				return fail(e, "match", fmt.Errorf("judging the openings: %w", err))
			}
			judged = &j
		}
		if *judgeMoves {
			ts := &solve.Tables{MemoryMB: *judgeMemory}
			ts.Use(opt.Table)
			j, err := arena.JudgeMoves(ctx, r, res.Played, ts, solve.Options{MemoryMB: *judgeMemory, MaxNodes: *judgeNodes})
			if err != nil {
				return fail(e, "match", fmt.Errorf("judging the moves: %w", err))
			}
			moves = &j
			if *sgfDir != "" {
				for i := range res.Played {
					if err := arena.WriteSGF(*sgfDir, &res.Played[i], j.Comments[res.Played[i].Index]); err != nil {
						return fail(e, "match", err)
					}
				}
			}
		}
	}
	if *asJSON {
		fmt.Fprintln(e.stdout, matchJSON(r, [2]string{pos[0], pos[1]}, res, judged, moves))
		return 0
	}
	matchPrint(e.stdout, r, cfg.Players, res, *openings)
	if judged != nil {
		matchPrintStarts(e.stdout, cfg.Players[0], *judged)
	}
	if moves != nil {
		matchPrintMoves(e.stdout, r, cfg.Players, *moves)
	}
	return 0
}

// matchPrintStarts writes P1's results by the value of the games' starts.
func matchPrintStarts(w io.Writer, p1 string, j arena.Judgement) {
	fmt.Fprintf(w, "P1 %s by the start's value for it (solved after the opening):\n", p1)
	for _, s := range []arena.Start{arena.StartWon, arena.StartDrawn, arena.StartLost, arena.StartUnknown} {
		c := j.Results[s]
		if n := c.Wins + c.Draws + c.Losses; n > 0 || s != arena.StartUnknown {
			fmt.Fprintf(w, "  started %s: %d games, %d wins, %d draws, %d losses\n", s, n, c.Wins, c.Draws, c.Losses)
		}
	}
	for _, why := range j.Why {
		fmt.Fprintf(w, "  not judged: %s\n", why)
	}
}

// matchParse parses flags placed before, between and after the players.
func matchParse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// matchElo writes an Elo figure as a whole number, rounded toward zero.
func matchElo(x float64) int { return int(math.Trunc(x)) }

// matchJSON writes the result as the issue specifies, keys in that order.
func matchJSON(r rules.Rules, players [2]string, res arena.Result, judged *arena.Judgement, moves *arena.MoveJudgement) string {
	j := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	score := math.Round(res.Score*10000) / 10000
	out := fmt.Sprintf(`{"players": [%s, %s], "games": %d, "wins": [%d, %d], "draws": %d, "score": %s, "elo": %d, "elo_ci95": [%d, %d]`,
		j(players[0]), j(players[1]), res.Games, res.Wins[0], res.Wins[1], res.Draws, j(score),
		matchElo(res.Elo), matchElo(res.EloCI[0]), matchElo(res.EloCI[1]))
	if res.Reports[0].Moves > 0 || res.Reports[1].Moves > 0 {
		// How the players that report it made their moves (player.Report):
		// a count of moves by kind, {} for a player that gives none.
		out += fmt.Sprintf(`, "moves_by_kind": [%s, %s]`, j(kinds(res.Reports[0])), j(kinds(res.Reports[1])))
	}
	if judged != nil {
		// P1's wins, draws and losses by the value of the start for P1.
		starts := map[string][3]int{}
		for s, c := range judged.Results {
			starts[strings.ReplaceAll(arena.Start(s).String(), " ", "_")] = [3]int{c.Wins, c.Draws, c.Losses}
		}
		out += fmt.Sprintf(`, "p1_by_start": %s`, j(starts))
	}
	if moves != nil {
		// Each player's value-losing moves of those judged, and each
		// such move: Black's margin before and after, the best moves.
		type loss struct {
			Game    int      `json:"game"`
			Ply     int      `json:"ply"`
			Player  int      `json:"player"`
			Move    string   `json:"move"`
			Before  float64  `json:"before"`
			After   float64  `json:"after"`
			Best    []string `json:"best"`
			Changed bool     `json:"changed_outcome"`
		}
		list := []loss{}
		for _, l := range moves.Moves {
			best := []string{}
			for _, m := range l.Best {
				best = append(best, r.MoveText(m))
			}
			list = append(list, loss{l.Game + 1, l.Ply, l.P + 1, r.MoveText(l.Move), l.Before, l.After, best, l.Changed})
		}
		why := moves.Why
		if why == nil {
			why = []string{}
		}
		out += fmt.Sprintf(`, "judged_moves": %s, "value_losses": %s, "outcome_changes": %s, "value_loss_moves": %s, "not_judged": %s`,
			j(moves.Judged), j(moves.Losses), j(moves.Changed), j(list), j(why))
	}
	return out + "}"
}

// matchPrintMoves writes each player's value-losing moves.
func matchPrintMoves(w io.Writer, r rules.Rules, players [2]string, j arena.MoveJudgement) {
	fmt.Fprintln(w, "Moves judged by perfect play (after the openings):")
	for p := range 2 {
		fmt.Fprintf(w, "  P%d %s: %d value-losing of %d moves (%d changed the outcome)\n", p+1, players[p], j.Losses[p], j.Judged[p], j.Changed[p])
	}
	for _, l := range j.Moves {
		fmt.Fprintf(w, "  game %d, move %d, P%d played %s: Black's margin %s before, %s after (best: %s)\n",
			l.Game+1, l.Ply, l.P+1, r.MoveText(l.Move), arena.Margin(l.Before), arena.Margin(l.After), arena.MoveList(r, l.Best))
	}
	for _, why := range j.Why {
		fmt.Fprintf(w, "  not judged: %s\n", why)
	}
}

// kinds is a report's counts by kind, never nil (JSON {}).
func kinds(r player.Report) map[string]int {
	if r.Kinds == nil {
		return map[string]int{}
	}
	return r.Kinds
}

func matchPrint(w io.Writer, r rules.Rules, players [2]string, res arena.Result, openings string) {
	fmt.Fprintf(w, "%s against %s: %s, %d games, openings %s\n", players[0], players[1], r, res.Games, openings)
	fmt.Fprintf(w, "P1 %s: %d wins, %d draws, %d losses\n", players[0], res.Wins[0], res.Draws, res.Wins[1])
	fmt.Fprintf(w, "score %.3f (95%% CI %.3f to %.3f)\n", res.Score, res.ScoreCI[0], res.ScoreCI[1])
	fmt.Fprintf(w, "Elo %+d (95%% CI %+d to %+d)\n", matchElo(res.Elo), matchElo(res.EloCI[0]), matchElo(res.EloCI[1]))
	for k, rep := range res.Reports {
		if rep.Moves == 0 {
			continue
		}
		fmt.Fprintf(w, "P%d %s: %s\n", k+1, players[k], rep)
		if rep.Count(player.PerfectFallback) == 0 {
			continue
		}
		// The games it played without falling back, by result for it.
		var n, won, drawn, lost int
		for _, g := range res.Played {
			if g.Reports[k].Moves == 0 || g.Reports[k].Count(player.PerfectFallback) > 0 {
				continue
			}
			n++
			score := g.P1Score
			if k == 1 {
				score = 1 - score
			}
			switch score {
			case 1:
				won++
			case 0:
				lost++
			default:
				drawn++
			}
		}
		fmt.Fprintf(w, "P%d %s: %d of %d games without a fallback: %d wins, %d draws, %d losses\n", k+1, players[k], n, res.Games, won, drawn, lost)
	}
}

func matchLadder(ctx context.Context, e *env, r rules.Rules, names []string, budget func(string) string, cfg arena.LadderConfig, asJSON bool) int {
	for _, n := range names {
		if n = strings.TrimSpace(n); n != "" {
			cfg.Players = append(cfg.Players, budget(n))
		}
	}
	start := time.Now()
	if e.terminal {
		cfg.Progress = func(a, b int, p arena.Progress) {
			fmt.Fprintf(e.stderr, "\r\033[K%s against %s: %d/%d games, %s", cfg.Players[a], cfg.Players[b], p.Done, p.Games, time.Since(start).Round(time.Second))
		}
	}
	lad, err := arena.RunLadder(ctx, cfg)
	if e.terminal {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	if err != nil {
		// A ladder stopped before its end (an interrupt, a player's
		// failure) still prints the pairs it finished, which took their
		// time; it fits no ratings to a part of the field.
		if len(lad.Pairs) > 0 {
			if asJSON {
				matchLadderJSON(e, r, cfg, lad, err)
			} else {
				fmt.Fprintf(e.stdout, "Ladder stopped before its end: %d of %d pairs finished; no ratings\n", len(lad.Pairs), len(cfg.Players)*(len(cfg.Players)-1)/2)
				matchLadderPairs(e, lad)
			}
		}
		return fail(e, "match", err)
	}
	if asJSON {
		matchLadderJSON(e, r, cfg, lad, nil)
		return 0
	}
	fmt.Fprintf(e.stdout, "Ladder: %s, %d games per pair, openings %s; Elo relative to %s\n\n", r, cfg.Games, cfg.Openings, cfg.Players[0])
	fmt.Fprintln(e.stdout, "| rank | player | Elo | games | score |")
	fmt.Fprintln(e.stdout, "|---:|---|---:|---:|---:|")
	for i, rt := range lad.Ratings {
		fmt.Fprintf(e.stdout, "| %d | %s | %s | %d | %.3f |\n", i+1, rt.Player, strconv.Itoa(int(math.Round(rt.Elo))), rt.Games, rt.Score)
	}
	fmt.Fprintln(e.stdout)
	matchLadderPairs(e, lad)
	return 0
}

// matchLadderPairs prints the table of the ladder's finished pairs.
func matchLadderPairs(e *env, lad arena.Ladder) {
	fmt.Fprintln(e.stdout, "| P1 | P2 | P1 wins | draws | P2 wins | P1 score |")
	fmt.Fprintln(e.stdout, "|---|---|---:|---:|---:|---:|")
	for _, m := range lad.Pairs {
		fmt.Fprintf(e.stdout, "| %s | %s | %d | %d | %d | %.3f |\n", m.Players[0], m.Players[1], m.Wins[0], m.Draws, m.Wins[1], m.Score)
	}
}

// matchLadderJSON prints the ladder as one line of JSON: the ratings (none
// when the ladder stopped before its end, with the error as "stopped") and
// every finished pair.
func matchLadderJSON(e *env, r rules.Rules, cfg arena.LadderConfig, lad arena.Ladder, stopped error) {
	type row struct {
		Player string  `json:"player"`
		Elo    int     `json:"elo"`
		Games  int     `json:"games"`
		Score  float64 `json:"score"`
	}
	type pair struct {
		P1      string  `json:"p1"`
		P2      string  `json:"p2"`
		Games   int     `json:"games"`
		P1Wins  int     `json:"p1_wins"`
		Draws   int     `json:"draws"`
		P2Wins  int     `json:"p2_wins"`
		P1Score float64 `json:"p1_score"`
	}
	rows := []row{}
	for _, rt := range lad.Ratings {
		rows = append(rows, row{rt.Player, matchElo(math.Round(rt.Elo)), rt.Games, math.Round(rt.Score*10000) / 10000})
	}
	done := []pair{}
	for _, m := range lad.Pairs {
		done = append(done, pair{m.Players[0], m.Players[1], m.Games, m.Wins[0], m.Draws, m.Wins[1], math.Round(m.Score*10000) / 10000})
	}
	out := map[string]any{"rules": r.String(), "games_per_pair": cfg.Games, "ratings": rows, "pairs": done}
	if stopped != nil {
		out["stopped"] = stopped.Error()
	}
	b, _ := json.Marshal(out)
	fmt.Fprintln(e.stdout, string(b))
}
