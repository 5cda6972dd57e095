package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"alak/glicko2"
	"alak/server/internal/ratings/update"
	"alak/server/store"
)

// The statements of a game's rating update, run in the transaction of the
// Update that finishes the game.
var (
	qRatedAlready = `SELECT COUNT(*) FROM rating_history WHERE game_id = ?`
	// qNewRating makes a player's rating row if it has none, so that the
	// row can be locked (two games ending at once for a new player must
	// not both insert it).
	qNewRating = `INSERT INTO ratings (account_id, pool, rating, rd, volatility, games, last_ms) VALUES (?, ?, ?, ?, ?, 0, 0)
		ON CONFLICT (account_id, pool) DO NOTHING`
	qPoolRating = `SELECT rating, rd, volatility, games, last_ms FROM ratings WHERE account_id = ? AND pool = ?`
	qSetRating  = `UPDATE ratings SET rating = ?, rd = ?, volatility = ?, games = games + 1, last_ms = ? WHERE account_id = ? AND pool = ?`
	// qInsertEntry writes an update as the next of the player's chain in
	// the pool (n), while the player's rating row is locked.
	qInsertEntry = `INSERT INTO rating_history (game_id, account_id, pool, before_rating, before_rd, rating, rd, volatility, at_ms, n)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE(MAX(n), 0) + 1 FROM rating_history WHERE account_id = ? AND pool = ?`
)

func init() {
	txQueries = append(txQueries, qRatedAlready, qNewRating, qPoolRating, qSetRating, qInsertEntry)
}

// rate applies a finished rated game to its players' ratings, in tx (the
// transaction of the Update that wrote the game's end, after its version
// check): it reads both players' ratings in the pool, takes the update
// from package ratings (update.Game, pure), and writes it. It does
// nothing for a game whose end changes no rating (update.Rates: not
// rated, void, not between two accounts), or that was already applied (its
// history rows exist: a later write of a finished game changes no rating).
// On PostgreSQL the two rating rows are locked (FOR UPDATE, in the order
// of the accounts' ids, so two games ending at once wait for each other
// rather than deadlock); SQLite has one writer at a time.
func (s *Store) rate(ctx context.Context, tx *sql.Tx, g store.Game) error {
	if !update.Rates(g) {
		return nil
	}
	var done int
	if err := s.row(ctx, tx, qRatedAlready, g.ID).Scan(&done); err != nil {
		return err
	}
	if done > 0 {
		return nil
	}
	ids := []int64{g.Black.AccountID, g.White.AccountID}
	if ids[1] < ids[0] {
		ids[0], ids[1] = ids[1], ids[0]
	}
	lock := qPoolRating
	if s.d.Name == "postgres" {
		lock += " FOR UPDATE"
	}
	def := glicko2.Default()
	before := map[int64]store.Rating{}
	for _, id := range ids {
		if _, err := s.exec(ctx, tx, qNewRating, id, g.Preset, def.Rating, def.RD, def.Volatility); err != nil {
			return err
		}
		r := store.NewRating(id, g.Preset)
		var last int64
		if err := s.row(ctx, tx, lock, id, g.Preset).Scan(&r.Rating, &r.RD, &r.Volatility, &r.Games, &last); err != nil {
			return fmt.Errorf("rating of account %d in %s: %w", id, g.Preset, err)
		}
		r.Last = fromMS(last)
		before[id] = r
	}
	b, w, _ := update.Game(g, before[g.Black.AccountID], before[g.White.AccountID])
	changes := map[int64]store.RatingChange{b.AccountID: b, w.AccountID: w}
	for _, id := range ids {
		c := changes[id]
		a := c.After
		if _, err := s.exec(ctx, tx, qSetRating, a.Rating, a.RD, a.Volatility, ms(c.At), id, g.Preset); err != nil {
			return err
		}
		if _, err := s.exec(ctx, tx, qInsertEntry, g.ID, id, g.Preset, c.Before.Rating, c.Before.RD, a.Rating, a.RD, a.Volatility, ms(c.At), id, g.Preset); err != nil {
			if s.unique(err) {
				return fmt.Errorf("game %s: rated twice: %w", g.ID, store.ErrConflict)
			}
			return err
		}
	}
	return nil
}

// Ratings returns the account's ratings, by pool.
func (s *Store) Ratings(ctx context.Context, account int64) ([]store.Rating, error) {
	rows, err := s.query(ctx, `SELECT account_id, pool, rating, rd, volatility, games, last_ms FROM ratings
		WHERE account_id = ? AND games > 0 ORDER BY pool`, account)
	if err != nil {
		return nil, err
	}
	return scanRatings(rows, false)
}

// Leaderboard returns a pool's ratings, the settled ones first, best first.
func (s *Store) Leaderboard(ctx context.Context, pool string, limit int) ([]store.Rating, error) {
	if limit <= 0 || limit > 200 {
		limit = 200
	}
	rows, err := s.query(ctx, `SELECT r.account_id, r.pool, r.rating, r.rd, r.volatility, r.games, r.last_ms, COALESCE(a.name, '')
		FROM ratings r JOIN accounts a ON a.id = r.account_id
		WHERE r.pool = ? AND r.games > 0
		ORDER BY CASE WHEN r.rd > ? THEN 1 ELSE 0 END, r.rating DESC, r.account_id LIMIT ?`, pool, float64(glicko2.ProvisionalRD), limit)
	if err != nil {
		return nil, err
	}
	return scanRatings(rows, true)
}

func scanRatings(rows *sql.Rows, named bool) ([]store.Rating, error) {
	defer rows.Close()
	var out []store.Rating
	for rows.Next() {
		var r store.Rating
		var last int64
		dest := []any{&r.AccountID, &r.Pool, &r.Rating, &r.RD, &r.Volatility, &r.Games, &last}
		if named {
			dest = append(dest, &r.Name)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		r.Last = fromMS(last)
		out = append(out, r)
	}
	return out, rows.Err()
}

const changeCols = `game_id, account_id, pool, before_rating, before_rd, rating, rd, volatility, at_ms`

// RatingHistory returns the account's last rating updates in a pool, in
// the order they were applied (the chain's, n), oldest first: games that
// ended in the same millisecond have one time but a place each.
func (s *Store) RatingHistory(ctx context.Context, account int64, pool string, limit int) ([]store.RatingChange, error) {
	if limit <= 0 || limit > 500 {
		limit = 500
	}
	out, err := s.changes(ctx, `SELECT `+changeCols+` FROM rating_history WHERE account_id = ? AND pool = ?
		ORDER BY n DESC LIMIT ?`, account, pool, limit)
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, err
}

// GameRatings returns the rating updates of a game.
func (s *Store) GameRatings(ctx context.Context, gameID string) ([]store.RatingChange, error) {
	return s.changes(ctx, `SELECT `+changeCols+` FROM rating_history WHERE game_id = ? ORDER BY account_id`, gameID)
}

func (s *Store) changes(ctx context.Context, q string, args ...any) ([]store.RatingChange, error) {
	rows, err := s.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.RatingChange
	for rows.Next() {
		var c store.RatingChange
		var at int64
		if err := rows.Scan(&c.GameID, &c.AccountID, &c.Pool, &c.Before.Rating, &c.Before.RD,
			&c.After.Rating, &c.After.RD, &c.After.Volatility, &at); err != nil {
			return nil, err
		}
		c.At = fromMS(at)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	return out, nil
}
