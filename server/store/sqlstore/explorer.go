package sqlstore

import (
	"context"
	"database/sql"

	"alak/server/store"
)

const (
	qExplorerGame = `INSERT INTO explorer_games (game_id) VALUES (?) ON CONFLICT DO NOTHING`
	qExplorerAdd  = `INSERT INTO explorer (prefix, move, rules, games, x_wins, draws, o_wins) VALUES (?, ?, ?, 1, ?, ?, ?)
		ON CONFLICT (prefix, move) DO UPDATE SET games = explorer.games + 1, x_wins = explorer.x_wins + excluded.x_wins,
		draws = explorer.draws + excluded.draws, o_wins = explorer.o_wins + excluded.o_wins`
	qExplorerMoves = `SELECT move, games, x_wins, draws, o_wins FROM explorer WHERE prefix = ? AND rules = ?
		ORDER BY games DESC, move LIMIT 400`
	qExplorerMissing = `SELECT id, rules FROM games g WHERE state = ? AND start = ''
		AND NOT EXISTS (SELECT 1 FROM explorer_games e WHERE e.game_id = g.id) ORDER BY id LIMIT ?`
)

func init() {
	// Prepared once on the writer's connection: a finished game's count
	// runs the second for each of its moves.
	txQueries = append(txQueries, qExplorerGame, qExplorerAdd)
}

// AddExplorerGame counts a finished game in the explorer, in one
// transaction with the row that marks it counted.
func (s *Store) AddExplorerGame(ctx context.Context, gameID, rules string, moves []string, winner string) (bool, error) {
	var x, d, o int
	switch winner {
	case "x":
		x = 1
	case "o":
		o = 1
	case "draw":
		d = 1
	}
	added := false
	err := s.write(ctx, true, func(ctx context.Context, tx *sql.Tx) error {
		res, err := s.exec(ctx, tx, qExplorerGame, gameID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err // counted already
		}
		for i, m := range moves {
			if _, err := s.exec(ctx, tx, qExplorerAdd, store.ExplorerKey(rules, moves[:i]), m, rules, x, d, o); err != nil {
				return err
			}
		}
		added = true
		return nil
	})
	return added && err == nil, err
}

// ExplorerMoves reads the moves after a prefix: one indexed range of the
// explorer's key.
func (s *Store) ExplorerMoves(ctx context.Context, rules string, prefix []string) ([]store.ExplorerMove, error) {
	rows, err := s.query(ctx, qExplorerMoves, store.ExplorerKey(rules, prefix), rules)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.ExplorerMove
	for rows.Next() {
		var m store.ExplorerMove
		if err := rows.Scan(&m.Move, &m.Games, &m.XWins, &m.Draws, &m.OWins); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// ExplorerBackfill counts finished games not counted yet, reading each
// one's log.
func (s *Store) ExplorerBackfill(ctx context.Context, limit int) (int, error) {
	rows, err := s.query(ctx, qExplorerMissing, store.StateFinished, limit)
	if err != nil {
		return 0, err
	}
	type missing struct{ id, rules string }
	var ms []missing
	for rows.Next() {
		var m missing
		if err := rows.Scan(&m.id, &m.rules); err != nil {
			rows.Close()
			return 0, err
		}
		ms = append(ms, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	n := 0
	for _, m := range ms {
		g, entries, err := s.Game(ctx, m.id)
		if err != nil {
			return n, err
		}
		added, err := s.AddExplorerGame(ctx, g.ID, g.Rules, store.PlayedMoves(entries), g.Winner)
		if err != nil {
			return n, err
		}
		if added {
			n++
		}
	}
	return n, nil
}
