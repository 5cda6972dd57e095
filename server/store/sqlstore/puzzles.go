package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"alak/glicko2"
	"alak/server/internal/ratings/update"
	"alak/server/store"
)

// The statements of an attempt, run in one transaction (RecordAttempt).
var (
	qPuzzleRating = `SELECT rating, rd, volatility FROM puzzles WHERE id = ?`
	// qFirstTry inserts the account's row for the puzzle; no row is
	// inserted when it has one: the attempt is not the first.
	qFirstTry = `INSERT INTO puzzle_attempts (account_id, puzzle_id, first_correct, last_correct, tries, first_ms, last_ms)
		VALUES (?, ?, ?, ?, 1, ?, ?) ON CONFLICT (account_id, puzzle_id) DO NOTHING`
	qTryAgain   = `UPDATE puzzle_attempts SET tries = tries + 1, last_correct = ?, last_ms = ? WHERE account_id = ? AND puzzle_id = ?`
	qTryRated   = `UPDATE puzzle_attempts SET rated = 1, before_rating = ?, before_rd = ?, rating = ?, rd = ?, puzzle_before = ?, puzzle_after = ? WHERE account_id = ? AND puzzle_id = ?`
	qPuzzlePlay = `UPDATE puzzles SET plays = plays + 1, solved = solved + ?, rating = ?, rd = ?, volatility = ? WHERE id = ?`
	// qNewPlayerPuzzleRating makes the account's rating row if it has
	// none, so that it can be locked.
	qNewPlayerPuzzleRating = `INSERT INTO puzzle_ratings (account_id, rating, rd, volatility, attempts, last_ms) VALUES (?, ?, ?, ?, 0, 0)
		ON CONFLICT (account_id) DO NOTHING`
	qPlayerPuzzleRating    = `SELECT rating, rd, volatility, attempts, last_ms FROM puzzle_ratings WHERE account_id = ?`
	qSetPlayerPuzzleRating = `UPDATE puzzle_ratings SET rating = ?, rd = ?, volatility = ?, attempts = attempts + 1, last_ms = ? WHERE account_id = ?`
	qInsertPuzzle          = `INSERT INTO puzzles (id, rules, preset, body, themes, source, game_id, rating, rd, volatility, created_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`
	qInsertOwner = `INSERT INTO puzzle_owners (account_id, puzzle_id, game_id, ply, played, created_ms) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (account_id, puzzle_id) DO NOTHING`
)

func init() {
	txQueries = append(txQueries, qPuzzleRating, qFirstTry, qTryAgain, qTryRated, qPuzzlePlay,
		qNewPlayerPuzzleRating, qPlayerPuzzleRating, qSetPlayerPuzzleRating, qInsertPuzzle, qInsertOwner)
}

// themesText is the themes between spaces, as the themes column holds
// them (" win capture "), so that LIKE '% capture %' finds one.
func themesText(themes []string) string {
	return " " + strings.Join(themes, " ") + " "
}

func themesOf(text string) []string {
	return strings.Fields(text)
}

// AddPuzzle stores a puzzle unless its id is stored.
func (s *Store) AddPuzzle(ctx context.Context, p store.Puzzle) (bool, error) {
	if p.ID == "" || len(p.ID) > 64 || len(p.Body) == 0 || len(p.Body) > store.MaxPuzzleBytes {
		return false, fmt.Errorf("puzzle %q: an id of 1 to 64 bytes and a body of 1 to %d bytes", p.ID, store.MaxPuzzleBytes)
	}
	for _, th := range p.Themes {
		if th == "" || strings.ContainsAny(th, " \t\n") {
			return false, fmt.Errorf("puzzle %s: theme %q is not one word", p.ID, th)
		}
	}
	if p.Rating == (glicko2.Rating{}) {
		p.Rating = glicko2.Default()
	}
	added := false
	err := s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		added = false
		res, err := s.exec(ctx, tx, qInsertPuzzle, p.ID, p.Rules, p.Preset, string(p.Body), themesText(p.Themes), p.Source, p.GameID,
			p.Rating.Rating, p.Rating.RD, p.Rating.Volatility, ms(p.Created))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		added = n == 1
		return err
	})
	return added, err
}

const puzzleCols = `p.id, p.rules, p.preset, p.body, p.themes, p.source, p.game_id, p.rating, p.rd, p.volatility, p.plays, p.solved, p.created_ms`

func scanPuzzle(row scanner, extra ...any) (store.Puzzle, error) {
	var p store.Puzzle
	var body, themes string
	var created int64
	dest := append([]any{&p.ID, &p.Rules, &p.Preset, &body, &themes, &p.Source, &p.GameID,
		&p.Rating.Rating, &p.Rating.RD, &p.Rating.Volatility, &p.Plays, &p.Solved, &created}, extra...)
	if err := row.Scan(dest...); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return p, store.ErrNotFound
		}
		return p, err
	}
	p.Body, p.Themes, p.Created = []byte(body), themesOf(themes), fromMS(created)
	return p, nil
}

// Puzzle returns a puzzle.
func (s *Store) Puzzle(ctx context.Context, id string) (store.Puzzle, error) {
	return scanPuzzle(s.row(ctx, nil, `SELECT `+puzzleCols+` FROM puzzles p WHERE p.id = ?`, id))
}

// poolWhere selects a pool's puzzles, its four arguments the pool: a
// preset's name or a rules' text, or "" for every preset's puzzles (not
// those of other rules, whose preset is "").
const poolWhere = `((CAST(? AS TEXT) = '' AND p.preset <> '') OR (CAST(? AS TEXT) <> '' AND (p.preset = ? OR p.rules = ?)))`

// Puzzles returns the puzzles of q's pool and theme nearest q.Rating that
// q.Account has not tried.
func (s *Store) Puzzles(ctx context.Context, q store.PuzzleQuery) ([]store.Puzzle, error) {
	if q.Limit <= 0 || q.Limit > 100 {
		q.Limit = 100
	}
	theme := ""
	switch {
	case q.Theme == "end-in": // any end-in-N
		theme = "% end-in-%"
	case q.Theme != "":
		theme = "% " + q.Theme + " %"
	}
	rows, err := s.query(ctx, `SELECT `+puzzleCols+` FROM puzzles p
		WHERE `+poolWhere+` AND (CAST(? AS TEXT) = '' OR p.themes LIKE ?)
		AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.account_id = ? AND a.puzzle_id = p.id)
		AND (CAST(? AS BIGINT) = 0 OR p.created_ms < ?)
		ORDER BY ABS(p.rating - ?), p.id LIMIT ?`,
		q.Pool, q.Pool, q.Pool, q.Pool, theme, theme, q.Account, ms(q.Before), ms(q.Before), q.Rating, q.Limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Puzzle
	for rows.Next() {
		p, err := scanPuzzle(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// CountPuzzles counts a pool's puzzles.
func (s *Store) CountPuzzles(ctx context.Context, pool string) (int, error) {
	var n int
	err := s.row(ctx, nil, `SELECT COUNT(*) FROM puzzles p WHERE `+poolWhere, pool, pool, pool, pool).Scan(&n)
	return n, err
}

// AddPersonalPuzzle marks a puzzle as an account's own mistake.
func (s *Store) AddPersonalPuzzle(ctx context.Context, p store.PersonalPuzzle) error {
	return s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		_, err := s.exec(ctx, tx, qInsertOwner, p.AccountID, p.PuzzleID, p.GameID, p.Ply, p.Played, ms(p.Created))
		return err
	})
}

const tryCols = `COALESCE(a.first_correct, 0), COALESCE(a.last_correct, 0), COALESCE(a.tries, 0), COALESCE(a.rated, 0),
	COALESCE(a.before_rating, 0), COALESCE(a.rating, 0), COALESCE(a.first_ms, 0), COALESCE(a.last_ms, 0)`

// tryDest returns the scan targets of tryCols into t, and a function that
// sets t's fields from them once scanned.
func tryDest(t *store.PuzzleTry) ([]any, func()) {
	var first, last, rated int
	var firstMS, lastMS int64
	dest := []any{&first, &last, &t.Tries, &rated, &t.PlayerBefore, &t.PlayerAfter, &firstMS, &lastMS}
	return dest, func() {
		t.FirstCorrect, t.LastCorrect, t.Rated = first != 0, last != 0, rated != 0
		t.First, t.Last = fromMS(firstMS), fromMS(lastMS)
	}
}

// PersonalPuzzles lists an account's personal puzzles with its attempts.
func (s *Store) PersonalPuzzles(ctx context.Context, account int64, gameID string, limit int) ([]store.PersonalPuzzle, error) {
	if limit <= 0 || limit > 200 {
		limit = 200
	}
	rows, err := s.query(ctx, `SELECT o.game_id, o.ply, o.played, o.created_ms, `+puzzleCols+`, `+tryCols+`
		FROM puzzle_owners o JOIN puzzles p ON p.id = o.puzzle_id
		LEFT JOIN puzzle_attempts a ON a.account_id = o.account_id AND a.puzzle_id = o.puzzle_id
		WHERE o.account_id = ? AND (CAST(? AS TEXT) = '' OR o.game_id = ?)
		ORDER BY o.created_ms DESC, o.game_id, o.ply LIMIT ?`, account, gameID, gameID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.PersonalPuzzle
	for rows.Next() {
		pp := store.PersonalPuzzle{AccountID: account}
		var created int64
		td, set := tryDest(&pp.PuzzleTry)
		p, err := scanPuzzle(scanFunc(func(dest ...any) error {
			return rows.Scan(append([]any{&pp.GameID, &pp.Ply, &pp.Played, &created}, dest...)...)
		}), td...)
		if err != nil {
			return nil, err
		}
		set()
		pp.Created, pp.Puzzle, pp.PuzzleID = fromMS(created), p, p.ID
		pp.PuzzleTry.PuzzleID, pp.Rules, pp.Themes = p.ID, p.Rules, p.Themes
		out = append(out, pp)
	}
	return out, rows.Err()
}

// scanFunc is a scanner made of a function.
type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }

// PuzzleTries lists an account's attempts, the latest first.
func (s *Store) PuzzleTries(ctx context.Context, account int64, onlyMissed bool, limit int) ([]store.PuzzleTry, error) {
	if limit <= 0 || limit > 200 {
		limit = 200
	}
	rows, err := s.query(ctx, `SELECT p.id, p.rules, p.themes, `+tryCols+`
		FROM puzzle_attempts a JOIN puzzles p ON p.id = a.puzzle_id
		WHERE a.account_id = ? AND (CAST(? AS INTEGER) = 0 OR a.last_correct = 0)
		ORDER BY a.last_ms DESC, p.id LIMIT ?`, account, b2i(onlyMissed), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.PuzzleTry
	for rows.Next() {
		var t store.PuzzleTry
		var themes string
		td, set := tryDest(&t)
		if err := rows.Scan(append([]any{&t.PuzzleID, &t.Rules, &themes}, td...)...); err != nil {
			return nil, err
		}
		set()
		t.Themes = themesOf(themes)
		out = append(out, t)
	}
	return out, rows.Err()
}

// PuzzleRating returns the account's puzzle rating.
func (s *Store) PuzzleRating(ctx context.Context, account int64) (store.Rating, error) {
	r := store.NewRating(account, store.PuzzlePool)
	var last int64
	err := s.row(ctx, nil, qPlayerPuzzleRating, account).Scan(&r.Rating, &r.RD, &r.Volatility, &r.Games, &last)
	if errors.Is(err, sql.ErrNoRows) {
		return r, nil
	}
	r.Last = fromMS(last)
	return r, err
}

// RecordAttempt records an ended attempt; the account's first attempt at
// the puzzle moves the ratings once (store.puzzleStore). On PostgreSQL the
// account's rating row and then the puzzle's row are locked, always in
// that order, so that attempts at once wait for each other. The puzzle's
// row is locked FOR NO KEY UPDATE, not FOR UPDATE: every attempt's row
// refers to it, and the foreign key's check holds a key-share lock on it
// until the attempt's transaction ends, which FOR UPDATE would wait for
// (two attempts at one puzzle, each waiting for the other's key-share
// lock: the deadlock storetest's PuzzleAttemptsAtOnce met). SQLite has one
// writer at a time.
func (s *Store) RecordAttempt(ctx context.Context, a store.PuzzleAttempt) (store.PuzzleResult, error) {
	var out store.PuzzleResult
	lockPlayer, lockPuzzle := qPlayerPuzzleRating, qPuzzleRating
	if s.d.Name == "postgres" {
		lockPlayer += " FOR UPDATE"
		lockPuzzle += " FOR NO KEY UPDATE"
	}
	score := glicko2.Loss
	if a.Correct {
		score = glicko2.Win
	}
	at := ms(a.At)
	err := s.write(ctx, true, func(ctx context.Context, tx *sql.Tx) error {
		out = store.PuzzleResult{}
		var pz glicko2.Rating
		if err := s.row(ctx, tx, qPuzzleRating, a.PuzzleID).Scan(&pz.Rating, &pz.RD, &pz.Volatility); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("puzzle %s: %w", a.PuzzleID, store.ErrNotFound)
			}
			return err
		}
		res, err := s.exec(ctx, tx, qFirstTry, a.AccountID, a.PuzzleID, b2i(a.Correct), b2i(a.Correct), at, at)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			_, err := s.exec(ctx, tx, qTryAgain, b2i(a.Correct), at, a.AccountID, a.PuzzleID)
			return err
		}
		out.First = true
		if !a.Rated {
			_, err := s.exec(ctx, tx, qPuzzlePlay, b2i(a.Correct), pz.Rating, pz.RD, pz.Volatility, a.PuzzleID)
			return err
		}
		def := glicko2.Default()
		if _, err := s.exec(ctx, tx, qNewPlayerPuzzleRating, a.AccountID, def.Rating, def.RD, def.Volatility); err != nil {
			return err
		}
		pr := store.NewRating(a.AccountID, store.PuzzlePool)
		var last int64
		if err := s.row(ctx, tx, lockPlayer, a.AccountID).Scan(&pr.Rating, &pr.RD, &pr.Volatility, &pr.Games, &last); err != nil {
			return fmt.Errorf("puzzle rating of account %d: %w", a.AccountID, err)
		}
		pr.Last = fromMS(last)
		// The puzzle's rating again, under its lock: another attempt may
		// have moved it since the first read.
		if err := s.row(ctx, tx, lockPuzzle, a.PuzzleID).Scan(&pz.Rating, &pz.RD, &pz.Volatility); err != nil {
			return err
		}
		before := update.At(pr, a.At)
		out.Rated, out.PlayerBefore, out.PuzzleBefore = true, before, pz
		out.PlayerAfter = before.Update([]glicko2.Result{{Opponent: pz, Score: score}}, glicko2.Tau)
		out.PuzzleAfter = pz.Update([]glicko2.Result{{Opponent: before, Score: 1 - score}}, glicko2.Tau)
		pa, qa := out.PlayerAfter, out.PuzzleAfter
		if _, err := s.exec(ctx, tx, qSetPlayerPuzzleRating, pa.Rating, pa.RD, pa.Volatility, at, a.AccountID); err != nil {
			return err
		}
		if _, err := s.exec(ctx, tx, qPuzzlePlay, b2i(a.Correct), qa.Rating, qa.RD, qa.Volatility, a.PuzzleID); err != nil {
			return err
		}
		_, err = s.exec(ctx, tx, qTryRated, before.Rating, before.RD, pa.Rating, pa.RD, pz.Rating, qa.Rating, a.AccountID, a.PuzzleID)
		return err
	})
	if err != nil {
		return store.PuzzleResult{}, err
	}
	return out, nil
}
