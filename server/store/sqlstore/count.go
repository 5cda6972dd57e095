package sqlstore

import "context"

// CountGames counts the games in a state (the server's live-games gauge).
func (s *Store) CountGames(ctx context.Context, state string) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM games WHERE state = ?`), state).Scan(&n)
	return n, err
}
