package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"alak/rules"
	"alak/solve"
)

func matchSession(t *testing.T, terminal bool, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, terminal: terminal}
	code = run(e, append([]string{"match"}, args...))
	return out.String(), errb.String(), code
}

// matchJSONShape is the form the issue gives for --json, keys in order:
// {"players": ["mcts", "greedy"], "games": 20, "wins": [17, 1], "draws": 2,
// "score": 0.9, "elo": 381, "elo_ci95": [250, 600]}.
var matchJSONShape = regexp.MustCompile(`^\{"players": \["[^"]+", "[^"]+"\], "games": \d+, "wins": \[\d+, \d+\], "draws": \d+, "score": [0-9.]+, "elo": -?\d+, "elo_ci95": \[-?\d+, -?\d+\]\}\n$`)

func TestMatchJSON(t *testing.T) {
	// Flags before, between and after the players.
	out, stderr, code := matchSession(t, false, "--size", "7", "greedy", "--games", "6", "random", "--json", "--seed", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !matchJSONShape.MatchString(out) {
		t.Fatalf("output %q does not have the issue's form", out)
	}
	var v struct {
		Players []string
		Games   int
		Wins    []int
		Draws   int
		Score   float64
		Elo     int
		EloCI   []int `json:"elo_ci95"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.Players[0] != "greedy" || v.Players[1] != "random" || v.Games != 6 || v.Wins[0]+v.Wins[1]+v.Draws != 6 {
		t.Fatalf("%+v", v)
	}
	// The score and Elo follow from the counts: points per game, and
	// 400·log10(s/(1−s)) rounded toward zero (±1000 at a score of 0 or 1).
	s := (float64(v.Wins[0]) + float64(v.Draws)/2) / 6
	if math.Abs(v.Score-s) > 1e-4 {
		t.Errorf("score %v, the counts give %v", v.Score, s)
	}
	elo := 1000
	switch {
	case s == 0:
		elo = -1000
	case s < 1:
		elo = int(math.Trunc(400 * math.Log10(s/(1-s))))
	}
	if v.Elo != elo || v.EloCI[0] > v.Elo || v.EloCI[1] < v.Elo {
		t.Errorf("Elo %d with interval %v; the score gives %d", v.Elo, v.EloCI, elo)
	}
	// The same seed plays the same match.
	again, _, _ := matchSession(t, false, "--size", "7", "greedy", "--games", "6", "random", "--json", "--seed", "3")
	if again != out {
		t.Errorf("seed 3 printed %q, then %q", out, again)
	}
}

func TestMatchText(t *testing.T) {
	dir := t.TempDir()
	out, stderr, code := matchSession(t, true, "mcts", "random", "--playouts", "50", "--games", "4", "--size", "6", "--sgf-dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"mcts:playouts=50 against random", "4 games", "P1 mcts:playouts=50:", "score ", "95% CI", "Elo "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// On a terminal the progress line is rewritten on standard error.
	if !strings.Contains(stderr, "\r\033[K4/4 games") {
		t.Errorf("no progress line on a terminal: %q", stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.sgf"))
	if len(files) != 4 {
		t.Errorf("%d SGF files in %s, want 4", len(files), dir)
	}
	data, err := os.ReadFile(filepath.Join(dir, "game-001.sgf"))
	if err != nil || !bytes.Contains(data, []byte("SZ[6:1]")) || !bytes.Contains(data, []byte("PB[mcts:playouts=50]")) {
		t.Errorf("game-001.sgf: %v\n%s", err, data)
	}
	// Not on a terminal: no progress line.
	_, stderr, _ = matchSession(t, false, "random", "random", "--games", "2", "--size", "5")
	if stderr != "" {
		t.Errorf("progress written off a terminal: %q", stderr)
	}
}

func TestMatchLadder(t *testing.T) {
	out, stderr, code := matchSession(t, false, "--ladder", "--players", "random,greedy,alphabeta:depth=2", "--games", "4", "--size", "7")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"| rank | player | Elo | games | score |", "| random | greedy |", "| greedy | alphabeta:depth=2 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("ladder output lacks %q:\n%s", want, out)
		}
	}
	// The anchor, random, is at Elo 0.
	if !regexp.MustCompile(`\| \d \| random \| 0 \| 8 \|`).MatchString(out) {
		t.Errorf("random is not the anchor at 0 with 8 games:\n%s", out)
	}
}

// TestMatchLadderJSON: --json gives the ratings and every pair, each pair's
// games adding up, in the order the ladder plays them.
func TestMatchLadderJSON(t *testing.T) {
	out, stderr, code := matchSession(t, false, "--ladder", "--players", "random,greedy,alphabeta:depth=2", "--games", "4", "--size", "7", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v struct {
		Ratings []struct {
			Player string
			Games  int
		}
		Pairs []struct {
			P1      string  `json:"p1"`
			P2      string  `json:"p2"`
			Games   int     `json:"games"`
			P1Wins  int     `json:"p1_wins"`
			Draws   int     `json:"draws"`
			P2Wins  int     `json:"p2_wins"`
			P1Score float64 `json:"p1_score"`
		}
		Stopped *string
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(v.Ratings) != 3 || v.Stopped != nil {
		t.Errorf("ratings %+v, stopped %v; want three players and no stop", v.Ratings, v.Stopped)
	}
	want := [][2]string{{"random", "greedy"}, {"random", "alphabeta:depth=2"}, {"greedy", "alphabeta:depth=2"}}
	if len(v.Pairs) != len(want) {
		t.Fatalf("%d pairs, want %d: %s", len(v.Pairs), len(want), out)
	}
	for i, p := range v.Pairs {
		score := (float64(p.P1Wins) + float64(p.Draws)/2) / float64(p.Games)
		if p.P1 != want[i][0] || p.P2 != want[i][1] || p.Games != 4 || p.P1Wins+p.Draws+p.P2Wins != 4 || math.Abs(p.P1Score-score) > 1e-4 {
			t.Errorf("pair %d: %+v; want %s against %s, 4 games that add up, score %.4f", i, p, want[i][0], want[i][1], score)
		}
	}
}

// TestMatchLadderStopped: a ladder that stops before its end (here a
// player that cannot start) prints the pairs it finished, and fails.
func TestMatchLadderStopped(t *testing.T) {
	missing := "gtp:" + filepath.Join(t.TempDir(), "no-such-engine")
	out, stderr, code := matchSession(t, false, "--ladder", "--players", "random,greedy,"+missing, "--games", "2", "--size", "5")
	if code == 0 || stderr == "" {
		t.Fatalf("exit %d, stderr %q: want a failure that says why", code, stderr)
	}
	for _, w := range []string{"Ladder stopped before its end: 1 of 3 pairs finished; no ratings", "| random | greedy |"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "| rank |") {
		t.Errorf("ratings printed for a part of the field:\n%s", out)
	}
	out, _, code = matchSession(t, false, "--ladder", "--players", "random,greedy,"+missing, "--games", "2", "--size", "5", "--json")
	var v struct {
		Ratings []any
		Pairs   []struct{ P1, P2 string }
		Stopped string
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || code == 0 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	if len(v.Ratings) != 0 || len(v.Pairs) != 1 || v.Pairs[0].P1 != "random" || v.Pairs[0].P2 != "greedy" || v.Stopped == "" {
		t.Errorf("--json of the stopped ladder: %+v", v)
	}
}

// TestMatchGTPPlayer enters an external engine: this test binary itself,
// which runs alak's GTP engine when ALAK_MATCH_TEST_GTP is set (see
// TestMatchGTPHelper).
func TestMatchGTPPlayer(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ALAK_MATCH_TEST_GTP", "1")
	t.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0")) // no second's pause at each engine's exit under -race
	out, stderr, code := matchSession(t, false, "gtp:"+exe+" -test.run=^TestMatchGTPHelper$", "random", "--games", "2", "--size", "7", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !matchJSONShape.MatchString(out) || !strings.Contains(out, `"games": 2`) {
		t.Errorf("output %q", out)
	}
}

// TestMatchGTPHelper is the engine of TestMatchGTPPlayer: alak gtp with
// the greedy player on standard input and output.
func TestMatchGTPHelper(t *testing.T) {
	if os.Getenv("ALAK_MATCH_TEST_GTP") == "" {
		t.Skip("the engine of TestMatchGTPPlayer, run only by it")
	}
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	os.Exit(run(e, []string{"gtp", "--player", "greedy"}))
}

// TestMatchGTPSilent enters an engine that never answers: the match ends
// with the error of its first command, protocol_version, at the set-up
// limit its spec sets, and the engine is stopped.
func TestMatchGTPSilent(t *testing.T) {
	t.Parallel() // waits for an engine that never answers
	if _, err := os.Stat("/bin/sleep"); err != nil {
		t.Skip("no /bin/sleep to stand for a silent engine")
	}
	_, stderr, code := matchSession(t, false, "gtp:setup=300ms /bin/sleep 100", "random", "--games", "1")
	want := "gtp:setup=300ms /bin/sleep 100 did not answer protocol_version within 300ms"
	if code != 2 || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr %q; want 2 and %q", code, stderr, want)
	}
}

func TestMatchErrors(t *testing.T) {
	for _, args := range [][]string{
		{"random"},
		{"random", "nobody"},
		{"random", "random", "--games", "0"},
		{"random", "random", "--openings", "book"},
		{"random", "random", "--rules", "chess"},
		{"--ladder", "random", "greedy"},
		{"random", "random", "--movetime", "-1s"},
	} {
		if _, stderr, code := matchSession(t, false, args...); code != 2 || !strings.Contains(stderr, "alak match") {
			t.Errorf("match %q: exit %d, stderr %q; want 2 and a message", args, code, stderr)
		}
	}
	if _, _, code := matchSession(t, false, "-h"); code != 0 {
		t.Errorf("match -h: exit %d", code)
	}
}

// TestMatchReportsFallback checks that the match output says how the
// perfect player made its moves: on 30 points its solve cannot finish in
// 24 ms (80% of 30 ms), so it falls back to alpha-beta, and says so in the
// text and in the JSON; on 6 points every move is exact.
func TestMatchReportsFallback(t *testing.T) {
	t.Parallel() // seconds of the processor (here or in the alak binary): they overlap the other tests' waits
	out, stderr, code := computeSession(t, "match", "perfect:time=30ms", "random", "--games", "2", "--size", "30", "--openings", "none")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !regexp.MustCompile(`(?m)^P1 perfect:time=30ms: \d+ moves: .*\d+ alpha-beta fallback: out of time`).MatchString(out) {
		t.Errorf("the fallback is not reported:\n%s", out)
	}
	// Every move of both games fell back (30 points cannot be solved in
	// 24 ms), so no game was played without a fallback.
	if !strings.Contains(out, "P1 perfect:time=30ms: 0 of 2 games without a fallback: 0 wins, 0 draws, 0 losses") {
		t.Errorf("the games without a fallback are not counted:\n%s", out)
	}
	out, stderr, code = matchSession(t, false, "random", "perfect", "--games", "2", "--size", "6", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v struct {
		Kinds []map[string]int `json:"moves_by_kind"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(v.Kinds) != 2 || len(v.Kinds[0]) != 0 || len(v.Kinds[1]) != 1 || v.Kinds[1]["exact"] == 0 {
		t.Errorf("moves_by_kind %v, want [{} {exact: N}]: %s", v.Kinds, out)
	}
}

// TestMatchJudgeOpenings: --judge-openings counts P1's results by the
// value of each game's start. Alak on 5 points is won by Black
// (docs/results.md), so with no opening perfect starts won in the games it
// plays as Black and lost in the others; the JSON form's counts add up to
// the games and to P1's wins, draws and losses.
func TestMatchJudgeOpenings(t *testing.T) {
	out, stderr, code := matchSession(t, false, "perfect", "random", "--size", "5", "--games", "4", "--openings", "none", "--judge-openings")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"started won: 2 games, 2 wins, 0 draws, 0 losses", "started drawn: 0 games", "started lost: 2 games"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, stderr, code = matchSession(t, false, "perfect", "greedy", "--size", "7", "--games", "6", "--openings", "random:3", "--judge-openings", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v struct {
		Games   int
		Wins    []int
		Draws   int
		ByStart map[string][3]int `json:"p1_by_start"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var sum [3]int
	for _, c := range v.ByStart {
		for i := range c {
			sum[i] += c[i]
		}
	}
	if len(v.ByStart) != 4 || sum != [3]int{v.Wins[0], v.Draws, v.Wins[1]} || sum[0]+sum[1]+sum[2] != v.Games {
		t.Errorf("p1_by_start %v: sums %v; want P1's %d wins, %d draws, %d losses of %d games", v.ByStart, sum, v.Wins[0], v.Draws, v.Wins[1], v.Games)
	}
	// A damaged table file is refused, not trusted.
	dir := t.TempDir()
	r, err := rules.Parse("alak size=5")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, solve.FileName(r)), []byte("not a table"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := matchSession(t, false, "perfect", "random", "--size", "5", "--games", "2", "--judge-openings", "--table-dir", dir); code == 0 || !strings.Contains(stderr, "--table-dir") {
		t.Errorf("a damaged table file: exit %d, %q; want an error naming --table-dir", code, stderr)
	}
}

// TestMatchJudgeMoves: --judge-moves prints each player's value-losing
// moves, perfect's none (its moves are the solved line's best), and the
// JSON form gives them as value_losses with each move listed; with
// --sgf-dir every judged move carries its verdict as a comment, and the
// listed losses are the comments that say so.
func TestMatchJudgeMoves(t *testing.T) {
	t.Parallel() // seconds of the processor, files of its own: they overlap the other tests' waits
	dir := t.TempDir()
	out, stderr, code := matchSession(t, false, "perfect", "random", "--size", "7", "--games", "4", "--judge-moves", "--json", "--sgf-dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v struct {
		Judged [2]int `json:"judged_moves"`
		Losses [2]int `json:"value_losses"`
		Moves  []struct {
			Game, Ply, Player int
			Move              string
			Before, After     float64
		} `json:"value_loss_moves"`
		Why []string `json:"not_judged"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if v.Judged[0] == 0 || v.Judged[1] == 0 || v.Losses[0] != 0 || v.Losses[0]+v.Losses[1] != len(v.Moves) || len(v.Why) != 0 {
		t.Errorf("judged %v, losses %v, %d moves listed, not judged %v", v.Judged, v.Losses, len(v.Moves), v.Why)
	}
	comments := 0
	for g := 1; g <= 4; g++ {
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("game-%03d.sgf", g)))
		if err != nil {
			t.Fatal(err)
		}
		comments += strings.Count(string(data), "judged: a value loss by P2")
		if strings.Contains(string(data), "a value loss by P1") {
			t.Errorf("game %d: a loss by perfect in the SGF", g)
		}
	}
	if comments != v.Losses[1] {
		t.Errorf("%d losses in the SGF comments, %d listed", comments, v.Losses[1])
	}
	out, _, code = matchSession(t, false, "perfect", "random", "--size", "7", "--games", "2", "--judge-moves")
	if code != 0 || !strings.Contains(out, "Moves judged by perfect play (after the openings):") || !strings.Contains(out, "P1 perfect: 0 value-losing of ") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	// A node budget too small for any solve on 14 points (a line too long
	// for the small lines' tables): every game is judged to ply 0 and
	// says why; a negative budget is refused.
	out, stderr, code = matchSession(t, false, "random", "random", "--size", "14", "--games", "2", "--judge-moves", "--judge-nodes", "1000", "--json")
	v.Why = nil
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil || len(v.Why) != 2 || !strings.Contains(v.Why[0], "node limit") {
		t.Errorf("--judge-nodes 1: exit %d, %v, not judged %q; %s", code, err, v.Why, stderr)
	}
	if _, stderr, code = matchSession(t, false, "perfect", "random", "--size", "7", "--judge-moves", "--judge-nodes", "-1"); code == 0 || !strings.Contains(stderr, "0 (no limit) or more") {
		t.Errorf("--judge-nodes -1: exit %d, %s", code, stderr)
	}
}
