package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"alak/server/store"
)

// Tournaments.

const tournamentCols = `id, name, organiser_id, rules, clock, format, rated, rounds, max_players, starts_ms, state, round, winner,
	version, created_ms, started_ms, ended_ms`

func tournamentArgs(t store.Tournament) []any {
	return []any{t.ID, t.Name, t.Organiser, t.Rules, t.Clock, t.Format, b2i(t.Rated), t.Rounds, t.MaxPlayers, ms(t.Starts),
		t.State, t.Round, t.Winner, t.Version, ms(t.Created), ms(t.Started), ms(t.Ended)}
}

func scanTournament(row scanner, more ...any) (store.Tournament, error) {
	var t store.Tournament
	var rated int
	var starts, created, started, ended int64
	err := row.Scan(append([]any{&t.ID, &t.Name, &t.Organiser, &t.Rules, &t.Clock, &t.Format, &rated, &t.Rounds, &t.MaxPlayers, &starts,
		&t.State, &t.Round, &t.Winner, &t.Version, &created, &started, &ended}, more...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return t, store.ErrNotFound
	}
	t.Rated = rated != 0
	t.Starts, t.Created, t.Started, t.Ended = fromMS(starts), fromMS(created), fromMS(started), fromMS(ended)
	return t, err
}

// CreateTournament stores a new tournament.
func (s *Store) CreateTournament(ctx context.Context, t store.Tournament) error {
	err := s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		_, err := s.exec(ctx, tx, `INSERT INTO tournaments (`+tournamentCols+`) VALUES (`+
			strings.TrimSuffix(strings.Repeat("?, ", 17), ", ")+`)`, tournamentArgs(t)...)
		return err
	})
	if err != nil && s.unique(err) {
		return fmt.Errorf("tournament %s: %w", t.ID, store.ErrDuplicate)
	}
	return err
}

// tournamentSlotCols are a slot's columns with its game's state, from
// tournament_games tg LEFT JOIN games g.
const tournamentSlotCols = `tg.tournament_id, tg.round, tg.slot, tg.x_id, tg.o_id, tg.game_id, tg.tries, tg.forfeit,
	COALESCE(g.state, ''), COALESCE(g.winner, ''), COALESCE(g.ply, 0)`

func (s *Store) slots(ctx context.Context, q string, args ...any) ([]store.TournamentGame, error) {
	rows, err := s.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.TournamentGame
	for rows.Next() {
		var g store.TournamentGame
		if err := rows.Scan(&g.TournamentID, &g.Round, &g.Slot, &g.X, &g.O, &g.GameID, &g.Tries, &g.Forfeit,
			&g.State, &g.Winner, &g.Ply); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// Tournament returns a tournament with its players and slots. The row is
// read first; the players and slots after it may be newer than it (a
// change committed between the reads), which a caller that writes finds
// out by the version check of UpdateTournament.
func (s *Store) Tournament(ctx context.Context, id string) (store.Tournament, []store.TournamentPlayer, []store.TournamentGame, error) {
	t, err := scanTournament(s.row(ctx, nil, `SELECT `+tournamentCols+` FROM tournaments WHERE id = ?`, id))
	if err != nil {
		return t, nil, nil, err
	}
	rows, err := s.query(ctx, `SELECT p.account_id, COALESCE(a.name, ''), p.rating, p.withdrawn, p.joined_ms
		FROM tournament_players p JOIN accounts a ON a.id = p.account_id WHERE p.tournament_id = ? ORDER BY p.joined_ms, p.account_id`, id)
	if err != nil {
		return t, nil, nil, err
	}
	defer rows.Close()
	var players []store.TournamentPlayer
	for rows.Next() {
		var p store.TournamentPlayer
		var withdrawn int
		var joined int64
		if err := rows.Scan(&p.AccountID, &p.Name, &p.Rating, &withdrawn, &joined); err != nil {
			return t, nil, nil, err
		}
		p.Withdrawn, p.Joined = withdrawn != 0, fromMS(joined)
		players = append(players, p)
	}
	if err := rows.Err(); err != nil {
		return t, nil, nil, err
	}
	games, err := s.slots(ctx, `SELECT `+tournamentSlotCols+` FROM tournament_games tg LEFT JOIN games g ON g.id = tg.game_id
		WHERE tg.tournament_id = ? ORDER BY tg.round, tg.slot`, id)
	return t, players, games, err
}

// Tournaments lists tournaments by state, the newest first.
func (s *Store) Tournaments(ctx context.Context, state string, limit int) ([]store.Tournament, error) {
	if limit <= 0 || limit > 200 {
		limit = 200
	}
	const count = `, (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id = tournaments.id)`
	q, args := `SELECT `+tournamentCols+count+` FROM tournaments ORDER BY created_ms DESC, id LIMIT ?`, []any{limit}
	if state != "" {
		q, args = `SELECT `+tournamentCols+count+` FROM tournaments WHERE state = ? ORDER BY created_ms DESC, id LIMIT ?`, []any{state, limit}
	}
	rows, err := s.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Tournament
	for rows.Next() {
		var n int
		t, err := scanTournament(rows, &n)
		if err != nil {
			return nil, err
		}
		t.Players = n
		out = append(out, t)
	}
	return out, rows.Err()
}

// TournamentGames returns the slots of the games ids.
func (s *Store) TournamentGames(ctx context.Context, ids []string) ([]store.TournamentGame, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var out []store.TournamentGame
	// At most 50 ids a statement: a few shapes of it are prepared.
	for len(ids) > 0 {
		n := min(len(ids), 50)
		args := make([]any, n)
		for i, id := range ids[:n] {
			args[i] = id
		}
		got, err := s.slots(ctx, `SELECT `+tournamentSlotCols+` FROM tournament_games tg LEFT JOIN games g ON g.id = tg.game_id
			WHERE tg.game_id IN (`+strings.TrimSuffix(strings.Repeat("?, ", n), ", ")+`) ORDER BY tg.game_id`, args...)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
		ids = ids[n:]
	}
	return out, nil
}

// UpdateTournament applies a change in one transaction: the row is
// written only where its version is still ch.Expect, then the players,
// the games and the slots. A slot already paired makes the insert fail on
// the key: the transaction is rolled back and ErrConflict returned.
func (s *Store) UpdateTournament(ctx context.Context, ch store.TournamentChange) error {
	t := ch.T
	if t.Version != ch.Expect+1 {
		return fmt.Errorf("update of tournament %s: version %d after %d: a change adds one", t.ID, t.Version, ch.Expect)
	}
	conflict := func(what string) error {
		return fmt.Errorf("tournament %s at version %d: %s: %w", t.ID, ch.Expect, what, store.ErrConflict)
	}
	return s.write(ctx, true, func(ctx context.Context, tx *sql.Tx) error {
		res, err := s.exec(ctx, tx, `UPDATE tournaments SET name = ?, rules = ?, clock = ?, format = ?, rated = ?, rounds = ?,
			max_players = ?, starts_ms = ?, state = ?, round = ?, winner = ?, version = ?, started_ms = ?, ended_ms = ?
			WHERE id = ? AND version = ?`,
			t.Name, t.Rules, t.Clock, t.Format, b2i(t.Rated), t.Rounds, t.MaxPlayers, ms(t.Starts), t.State, t.Round, t.Winner,
			t.Version, ms(t.Started), ms(t.Ended), t.ID, ch.Expect)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n != 1 {
			var v int
			if err := s.row(ctx, tx, `SELECT version FROM tournaments WHERE id = ?`, t.ID).Scan(&v); errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("tournament %s: %w", t.ID, store.ErrNotFound)
			}
			return conflict("changed meanwhile")
		}
		for _, p := range ch.Join {
			if _, err := s.exec(ctx, tx, `INSERT INTO tournament_players (tournament_id, account_id, rating, withdrawn, joined_ms) VALUES (?, ?, ?, ?, ?)`,
				t.ID, p.AccountID, p.Rating, b2i(p.Withdrawn), ms(p.Joined)); err != nil {
				if s.unique(err) {
					return fmt.Errorf("player %d in tournament %s: %w", p.AccountID, t.ID, store.ErrDuplicate)
				}
				return err
			}
		}
		for _, id := range ch.Leave {
			if _, err := s.exec(ctx, tx, `DELETE FROM tournament_players WHERE tournament_id = ? AND account_id = ?`, t.ID, id); err != nil {
				return err
			}
		}
		for _, p := range ch.Players {
			if _, err := s.exec(ctx, tx, `UPDATE tournament_players SET rating = ?, withdrawn = ? WHERE tournament_id = ? AND account_id = ?`,
				p.Rating, b2i(p.Withdrawn), t.ID, p.AccountID); err != nil {
				return err
			}
		}
		for _, g := range ch.Games {
			if _, err := s.exec(ctx, tx, qInsertGame, gameArgs(g)...); err != nil {
				if s.unique(err) {
					return fmt.Errorf("game %s: %w", g.ID, store.ErrDuplicate)
				}
				return err
			}
		}
		for _, g := range ch.Pair {
			if _, err := s.exec(ctx, tx, `INSERT INTO tournament_games (tournament_id, round, slot, x_id, o_id, game_id, tries, forfeit)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, t.ID, g.Round, g.Slot, g.X, g.O, g.GameID, g.Tries, g.Forfeit); err != nil {
				if s.unique(err) {
					return conflict(fmt.Sprintf("round %d slot %d paired already", g.Round, g.Slot))
				}
				return err
			}
		}
		for _, g := range ch.Set {
			res, err := s.exec(ctx, tx, `UPDATE tournament_games SET game_id = ?, tries = ?, forfeit = ? WHERE tournament_id = ? AND round = ? AND slot = ?`,
				g.GameID, g.Tries, g.Forfeit, t.ID, g.Round, g.Slot)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n != 1 {
				return fmt.Errorf("tournament %s: no round %d slot %d to set: %w", t.ID, g.Round, g.Slot, store.ErrNotFound)
			}
		}
		return nil
	})
}
