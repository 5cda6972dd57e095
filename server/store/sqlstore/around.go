package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"alak/server/store"
)

// Around a game: the players' messages, mutes and rematches.

// AddMessage stores a message and returns it with its id.
func (s *Store) AddMessage(ctx context.Context, m store.Message) (store.Message, error) {
	err := s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		return s.row(ctx, tx, `INSERT INTO messages (game_id, color, by_id, text, at_ms) VALUES (?, ?, ?, ?, ?) RETURNING id`,
			m.GameID, m.Color, m.By, m.Text, ms(m.At)).Scan(&m.ID)
	})
	return m, err
}

// Chat returns a game's messages, oldest first, and its mutes (read only
// when there are messages: without any, mutes change nothing).
func (s *Store) Chat(ctx context.Context, gameID string) (store.Chat, error) {
	var c store.Chat
	rows, err := s.query(ctx, `SELECT id, color, by_id, text, at_ms FROM messages WHERE game_id = ? ORDER BY id`, gameID)
	if err != nil {
		return c, err
	}
	defer rows.Close()
	for rows.Next() {
		m := store.Message{GameID: gameID}
		var at int64
		if err := rows.Scan(&m.ID, &m.Color, &m.By, &m.Text, &at); err != nil {
			return c, err
		}
		m.At = fromMS(at)
		c.Messages = append(c.Messages, m)
	}
	if err := rows.Err(); err != nil || len(c.Messages) == 0 {
		return c, err
	}
	c.Muted, err = s.ids(ctx, nil, `SELECT color FROM mutes WHERE game_id = ? ORDER BY color`, gameID)
	return c, err
}

// SetMute records or removes a seat's mute.
func (s *Store) SetMute(ctx context.Context, gameID, color string, muted bool) error {
	q := `DELETE FROM mutes WHERE game_id = ? AND color = ?`
	if muted {
		q = `INSERT INTO mutes (game_id, color) VALUES (?, ?) ON CONFLICT (game_id, color) DO NOTHING`
	}
	return s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		_, err := s.exec(ctx, tx, q, gameID, color)
		return err
	})
}

// LinkRematch stores g and links it as of's rematch when the link is
// still prev, in one transaction.
func (s *Store) LinkRematch(ctx context.Context, of string, g store.Game, prev string) error {
	return s.write(ctx, true, func(ctx context.Context, tx *sql.Tx) error {
		var cur string
		err := s.row(ctx, tx, `SELECT rematch_id FROM rematches WHERE game_id = ?`, of).Scan(&cur)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if cur != prev {
			return fmt.Errorf("rematch of game %s: %q, not %q: %w", of, cur, prev, store.ErrConflict)
		}
		if _, err := s.exec(ctx, tx, qInsertGame, gameArgs(g)...); err != nil {
			if s.unique(err) {
				return fmt.Errorf("game %s: %w", g.ID, store.ErrDuplicate)
			}
			return err
		}
		q := `INSERT INTO rematches (game_id, rematch_id) VALUES (?, ?)`
		args := []any{of, g.ID}
		if prev != "" {
			q, args = `UPDATE rematches SET rematch_id = ? WHERE game_id = ? AND rematch_id = ?`, []any{g.ID, of, prev}
		}
		res, err := s.exec(ctx, tx, q, args...)
		if err != nil {
			if s.unique(err) { // another process linked one meanwhile
				return fmt.Errorf("rematch of game %s: %w", of, store.ErrConflict)
			}
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return fmt.Errorf("rematch of game %s: %w", of, store.ErrConflict)
		}
		return nil
	})
}

// Rematch returns the id of of's rematch.
func (s *Store) Rematch(ctx context.Context, of string) (string, error) {
	return s.oneID(ctx, `SELECT rematch_id FROM rematches WHERE game_id = ?`, of)
}

// RematchOf returns the game id is the rematch of.
func (s *Store) RematchOf(ctx context.Context, id string) (string, error) {
	return s.oneID(ctx, `SELECT game_id FROM rematches WHERE rematch_id = ?`, id)
}

func (s *Store) oneID(ctx context.Context, q, arg string) (string, error) {
	var id string
	err := s.row(ctx, nil, q, arg).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", store.ErrNotFound
	}
	return id, err
}
