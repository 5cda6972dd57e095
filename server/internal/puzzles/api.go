package puzzles

// The puzzles' and the lessons' API (docs/puzzles.md, "The play server"):
// a puzzle to solve, the verdict on the moves played so far, a
// player's puzzle history and own mistakes, and the lessons of package
// learn played through the kernel.

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"alak/learn"
	"alak/puzzle"
	"alak/rules"
	"alak/server/internal/httpx"
	"alak/server/internal/pages"
	"alak/server/internal/ratings"
	"alak/server/internal/ratings/update"
	"alak/server/store"
	"alak/wire"
)

// Bounds of the puzzles' requests.
const (
	// MaxAttemptMoves bounds an attempt's moves: a line has at most 32
	// of the player's moves (puzzle.Options.MaxMoves is at most 16 in the
	// command, 4 by default).
	MaxAttemptMoves = 32
	// MaxMoveText bounds one move's text ("12-15", "*11", "C3").
	MaxMoveText = 16
	// maxLessonTries bounds a lesson's tries (its moves and the refused
	// ones).
	maxLessonTries = 64
	// puzzlesOffered is how many of the puzzles nearest the player's
	// rating the next puzzle is drawn from.
	puzzlesOffered = 12
	// lessonTime bounds a lesson's answer (the perfect replies solve).
	lessonTime = 10 * time.Second
)

// limits are the puzzles' and the lessons' rate limits, by address:
// each call is cheap (an attempt replays a few moves, the next puzzle is
// one indexed query), so they are generous to a person and stop a script
// that walks the pool.
type limits struct {
	next, attempt, lesson *httpx.Limiters
}

func newLimits() limits {
	return limits{
		next:    httpx.NewLimiters(rate.Limit(60.0/60), 60),   // 60 puzzles a minute, after a burst of 60
		attempt: httpx.NewLimiters(rate.Limit(240.0/60), 120), // 240 moves a minute
		lesson:  httpx.NewLimiters(rate.Limit(240.0/60), 120),
	}
}

func boardShape(r rules.Rules) wire.BoardShape {
	return wire.BoardShape{Shape: pages.Shape(r), Width: r.Width, Height: r.Height}
}

func tryView(t store.PuzzleTry) wire.PuzzleTry {
	v := wire.PuzzleTry{Puzzle: t.PuzzleID, Rules: t.Rules, Themes: t.Themes, FirstCorrect: t.FirstCorrect, LastCorrect: t.LastCorrect,
		Tries: t.Tries, Rated: t.Rated, First: t.First.Format(time.RFC3339), Last: t.Last.Format(time.RFC3339)}
	if t.Rated {
		c := ratings.Round1(t.PlayerAfter - t.PlayerBefore)
		v.RatingChange = &c
	}
	if v.Themes == nil {
		v.Themes = []string{}
	}
	return v
}

// puzzleIDRE is what a puzzle's id is: puzzle.ID's 16 hex digits.
var puzzleIDRE = regexp.MustCompile(`^[0-9a-f]{16}$`)

var errNoPuzzle = httpx.Errf(wire.NotFound, "not_found", "no such puzzle: a puzzle's id is 16 hex digits, as GET /api/puzzles/next gives it")

// Load reads a stored puzzle and decodes it (puzzle.Decode checks
// that it holds together).
func (pz *Puzzles) Load(ctx context.Context, id string) (store.Puzzle, *puzzle.Puzzle, error) {
	if !puzzleIDRE.MatchString(id) {
		return store.Puzzle{}, nil, errNoPuzzle
	}
	sp, err := pz.cfg.Store.Puzzle(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return sp, nil, errNoPuzzle
	}
	if err != nil {
		return sp, nil, httpx.Unavailable(err)
	}
	p, err := puzzle.Decode(sp.Body)
	if err != nil {
		return sp, nil, fmt.Errorf("stored puzzle %s: %w", id, err)
	}
	return sp, p, nil
}

// puzzleView is the view of a stored puzzle.
func puzzleView(sp store.Puzzle, p *puzzle.Puzzle) (wire.Puzzle, error) {
	g, err := p.Game()
	if err != nil {
		return wire.Puzzle{}, err
	}
	c := p.Challenge()
	v := wire.Puzzle{ID: c.ID, Rules: c.Rules, Start: c.Start, Moves: c.Moves, Position: c.Position, ToMove: c.ToMove, Goal: c.Goal,
		Rating: ratings.Round1(sp.Rating.Rating), RD: ratings.Round1(sp.Rating.RD), Themes: c.Themes, Plays: sp.Plays, Solved: sp.Solved,
		Source: sp.Source, Game: sp.GameID, Board: boardShape(g.Rules()), Legal: legalTexts(g)}
	if v.Moves == nil {
		v.Moves = []string{}
	}
	if v.Themes == nil {
		v.Themes = []string{}
	}
	return v, nil
}

// legalTexts lists g's legal moves in the stored form.
func legalTexts(g *rules.Game) []string {
	r := g.Rules()
	out := []string{}
	for _, m := range g.LegalMoves(nil) {
		if m != rules.Resign {
			out = append(out, r.MoveText(m))
		}
	}
	return out
}

// handleNextPuzzle is GET /api/puzzles/next?pool=&theme=&rating=: a
// puzzle of the pool (a preset's name or a rules' text; every preset's
// when empty) with the theme, drawn from those nearest the rating asked
// for, else the signed-in player's puzzle rating (1500 for a guest),
// leaving out those the account has tried.
func (pz *Puzzles) handleNextPuzzle(w http.ResponseWriter, r *http.Request) {
	if wait, ok := pz.limits.next.Allow(httpx.ClientAddr(r), pz.cfg.Now()); !ok {
		pz.writeError(w, r, httpx.TooMany(wait, "too many puzzles asked for from this address: wait %s", httpx.WaitWords(wait)))
		return
	}
	q := r.URL.Query()
	pool, err := puzzlePool(q.Get("pool"))
	if err != nil {
		pz.writeError(w, r, err)
		return
	}
	theme := q.Get("theme")
	if theme != "" {
		if theme, err = puzzle.ParseTheme(theme); err != nil {
			pz.writeError(w, r, httpx.Errf(wire.BadRequest, "bad_theme", "%s", err.Error()))
			return
		}
	}
	query := store.PuzzleQuery{Pool: pool, Theme: theme, Rating: 1500, Limit: puzzlesOffered}
	a := httpx.Account(r)
	if a != nil {
		query.Account = a.ID
		if !a.Guest() {
			pr, err := pz.cfg.Store.PuzzleRating(r.Context(), a.ID)
			if err != nil {
				pz.writeError(w, r, httpx.Unavailable(err))
				return
			}
			query.Rating = update.At(pr, pz.cfg.Now()).Rating
		}
	}
	if text := q.Get("rating"); text != "" {
		n, err := strconv.Atoi(text)
		if err != nil || n < 400 || n > 3000 {
			pz.writeError(w, r, httpx.Errf(wire.BadRequest, "bad_rating", "rating %q: a whole number from 400 to 3000", clipQuery(text)))
			return
		}
		query.Rating = float64(n)
	}
	ps, err := pz.cfg.Store.Puzzles(r.Context(), query)
	if err != nil {
		pz.writeError(w, r, httpx.Unavailable(err))
		return
	}
	if len(ps) == 0 {
		what := "no puzzle"
		if pool != "" {
			what += " of " + pool
		}
		if theme != "" {
			what += " with the theme " + theme
		}
		if a != nil {
			what += " that you have not tried"
		}
		pz.writeError(w, r, httpx.Errf(wire.NotFound, "no_puzzles", "%s yet: puzzles are made from the finished games and, at the server's start, from its small lines", what))
		return
	}
	sp := ps[rand.IntN(len(ps))]
	p, err := puzzle.Decode(sp.Body)
	if err != nil {
		pz.writeError(w, r, fmt.Errorf("stored puzzle %s: %w", sp.ID, err))
		return
	}
	v, err := puzzleView(sp, p)
	if err != nil {
		pz.writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, http.StatusOK, v)
}

// dailyOffered is how many puzzles the puzzle of the day is drawn from.
const dailyOffered = 100

// handleDailyPuzzle is GET /api/puzzles/daily: the puzzle of the day
// (UTC), the same for everyone all day and on every process: of the
// dailyOffered puzzles of the presets' pools nearest 1500 that were stored
// before the day began, the one whose SHA-256 with the day's date is the
// least.
func (pz *Puzzles) handleDailyPuzzle(w http.ResponseWriter, r *http.Request) {
	if wait, ok := pz.limits.next.Allow(httpx.ClientAddr(r), pz.cfg.Now()); !ok {
		pz.writeError(w, r, httpx.TooMany(wait, "too many puzzles asked for from this address: wait %s", httpx.WaitWords(wait)))
		return
	}
	day := pz.cfg.Now().UTC().Truncate(24 * time.Hour)
	date := day.Format(time.DateOnly)
	ps, err := pz.cfg.Store.Puzzles(r.Context(), store.PuzzleQuery{Rating: 1500, Limit: dailyOffered, Before: day})
	if err != nil {
		pz.writeError(w, r, httpx.Unavailable(err))
		return
	}
	if len(ps) == 0 {
		pz.writeError(w, r, httpx.Errf(wire.NotFound, "no_puzzles", "no puzzle of the day yet: it is drawn from the puzzles stored before the day began (UTC)"))
		return
	}
	key := func(id string) string {
		sum := sha256.Sum256([]byte(date + " " + id))
		return string(sum[:])
	}
	best := ps[0]
	for _, p := range ps[1:] {
		if key(p.ID) < key(best.ID) {
			best = p
		}
	}
	p, err := puzzle.Decode(best.Body)
	if err != nil {
		pz.writeError(w, r, fmt.Errorf("stored puzzle %s: %w", best.ID, err))
		return
	}
	v, err := puzzleView(best, p)
	if err != nil {
		pz.writeError(w, r, err)
		return
	}
	v.Day = date
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, http.StatusOK, v)
}

// clipQuery shortens a query parameter for an error's sentence.
func clipQuery(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// puzzlePool checks a pool: "", a preset's name, or a rules' text (at
// most 200 bytes), returned as rules.Rules.String writes it.
func puzzlePool(text string) (string, error) {
	text = strings.TrimSpace(text)
	if text == "" || slices.Contains(rules.Presets(), text) {
		return text, nil
	}
	if len(text) <= 200 {
		if r, err := rules.Parse(text); err == nil {
			return r.String(), nil
		}
	}
	return "", httpx.Errf(wire.BadRequest, "bad_pool", "pool %q: a preset's name (%s), a rules' text such as \"alak size=9\", or nothing for every preset",
		clipQuery(text), strings.Join(rules.Presets(), ", "))
}

// handlePuzzle is GET /api/puzzles/{id}: a puzzle as a link opens it, with
// the signed-in account's earlier attempts.
func (pz *Puzzles) handlePuzzle(w http.ResponseWriter, r *http.Request) {
	sp, p, err := pz.Load(r.Context(), r.PathValue("id"))
	if err != nil {
		pz.writeError(w, r, err)
		return
	}
	v, err := puzzleView(sp, p)
	if err != nil {
		pz.writeError(w, r, err)
		return
	}
	if a := httpx.Account(r); a != nil {
		tries, err := pz.cfg.Store.PuzzleTries(r.Context(), a.ID, false, 200)
		if err != nil {
			pz.writeError(w, r, httpx.Unavailable(err))
			return
		}
		for _, t := range tries {
			if t.PuzzleID == sp.ID {
				tv := tryView(t)
				v.Tried = &tv
			}
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, http.StatusOK, v)
}

// handleAttempt is POST /api/puzzles/{id}/attempt {"moves": [...]}: the
// page sends the player's moves so far, as they are played; each is
// judged (puzzle.Check) and answered with the reply while the line goes
// on. A wrong move, or the line's last, ends the attempt: then the
// signed-in account's attempt is recorded, and its first at the puzzle,
// for a named account, moves its puzzle rating and the puzzle's, once.
func (pz *Puzzles) handleAttempt(w http.ResponseWriter, r *http.Request) {
	if wait, ok := pz.limits.attempt.Allow(httpx.ClientAddr(r), pz.cfg.Now()); !ok {
		pz.writeError(w, r, httpx.TooMany(wait, "too many moves sent from this address: wait %s", httpx.WaitWords(wait)))
		return
	}
	var req wire.AttemptRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		pz.writeError(w, r, err)
		return
	}
	if len(req.Moves) == 0 || len(req.Moves) > MaxAttemptMoves {
		pz.writeError(w, r, httpx.Errf(wire.BadRequest, "bad_moves", "moves: the player's moves so far, 1 to %d of them (the opponent's replies left out)", MaxAttemptMoves))
		return
	}
	for i, m := range req.Moves {
		if m == "" || len(m) > MaxMoveText {
			pz.writeError(w, r, httpx.Errf(wire.BadRequest, "bad_moves", "move %d: a move of 1 to %d characters (3, c, 1-4, pass)", i+1, MaxMoveText))
			return
		}
	}
	sp, p, err := pz.Load(r.Context(), r.PathValue("id"))
	if err != nil {
		pz.writeError(w, r, err)
		return
	}
	att, err := puzzle.Check(p, req.Moves)
	switch {
	case errors.Is(err, puzzle.ErrAttempt):
		pz.writeError(w, r, httpx.Errf(wire.BadInput, "bad_attempt", "%s", strings.TrimPrefix(err.Error(), puzzle.ErrAttempt.Error()+": ")))
		return
	case err != nil && !errors.Is(err, puzzle.ErrInvalid):
		pz.writeError(w, r, err) // a move the rules refuse: 422 with the kernel's reason
		return
	case err != nil:
		pz.writeError(w, r, fmt.Errorf("stored puzzle %s: %w", sp.ID, err))
		return
	}
	v := wire.Attempt{Correct: att.Correct, Done: att.Done, Answers: att.Answers}
	g, err := p.Game()
	if err != nil {
		pz.writeError(w, r, err)
		return
	}
	var played []string
	for _, a := range att.Answers {
		played = append(played, a.Move)
		if a.Reply != "" {
			played = append(played, a.Reply)
		}
	}
	if v.Steps, err = replaySteps(g, played); err != nil {
		pz.writeError(w, r, err)
		return
	}
	if !att.Done {
		v.Legal = legalTexts(g)
		httpx.WriteJSON(w, http.StatusOK, v)
		return
	}
	v.Solution, v.Themes = att.Solution, p.Themes
	sg, err := p.Game()
	if err == nil {
		v.SolutionSteps, err = replaySteps(sg, att.Solution)
	}
	if err != nil {
		pz.writeError(w, r, err)
		return
	}
	if err := pz.recordAttempt(r, &v, sp); err != nil {
		pz.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, v)
}

// recordAttempt records an ended attempt of the signed-in account and
// fills in what it did to the ratings.
func (pz *Puzzles) recordAttempt(r *http.Request, v *wire.Attempt, sp store.Puzzle) error {
	a := httpx.Account(r)
	switch {
	case a == nil:
		v.Unrated = "not signed in: the attempt is not recorded"
		return nil
	case a.Guest():
		v.Unrated = "guests play unrated: sign up to have a puzzle rating"
	case a.Bot:
		v.Unrated = "bot accounts play puzzles unrated"
	}
	res, err := pz.cfg.Store.RecordAttempt(r.Context(), store.PuzzleAttempt{AccountID: a.ID, PuzzleID: sp.ID, Correct: v.Correct,
		Rated: v.Unrated == "", At: pz.cfg.Now()})
	if err != nil {
		return httpx.Unavailable(err)
	}
	switch {
	case res.Rated:
		v.Counted = true
		rating, change := ratings.Round1(res.PlayerAfter.Rating), ratings.Round1(res.PlayerAfter.Rating-res.PlayerBefore.Rating)
		pr, pc := ratings.Round1(res.PuzzleAfter.Rating), ratings.Round1(res.PuzzleAfter.Rating-res.PuzzleBefore.Rating)
		v.Rating, v.RatingChange, v.PuzzleRating, v.PuzzleRatingChange = &rating, &change, &pr, &pc
	case !res.First && v.Unrated == "":
		v.Unrated = "only your first attempt at a puzzle counts for the ratings"
	}
	return nil
}

// replaySteps plays moves (stored form) on g and returns each with the
// board after it.
func replaySteps(g *rules.Game, moves []string) ([]wire.PuzzleStep, error) {
	r := g.Rules()
	out := []wire.PuzzleStep{}
	for _, text := range moves {
		m, err := r.ParseMoveText(text)
		if err != nil {
			return out, err
		}
		by := g.Position().ToMove().Letter()
		if err := g.Play(m); err != nil {
			return out, err
		}
		pos := g.Position()
		out = append(out, wire.PuzzleStep{Move: text, By: by, Position: pos.String(), ToMove: pos.ToMove().Letter()})
	}
	return out, nil
}

// handleMyPuzzles is GET /api/me/puzzles[?game=ID]: the signed-in
// account's puzzle rating, its last attempts (history), the puzzles it
// last missed (review), and its personal puzzles, the positions of its
// finished games where its move changed the outcome (of one game with
// game=).
func (pz *Puzzles) handleMyPuzzles(w http.ResponseWriter, r *http.Request) {
	a, err := httpx.RequireAccount(r)
	if err != nil {
		pz.writeError(w, r, err)
		return
	}
	game := r.URL.Query().Get("game")
	if len(game) > 64 {
		pz.writeError(w, r, httpx.Errf(wire.BadRequest, "bad_game", "game: a game's id"))
		return
	}
	ctx := r.Context()
	pr, err := pz.cfg.Store.PuzzleRating(ctx, a.ID)
	if err != nil {
		pz.writeError(w, r, httpx.Unavailable(err))
		return
	}
	now := update.At(pr, pz.cfg.Now())
	v := wire.MyPuzzles{Rating: wire.PuzzleRating{Rating: ratings.Round1(now.Rating), RD: ratings.Round1(now.RD), Attempts: pr.Games, Provisional: now.Provisional()},
		History: []wire.PuzzleTry{}, Review: []wire.PuzzleTry{}, Mistakes: []wire.PersonalPuzzle{}}
	tries, err := pz.cfg.Store.PuzzleTries(ctx, a.ID, false, 50)
	if err == nil {
		var missed []store.PuzzleTry
		if missed, err = pz.cfg.Store.PuzzleTries(ctx, a.ID, true, 50); err == nil {
			for _, t := range tries {
				v.History = append(v.History, tryView(t))
			}
			for _, t := range missed {
				v.Review = append(v.Review, tryView(t))
			}
		}
	}
	var mine []store.PersonalPuzzle
	if err == nil {
		mine, err = pz.cfg.Store.PersonalPuzzles(ctx, a.ID, game, 50)
	}
	if err != nil {
		pz.writeError(w, r, httpx.Unavailable(err))
		return
	}
	for _, m := range mine {
		pv := wire.PersonalPuzzle{Puzzle: m.PuzzleID, Game: m.GameID, Ply: m.Ply, Played: m.Played, Rules: m.Puzzle.Rules, Themes: m.Puzzle.Themes}
		if pv.Themes == nil {
			pv.Themes = []string{}
		}
		if m.Tries > 0 {
			tv := tryView(m.PuzzleTry)
			pv.Tried = &tv
		}
		v.Mistakes = append(v.Mistakes, pv)
	}
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, http.StatusOK, v)
}

// lessonViews are every lesson's view, made once.
var lessonViews = func() []wire.Lesson {
	var out []wire.Lesson
	for _, l := range learn.Lessons() {
		g, err := l.Game()
		if err != nil {
			panic(fmt.Sprintf("lesson %s: %v", l.ID, err))
		}
		pos := g.Position()
		out = append(out, wire.Lesson{ID: l.ID, Title: l.Title, Rules: l.Rules, Text: l.Text, Refs: l.Refs, Goal: l.Goal.Text,
			MaxMoves: l.MaxMoves, Hints: l.Hints, Board: boardShape(g.Rules()), Position: pos.String(), ToMove: pos.ToMove().Letter(),
			Legal: legalTexts(g), Preset: g.Rules().Preset})
	}
	return out
}()

// handleLessons is GET /api/lessons: every lesson.
func (pz *Puzzles) handleLessons(w http.ResponseWriter, r *http.Request) {
	httpx.WriteJSON(w, http.StatusOK, lessonViews)
}

// handleLessonTry is POST /api/lessons/{id}/try {"tries": [...]}: the
// page sends every try so far; the kernel plays them on the lesson's
// board, the computer answers, and the goal is checked.
func (pz *Puzzles) handleLessonTry(w http.ResponseWriter, r *http.Request) {
	if wait, ok := pz.limits.lesson.Allow(httpx.ClientAddr(r), pz.cfg.Now()); !ok {
		pz.writeError(w, r, httpx.TooMany(wait, "too many tries sent from this address: wait %s", httpx.WaitWords(wait)))
		return
	}
	l, ok := learn.ByID(r.PathValue("id"))
	if !ok {
		pz.writeError(w, r, httpx.Errf(wire.NotFound, "not_found", "no such lesson: GET /api/lessons lists them"))
		return
	}
	var req wire.LessonTryRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		pz.writeError(w, r, err)
		return
	}
	if len(req.Tries) > maxLessonTries {
		pz.writeError(w, r, httpx.Errf(wire.BadRequest, "bad_tries", "tries: the moves tried so far, at most %d", maxLessonTries))
		return
	}
	for i, m := range req.Tries {
		if m == "" || len(m) > MaxMoveText {
			pz.writeError(w, r, httpx.Errf(wire.BadRequest, "bad_tries", "try %d: a move of 1 to %d characters (3, c, 1-4, pass)", i+1, MaxMoveText))
			return
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), lessonTime)
	defer cancel()
	pr, err := learn.Play(ctx, &l, req.Tries, pz.cfg.Solver)
	if errors.Is(err, learn.ErrTry) {
		pz.writeError(w, r, httpx.Errf(wire.BadInput, "bad_try", "%s", strings.TrimPrefix(err.Error(), learn.ErrTry.Error()+": ")))
		return
	}
	if err != nil {
		pz.writeError(w, r, err)
		return
	}
	v := wire.LessonProgress{Progress: pr}
	if pr.Done && !pr.Success {
		v.Solution = l.Solution
	}
	if !pr.Done {
		// The board's legal moves, for the page's targets: the lesson's
		// game replayed with the tries the rules took and the replies.
		g, err := l.Game()
		if err == nil {
			var moves []string
			for _, t := range pr.Tries {
				if t.Refused == "" {
					moves = append(moves, t.Move)
					if t.Reply != "" {
						moves = append(moves, t.Reply)
					}
				}
			}
			_, err = replaySteps(g, moves)
		}
		if err != nil {
			pz.writeError(w, r, err)
			return
		}
		v.Legal = legalTexts(g)
	}
	httpx.WriteJSON(w, http.StatusOK, v)
}
