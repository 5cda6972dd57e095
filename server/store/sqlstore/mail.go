package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"alak/server/store"
)

// Moves by email: the secrets of the reply addresses.

// AddMailSecret stores a reply address's secret (its hash).
func (s *Store) AddMailSecret(ctx context.Context, m store.MailSecret) error {
	return s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		_, err := s.exec(ctx, tx, `INSERT INTO mail_secrets (hash, game_id, color, ply, created_ms) VALUES (?, ?, ?, ?, ?)`,
			m.Hash, m.GameID, m.Color, m.Ply, ms(m.Created))
		if err != nil && s.unique(err) {
			return fmt.Errorf("mail secret: %w", store.ErrDuplicate)
		}
		return err
	})
}

// MailSecret returns the secret whose hash is hash.
func (s *Store) MailSecret(ctx context.Context, hash string) (store.MailSecret, error) {
	m := store.MailSecret{Hash: hash}
	var created int64
	err := s.row(ctx, nil, `SELECT game_id, color, ply, created_ms FROM mail_secrets WHERE hash = ?`, hash).
		Scan(&m.GameID, &m.Color, &m.Ply, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return m, store.ErrNotFound
	}
	m.Created = fromMS(created)
	return m, err
}

// DeleteMailSecrets deletes a game's secrets.
func (s *Store) DeleteMailSecrets(ctx context.Context, gameID string) error {
	return s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		_, err := s.exec(ctx, tx, `DELETE FROM mail_secrets WHERE game_id = ?`, gameID)
		return err
	})
}
