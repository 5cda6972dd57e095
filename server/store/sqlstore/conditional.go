package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"alak/server/store"
)

// Conditional moves and vacation.

// SetConditional stores a seat's conditional moves, replacing its row.
func (s *Store) SetConditional(ctx context.Context, c store.Conditional) error {
	return s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		_, err := s.exec(ctx, tx, `INSERT INTO conditionals (game_id, color, account_id, entry, ply, tree, played_entry, note, note_entry, updated_ms)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (game_id, color) DO UPDATE SET account_id = excluded.account_id, entry = excluded.entry, ply = excluded.ply,
				tree = excluded.tree, played_entry = excluded.played_entry, note = excluded.note, note_entry = excluded.note_entry,
				updated_ms = excluded.updated_ms`,
			c.GameID, c.Color, c.Account, c.Entry, c.Ply, c.Tree, c.Played, c.Note, c.NoteEntry, ms(c.Updated))
		return err
	})
}

// Conditional returns a seat's conditional moves.
func (s *Store) Conditional(ctx context.Context, gameID, color string) (store.Conditional, error) {
	c := store.Conditional{GameID: gameID, Color: color}
	var updated int64
	err := s.row(ctx, nil, `SELECT account_id, entry, ply, tree, played_entry, note, note_entry, updated_ms FROM conditionals WHERE game_id = ? AND color = ?`,
		gameID, color).Scan(&c.Account, &c.Entry, &c.Ply, &c.Tree, &c.Played, &c.Note, &c.NoteEntry, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("conditional moves of %s in game %s: %w", color, gameID, store.ErrNotFound)
	}
	c.Updated = fromMS(updated)
	return c, err
}

// Vacation returns an account's vacation.
func (s *Store) Vacation(ctx context.Context, account int64) (store.Vacation, error) {
	v := store.Vacation{Account: account}
	var since, bank, accrued int64
	err := s.row(ctx, nil, `SELECT since_ms, bank_ms, accrued_ms FROM vacations WHERE account_id = ?`, account).Scan(&since, &bank, &accrued)
	if errors.Is(err, sql.ErrNoRows) {
		return v, fmt.Errorf("vacation of account %d: %w", account, store.ErrNotFound)
	}
	v.Since, v.Bank, v.Accrued = fromMS(since), time.Duration(bank)*time.Millisecond, fromMS(accrued)
	return v, err
}

// SetVacation stores v when the stored since is still prev: an update
// that names the old since, or an insert when prev is zero (a second
// insert fails on the key), so two processes cannot both end or start
// the same vacation.
func (s *Store) SetVacation(ctx context.Context, v store.Vacation, prev time.Time) error {
	return s.write(ctx, true, func(ctx context.Context, tx *sql.Tx) error {
		res, err := s.exec(ctx, tx, `UPDATE vacations SET since_ms = ?, bank_ms = ?, accrued_ms = ? WHERE account_id = ? AND since_ms = ?`,
			ms(v.Since), v.Bank.Milliseconds(), ms(v.Accrued), v.Account, ms(prev))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return err
		}
		if !prev.IsZero() {
			return fmt.Errorf("vacation of account %d: %w", v.Account, store.ErrConflict)
		}
		var n int
		if err := s.row(ctx, tx, `SELECT COUNT(*) FROM vacations WHERE account_id = ?`, v.Account).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("vacation of account %d: %w", v.Account, store.ErrConflict)
		}
		_, err = s.exec(ctx, tx, `INSERT INTO vacations (account_id, since_ms, bank_ms, accrued_ms) VALUES (?, ?, ?, ?)`,
			v.Account, ms(v.Since), v.Bank.Milliseconds(), ms(v.Accrued))
		if s.unique(err) {
			return fmt.Errorf("vacation of account %d: %w", v.Account, store.ErrConflict)
		}
		return err
	})
}

// OnVacation lists the vacations under way.
func (s *Store) OnVacation(ctx context.Context) ([]store.Vacation, error) {
	rows, err := s.query(ctx, `SELECT account_id, since_ms, bank_ms, accrued_ms FROM vacations WHERE since_ms > 0 ORDER BY account_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Vacation
	for rows.Next() {
		var v store.Vacation
		var since, bank, accrued int64
		if err := rows.Scan(&v.Account, &since, &bank, &accrued); err != nil {
			return nil, err
		}
		v.Since, v.Bank, v.Accrued = fromMS(since), time.Duration(bank)*time.Millisecond, fromMS(accrued)
		out = append(out, v)
	}
	return out, rows.Err()
}
