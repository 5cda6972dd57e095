package server

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"alak/learn"
	"alak/puzzle"
	"alak/rules"
	"alak/server/internal/puzzles"
	"alak/server/internal/ratings"
	"alak/server/store"
	"alak/session"
	"alak/solve"
	"alak/wire"
)

// testPuzzles are puzzles of alak on 7 points, found once a test run by
// the library's self-play source (seeded: the same every run) with the
// search.
var testPuzzles struct {
	once sync.Once
	ps   []*puzzle.Puzzle
	err  error
}

func puzzlesForTests(t testing.TB) []*puzzle.Puzzle {
	t.Helper()
	testPuzzles.once.Do(func() {
		r, err := rules.Parse("alak size=7")
		if err != nil {
			testPuzzles.err = err
			return
		}
		rng := rand.New(rand.NewPCG(7, 47))
		testPuzzles.ps, _, testPuzzles.err = puzzle.FromSelfPlay(context.Background(), &solve.Tables{}, r, rng,
			puzzle.SelfPlayOptions{Games: 20, Count: 6})
	})
	if testPuzzles.err != nil || len(testPuzzles.ps) < 4 {
		t.Fatalf("the test puzzles: %d, %v", len(testPuzzles.ps), testPuzzles.err)
	}
	return testPuzzles.ps
}

// storeTestPuzzles stores the test puzzles through the server's own path
// (checked by the second method, then stored).
func storeTestPuzzles(t *testing.T, h *harness) []*puzzle.Puzzle {
	t.Helper()
	ps := puzzlesForTests(t)
	for _, p := range ps {
		if added, err := h.srv.puzzles.Add(context.Background(), p, ""); err != nil || !added {
			t.Fatalf("storing puzzle %s: %v, %v", p.ID, added, err)
		}
	}
	return ps
}

// playerMoves are the puzzle's line's moves of its player.
func playerMoves(p *puzzle.Puzzle) []string {
	var out []string
	for i, s := range p.Line {
		if i%2 == 0 {
			out = append(out, s.Move)
		}
	}
	return out
}

// wrongMove is a legal move at the puzzle's position that changes the
// outcome (the values the puzzle holds, which Verify checked).
func wrongMove(p *puzzle.Puzzle) string {
	for _, v := range p.Line[0].Values {
		mine := v.Value
		if p.ToMove == "o" {
			mine = -mine
		}
		if p.Goal == puzzle.GoalWin && solve.Sign(mine) <= 0 || p.Goal == puzzle.GoalDraw && solve.Sign(mine) < 0 {
			return v.Move
		}
	}
	return ""
}

// occupied is a point of the puzzle's board that holds a stone.
func occupied(p *puzzle.Puzzle) string {
	for i, c := range strings.ToLower(p.Position) {
		if c == 'x' || c == 'o' {
			return string(rune('1' + i))
		}
	}
	return ""
}

func attempt(c *client, id string, moves []string) (int, wire.Attempt, errBody) {
	c.h.t.Helper()
	var raw json.RawMessage
	code := c.do("POST", "/api/puzzles/"+id+"/attempt", map[string]any{"moves": moves}, &raw)
	var v wire.Attempt
	var e errBody
	if code == http.StatusOK {
		json.Unmarshal(raw, &v)
	} else {
		json.Unmarshal(raw, &e)
	}
	return code, v, e
}

// TestPuzzleAPI: a puzzle is served without its answers; each move is
// answered as it is played, with the reply; the solved attempt and the
// missed one move the player's puzzle rating and the puzzle's once (the
// first attempt only), a guest's none; bad input is refused with the
// reason.
func TestPuzzleAPI(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ps := storeTestPuzzles(t, h)
	anon := h.client()

	// Never the answers before solving.
	resp, body := anon.roundTrip("GET", "/api/puzzles/next?pool=alak", nil, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("next: %d %s", resp.StatusCode, body)
	}
	for _, key := range []string{`"line":`, `"accepted":`, `"solution":`, `"values":`} {
		if strings.Contains(string(body), key) {
			t.Errorf("next shows %s: %s", key, body)
		}
	}
	var first wire.Puzzle
	json.Unmarshal(body, &first)
	if first.ID == "" || first.Rules != "alak size=7" || first.Board.Shape != "line" || first.Board.Width != 7 || len(first.Legal) == 0 || first.Plays != 0 {
		t.Errorf("next: %+v", first)
	}
	for path, code := range map[string]string{
		"/api/puzzles/next?pool=chess":        "bad_pool",
		"/api/puzzles/next?theme=fork":        "bad_theme",
		"/api/puzzles/next?rating=9000":       "bad_rating",
		"/api/puzzles/next?pool=golf":         "no_puzzles",
		"/api/puzzles/0123456789abcdef":       "not_found",
		"/api/puzzles/XYZ":                    "not_found",
		"/api/puzzles/next?pool=tromp-taylor": "no_puzzles",
	} {
		var e errBody
		anon.do("GET", path, nil, &e)
		if e.Code != code {
			t.Errorf("GET %s: %+v, want %s", path, e, code)
		}
	}

	ada := h.client().signUp("ada")
	solved, missed := ps[0], ps[1]
	// Solved, one move at a time, as the page sends them.
	mine := playerMoves(solved)
	var v wire.Attempt
	for i := range mine {
		var code int
		var e errBody
		code, v, e = attempt(ada, solved.ID, mine[:i+1])
		if code != http.StatusOK {
			t.Fatalf("move %d of %v: %d %+v", i+1, mine, code, e)
		}
		last := v.Answers[len(v.Answers)-1]
		if !last.Correct || last.Why == "" {
			t.Errorf("move %d: %+v", i+1, last)
		}
		if i < len(mine)-1 {
			if v.Done || last.Reply != solved.Line[2*i+1].Move || len(v.Legal) == 0 || v.Counted || len(v.Steps) != 2*(i+1) {
				t.Errorf("move %d of %d: %+v, want the reply %s and no end", i+1, len(mine), v, solved.Line[2*i+1].Move)
			}
		}
	}
	if !v.Done || !v.Correct || !v.Counted || v.RatingChange == nil || *v.RatingChange <= 0 || v.PuzzleRatingChange == nil ||
		*v.PuzzleRatingChange >= 0 || len(v.SolutionSteps) != len(solved.Line) || len(v.Themes) == 0 {
		t.Fatalf("the solved attempt: %+v", v)
	}
	_, again, _ := attempt(ada, solved.ID, mine)
	if !again.Done || again.Counted || !strings.Contains(again.Unrated, "first attempt") {
		t.Errorf("a second attempt: %+v", again)
	}

	// Missed: a move that changes the outcome ends the attempt, with the
	// values before and after it.
	wrong := wrongMove(missed)
	code, m, e := attempt(ada, missed.ID, []string{wrong})
	if code != http.StatusOK || !m.Done || m.Correct || !m.Counted || *m.RatingChange >= 0 || *m.PuzzleRatingChange <= 0 ||
		m.Answers[0].Before != missed.Value || m.Answers[0].After == m.Answers[0].Before || m.Answers[0].Why == "" || len(m.Solution) == 0 {
		t.Errorf("the missed attempt with %s: %d %+v %+v", wrong, code, m, e)
	}
	if code, _, e := attempt(ada, missed.ID, []string{wrong, mine[0]}); code != http.StatusUnprocessableEntity || e.Code != "bad_attempt" {
		t.Errorf("a move after the end: %d %+v", code, e)
	}
	for _, p := range ps {
		if occ := occupied(p); occ != "" {
			if _, _, e := attempt(ada, p.ID, []string{occ}); e.Code != "illegal_move" || !strings.Contains(e.Error, "occupied") {
				t.Errorf("a stone on the stone at %s of %s: %+v", occ, p.Position, e)
			}
			break
		}
	}
	for _, c := range []struct {
		moves []string
		code  string
	}{
		{[]string{"zz"}, "bad_attempt"},
		{[]string{}, "bad_moves"},
		{make([]string, puzzles.MaxAttemptMoves+1), "bad_moves"},
		{[]string{strings.Repeat("1", puzzles.MaxMoveText+1)}, "bad_moves"},
	} {
		if _, _, e := attempt(ada, missed.ID, c.moves); e.Code != c.code {
			t.Errorf("attempt %q: %+v, want %s", c.moves, e, c.code)
		}
	}

	var my wire.MyPuzzles
	if code := ada.do("GET", "/api/me/puzzles", nil, &my); code != http.StatusOK {
		t.Fatalf("me/puzzles: %d", code)
	}
	if my.Rating.Attempts != 2 || len(my.History) != 2 || len(my.Review) != 1 || my.Review[0].Puzzle != missed.ID {
		t.Errorf("me/puzzles: %+v", my)
	}
	// The player's rating is one update after another: the solved
	// puzzle's change, then the missed one's.
	if want := 1500 + *v.RatingChange + *m.RatingChange; abs(my.Rating.Rating-ratings.Round1(want)) > 0.15 {
		t.Errorf("the puzzle rating %v, want %v", my.Rating.Rating, want)
	}
	var sp wire.Puzzle
	ada.do("GET", "/api/puzzles/"+solved.ID, nil, &sp)
	if sp.Plays != 1 || sp.Solved != 1 || sp.Tried == nil || sp.Tried.Tries != 2 || !sp.Tried.FirstCorrect {
		t.Errorf("the solved puzzle after two attempts: %+v %+v", sp, sp.Tried)
	}
	// ada is offered neither again.
	for range 5 {
		var nv wire.Puzzle
		ada.do("GET", "/api/puzzles/next", nil, &nv)
		if nv.ID == solved.ID || nv.ID == missed.ID {
			t.Errorf("ada is offered puzzle %s again", nv.ID)
		}
	}

	// Someone not signed in plays unrated, and nothing is recorded.
	_, gv, _ := attempt(anon, solved.ID, mine)
	if !gv.Done || gv.Counted || gv.Unrated == "" {
		t.Errorf("an attempt without an account: %+v", gv)
	}
	if code := anon.do("GET", "/api/me/puzzles", nil, nil); code != http.StatusUnauthorized {
		t.Errorf("me/puzzles without an account: %d", code)
	}
	if p, _ := h.st.Puzzle(context.Background(), solved.ID); p.Plays != 1 {
		t.Errorf("the solved puzzle's plays after a guest's: %d", p.Plays)
	}

	// The puzzle of the day: none from puzzles stored the same day; the
	// next day one of them, the same at every ask.
	var e0 errBody
	if anon.do("GET", "/api/puzzles/daily", nil, &e0); e0.Code != "no_puzzles" {
		t.Errorf("the puzzle of the day of the day the puzzles were stored: %+v", e0)
	}
	h.clock.Add(24 * time.Hour)
	var d1, d2 wire.Puzzle
	anon.do("GET", "/api/puzzles/daily", nil, &d1)
	ada.do("GET", "/api/puzzles/daily", nil, &d2)
	if d1.ID == "" || d1.ID != d2.ID || d1.Day != "2026-11-25" {
		t.Errorf("the puzzle of the day: %s (%s), then %s", d1.ID, d1.Day, d2.ID)
	}

	// Two first attempts of one account at once: one counts.
	bo := h.client().signUp("bo")
	var wg sync.WaitGroup
	counted := make(chan bool, 4)
	for range 4 {
		wg.Go(func() {
			_, v, _ := attempt(bo, ps[2].ID, playerMoves(ps[2]))
			counted <- v.Counted
		})
	}
	wg.Wait()
	close(counted)
	n := 0
	for c := range counted {
		if c {
			n++
		}
	}
	if r, _ := h.st.PuzzleRating(context.Background(), mustAccount(t, h, "bo")); n != 1 || r.Games != 1 {
		t.Errorf("four attempts at once: %d counted, %d rated games; want 1", n, r.Games)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func mustAccount(t *testing.T, h *harness, name string) int64 {
	t.Helper()
	a, err := h.st.AccountByName(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return a.ID
}

// TestPuzzlesFromGames: a finished game's analysis makes puzzles of the
// moves that changed the outcome, and each player's own mistakes are
// listed as theirs (GET /api/me/puzzles?game=), each puzzle checked again
// as it is stored.
func TestPuzzlesFromGames(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "days:3", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", map[string]string{}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	players := []*client{ada, bo}
	for i, m := range seedAlak6 {
		if code, _, e := players[i%2].move(g.ID, m, i); code != http.StatusOK {
			t.Fatalf("move %d: %d %+v", i+1, code, e)
		}
	}
	// The analysis, asked for as the game page does, then its puzzles.
	var plies []session.PlyView
	deadline := time.Now().Add(30 * time.Second)
	for {
		var av wire.Analysis
		if code := ada.do("GET", "/api/games/"+g.ID+"/analysis", nil, &av); code == http.StatusOK {
			plies = av.Moves
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no analysis within 30 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	changed := map[string]int{}
	for _, p := range plies {
		if p.ChangedOutcome {
			changed[p.Player]++
		}
	}
	if changed["x"]+changed["o"] == 0 {
		t.Fatalf("the game changed the outcome nowhere: %+v", plies)
	}
	mistakes := func(c *client) []wire.PersonalPuzzle {
		var my wire.MyPuzzles
		c.do("GET", "/api/me/puzzles?game="+g.ID, nil, &my)
		return my.Mistakes
	}
	deadline = time.Now().Add(60 * time.Second)
	for h.srv.puzzles.GamesDone() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the game's puzzles are not made within 60 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	for who, c := range map[string]*client{"x": ada, "o": bo} {
		ms := mistakes(c)
		if len(ms) > changed[who] {
			t.Errorf("%s has %d personal puzzles, more than the %d moves of theirs that changed the outcome", who, len(ms), changed[who])
		}
		for _, m := range ms {
			sp, p, err := h.srv.puzzles.Load(context.Background(), m.Puzzle)
			if err != nil || sp.GameID != g.ID || p.ToMove != who || !p.Source.Mistake || p.Source.Played != seedAlak6[m.Ply] {
				t.Errorf("%s's personal puzzle %+v: %+v %v", who, m, p, err)
			}
		}
	}
	if n := len(mistakes(ada)) + len(mistakes(bo)); n == 0 {
		t.Errorf("no personal puzzle from a game with %d moves that changed the outcome", changed["x"]+changed["o"])
	}
	if n, _ := h.st.CountPuzzles(context.Background(), "alak"); n == 0 {
		t.Error("the game's puzzles are not in the alak pool")
	}
}

// TestPuzzleSeed: a server with no puzzles makes a first set at start,
// in the background, each checked by the second method: from the dense
// table's states (alak) and by self-play (tromp-taylor, whose self-play
// games all start from the empty line: the seed once stored one puzzle
// there, finding the empty line's again and again).
func TestPuzzleSeed(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{PuzzleSeed: 3, puzzleSeedRules: []string{"alak size=7", "tromp-taylor size=6"}})
	deadline := time.Now().Add(60 * time.Second)
	for pool, source := range map[string]string{"alak": puzzle.SourceTable, "tromp-taylor": puzzle.SourceSelfPlay} {
		for {
			n, err := h.st.CountPuzzles(context.Background(), pool)
			if err == nil && n >= 3 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d puzzles of %s after 60 s, want 3: %v", n, pool, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
		checkSeeded(t, h, pool, source)
	}
}

func checkSeeded(t *testing.T, h *harness, pool, source string) {
	ps, err := h.st.Puzzles(context.Background(), store.PuzzleQuery{Pool: pool, Rating: 1500, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range ps {
		p, err := puzzle.Decode(sp.Body)
		if err != nil || p.Source.Kind != source || sp.Preset != pool {
			t.Errorf("a first puzzle: %+v %v", sp, err)
			continue
		}
		if _, err := puzzle.Verify(context.Background(), p, puzzle.VerifyOptions{}); err != nil {
			t.Errorf("puzzle %s: %v", p.ID, err)
		}
	}
}

// TestLessonsAPI: every lesson is served and played through the API with
// its solution; the wrong input is refused.
func TestLessonsAPI(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	c := h.client()
	var ls []wire.Lesson
	if code := c.do("GET", "/api/lessons", nil, &ls); code != http.StatusOK || len(ls) != len(learn.Lessons()) {
		t.Fatalf("lessons: %d, %d of %d", code, len(ls), len(learn.Lessons()))
	}
	for _, l := range learn.Lessons() {
		var v wire.LessonProgress
		if code := c.do("POST", "/api/lessons/"+l.ID+"/try", map[string]any{"tries": l.Solution}, &v); code != http.StatusOK || !v.Done || !v.Success {
			t.Errorf("lesson %s with its solution %v: %d %+v", l.ID, l.Solution, code, v)
		}
	}
	var v wire.LessonProgress
	if code := c.do("POST", "/api/lessons/place/try", map[string]any{"tries": []string{}}, &v); code != http.StatusOK || v.Done || len(v.Legal) == 0 {
		t.Errorf("no try yet: %d %+v", code, v)
	}
	// The rules page links each preset to its lessons; the home page
	// offers them to a newcomer.
	for path, want := range map[string][]string{"/rules": {`href="/learn#no-suicide"`, `href="/learn#slide"`, `href="/learn#alterigo"`}, "/": {`<p class="newcomer">New to Alak? <a href="/learn">`}} {
		_, body := c.roundTrip("GET", path, nil, nil)
		for _, w := range want {
			if !strings.Contains(string(body), w) {
				t.Errorf("%s has no link %s", path, w)
			}
		}
	}
	for path, want := range map[string]string{"/api/lessons/nope/try": "not_found", "/api/lessons/place/try": "bad_try"} {
		var e errBody
		c.do("POST", path, map[string]any{"tries": []string{"qq"}}, &e)
		if e.Code != want {
			t.Errorf("POST %s: %+v, want %s", path, e, want)
		}
	}
}

// TestPuzzlesFromUnviewedGames: a game between two people that nobody
// looks at after its end is analysed in the background all the same, and
// its outcome-changing moves become its players' puzzles; a second game
// ending within the background's period of the first (raised to an hour
// here, so that the test does not hang on the machine's speed) is left
// for a request. Before, only a game whose analysis was asked for gave
// puzzles.
func TestPuzzlesFromUnviewedGames(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	h.srv.analysis.Games.SetPeriod(time.Hour)
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	play := func() string { return playSeedAlak6(t, ada, bo) }
	first, second := play(), play()
	deadline := time.Now().Add(60 * time.Second)
	for h.srv.puzzles.GamesDone() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no game's puzzles made within 60 s of its end, no analysis asked for")
		}
		time.Sleep(50 * time.Millisecond)
	}
	mistakes := 0
	for _, c := range []*client{ada, bo} {
		var my wire.MyPuzzles
		c.do("GET", "/api/me/puzzles?game="+first, nil, &my)
		mistakes += len(my.Mistakes)
	}
	if mistakes == 0 {
		t.Errorf("the first game, analysed in the background, gave its players no puzzle")
	}
	if _, err := h.srv.store.Analysis(context.Background(), second); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the second game, ended within the background's period: analysis %v, want none stored", err)
	}
}

// TestBackgroundWorkRests: the work nobody waits for, a finished game's
// puzzles and the analysis of a game nobody asked about, rests after each
// game for a multiple of the time it took, so that it keeps to its share
// of a core and a busy server's moves keep the rest. Here the rests are
// raised to a billion times the work (years): after the first game's
// analysis and puzzles, a second game is not analysed unasked, and a
// second analysed game queued for its puzzles waits. Before, the analyses
// came at most one a second (the period, 0 here) and the puzzles one game
// after another, together half a core of a server under load
// (docs/load-tail.md).
func TestBackgroundWorkRests(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	// Set under the analyses' lock, which the game's end takes before its
	// analysis is queued: the workers read them after.
	h.srv.analysis.Games.SetPeriod(0)
	h.srv.analysis.Games.SetIdle(1e9)
	h.srv.puzzles.SetGameIdle(1e9)
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	play := func() string { return playSeedAlak6(t, ada, bo) }
	play()
	deadline := time.Now().Add(60 * time.Second)
	for h.srv.puzzles.GamesDone() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no game's puzzles made within 60 s of its end")
		}
		time.Sleep(20 * time.Millisecond)
	}
	second := play()
	// The second game's end came after the first's analysis: without the
	// rest it would be analysed at once (a few milliseconds on 6 points).
	g, err := h.srv.loadAnalysisGame(context.Background(), second)
	if err != nil {
		t.Fatal(err)
	}
	plies, err := h.srv.tables.Analyze(context.Background(), g.Game, solve.Options{MaxNodes: 50_000_000})
	if err != nil {
		t.Fatal(err)
	}
	h.srv.puzzles.GameAnalysed(g.Row, g.Rules, g.Game, plies)
	time.Sleep(time.Second)
	if _, err := h.srv.store.Analysis(context.Background(), second); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the second game, ended during the rest after the first's analysis: analysis %v, want none stored", err)
	}
	if n := h.srv.puzzles.GamesDone(); n != 1 {
		t.Errorf("%d games' puzzles made a second after the second was queued, during the rest after the first's: want 1", n)
	}
}

// playSeedAlak6 plays seedAlak6 between ada (Black, the creator) and bo
// in a correspondence game on 6 points, and returns the game's id.
func playSeedAlak6(t *testing.T, ada, bo *client) string {
	t.Helper()
	g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "days:3", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", map[string]string{}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	for i, m := range seedAlak6 {
		if code, _, e := []*client{ada, bo}[i%2].move(g.ID, m, i); code != http.StatusOK {
			t.Fatalf("move %d: %d %+v", i+1, code, e)
		}
	}
	return g.ID
}
