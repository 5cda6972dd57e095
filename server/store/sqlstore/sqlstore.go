// Package sqlstore implements store.Store over database/sql, for the SQL
// databases the server runs on. The statements are written once, with ?
// placeholders, and rebound for databases that number them ($1); the
// schema of each database is in package migrations. Package sqlitestore
// opens it on an embedded SQLite file.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"alak/server/store"
)

// Dialect says how a database writes what the statements need.
type Dialect struct {
	Name string
	// Numbered placeholders: $1, $2 ... instead of ?.
	Numbered bool
	// Unique reports whether err is a unique-constraint violation.
	Unique func(err error) bool
}

// Store is a store.Store on a *sql.DB.
type Store struct {
	db   *sql.DB
	d    Dialect
	path string
}

// New returns a store on db, whose schema is already migrated. path names
// the database for messages and Path (a file, or a URL without password).
func New(db *sql.DB, d Dialect, path string) *Store { return &Store{db: db, d: d, path: path} }

// Path returns what the store was opened on.
func (s *Store) Path() string { return s.path }

// DB returns the database the store uses.
func (s *Store) DB() *sql.DB { return s.db }

// q rebinds a statement for the dialect.
func (s *Store) q(query string) string {
	if !s.d.Numbered {
		return query
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteByte(query[i])
	}
	return b.String()
}

func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMS(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}

func dur(v int64) time.Duration { return time.Duration(v) * time.Millisecond }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func nullName(name string) any {
	if name == "" {
		return nil
	}
	return name
}

// CreateAccount stores a new account and returns it with its id.
func (s *Store) CreateAccount(ctx context.Context, a store.Account) (store.Account, error) {
	if a.Created.IsZero() {
		a.Created = time.Now()
	}
	var key any
	if a.Name != "" {
		key = strings.ToLower(a.Name)
	}
	err := s.db.QueryRowContext(ctx, s.q(`INSERT INTO accounts (name, name_key, pass_hash, email, confirm_moves, created_ms)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`),
		nullName(a.Name), key, a.PassHash, a.Email, b2i(a.ConfirmMoves), ms(a.Created)).Scan(&a.ID)
	if err != nil {
		if s.d.Unique != nil && s.d.Unique(err) {
			return a, fmt.Errorf("account %q: %w", a.Name, store.ErrDuplicate)
		}
		return a, err
	}
	return a, nil
}

const accountCols = `id, COALESCE(name, ''), pass_hash, email, confirm_moves, created_ms`

func scanAccount(row interface{ Scan(...any) error }) (store.Account, error) {
	var a store.Account
	var confirm int
	var created int64
	if err := row.Scan(&a.ID, &a.Name, &a.PassHash, &a.Email, &confirm, &created); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return a, store.ErrNotFound
		}
		return a, err
	}
	a.ConfirmMoves, a.Created = confirm != 0, fromMS(created)
	return a, nil
}

// AccountByID returns the account with the id.
func (s *Store) AccountByID(ctx context.Context, id int64) (store.Account, error) {
	return scanAccount(s.db.QueryRowContext(ctx, s.q(`SELECT `+accountCols+` FROM accounts WHERE id = ?`), id))
}

// AccountByName returns the account with the name, without regard to case.
func (s *Store) AccountByName(ctx context.Context, name string) (store.Account, error) {
	if name == "" {
		return store.Account{}, store.ErrNotFound
	}
	return scanAccount(s.db.QueryRowContext(ctx, s.q(`SELECT `+accountCols+` FROM accounts WHERE name_key = ?`), strings.ToLower(name)))
}

// UpdateAccount writes an account's password, email and settings.
func (s *Store) UpdateAccount(ctx context.Context, a store.Account) error {
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE accounts SET pass_hash = ?, email = ?, confirm_moves = ? WHERE id = ?`),
		a.PassHash, a.Email, b2i(a.ConfirmMoves), a.ID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// CreateToken stores a token.
func (s *Store) CreateToken(ctx context.Context, t store.Token) error {
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO tokens (hash, account_id, kind, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?)`),
		t.Hash, t.AccountID, t.Kind, ms(t.Created), ms(t.Expires))
	if err != nil && s.d.Unique != nil && s.d.Unique(err) {
		return store.ErrDuplicate
	}
	return err
}

// TokenAccount returns the account of an unexpired token.
func (s *Store) TokenAccount(ctx context.Context, hash string, now time.Time) (store.Account, store.Token, error) {
	var t store.Token
	var created, expires int64
	err := s.db.QueryRowContext(ctx, s.q(`SELECT hash, account_id, kind, created_ms, expires_ms FROM tokens WHERE hash = ? AND expires_ms > ?`),
		hash, ms(now)).Scan(&t.Hash, &t.AccountID, &t.Kind, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Account{}, t, store.ErrNotFound
	}
	if err != nil {
		return store.Account{}, t, err
	}
	t.Created, t.Expires = fromMS(created), fromMS(expires)
	a, err := s.AccountByID(ctx, t.AccountID)
	return a, t, err
}

// DeleteToken removes a token (signing out).
func (s *Store) DeleteToken(ctx context.Context, hash string) error {
	_, err := s.db.ExecContext(ctx, s.q(`DELETE FROM tokens WHERE hash = ?`), hash)
	return err
}

// gameColumns are the games table's columns, in the order of gameArgs.
var gameColumns = []string{"id", "rules", "start", "preset", "size", "black_id", "white_id", "black_bot", "white_bot",
	"creator_id", "color", "kind", "opponent_id", "invite_hash", "clock", "state", "version", "ply", "entries",
	"black_ms", "white_ms", "turn_ms", "deadline_ms", "warned_entry", "draw_offer", "takeback", "result", "reason",
	"winner", "expires_ms", "created_ms", "updated_ms", "ended_ms"}

var (
	gameCols = strings.Join(gameColumns, ", ")
	// gameSet assigns every column but the id.
	gameSet = strings.Join(gameColumns[1:], " = ?, ") + " = ?"
	// gamePlaceholders are the values of an insert.
	gamePlaceholders = strings.TrimSuffix(strings.Repeat("?, ", len(gameColumns)), ", ")
)

func gameArgs(g store.Game) []any {
	return []any{g.ID, g.Rules, g.Start, g.Preset, g.Size, g.Black.AccountID, g.White.AccountID, g.Black.Bot, g.White.Bot,
		g.Creator, g.Color, g.Kind, g.Opponent, g.InviteHash, g.Clock, g.State, g.Version, g.Ply, g.Entries,
		g.BlackLeft.Milliseconds(), g.WhiteLeft.Milliseconds(), ms(g.TurnStart), ms(g.Deadline), g.WarnedEntry,
		g.DrawOffer, g.Takeback, g.Result, g.Reason, g.Winner, ms(g.Expires), ms(g.Created), ms(g.Updated), ms(g.Ended)}
}

func scanGame(row interface{ Scan(...any) error }) (store.Game, error) {
	var g store.Game
	var black, white, turn, deadline, expires, created, updated, ended int64
	err := row.Scan(&g.ID, &g.Rules, &g.Start, &g.Preset, &g.Size, &g.Black.AccountID, &g.White.AccountID, &g.Black.Bot, &g.White.Bot,
		&g.Creator, &g.Color, &g.Kind, &g.Opponent, &g.InviteHash, &g.Clock, &g.State, &g.Version, &g.Ply, &g.Entries,
		&black, &white, &turn, &deadline, &g.WarnedEntry, &g.DrawOffer, &g.Takeback, &g.Result, &g.Reason, &g.Winner,
		&expires, &created, &updated, &ended)
	if errors.Is(err, sql.ErrNoRows) {
		return g, store.ErrNotFound
	}
	g.BlackLeft, g.WhiteLeft = dur(black), dur(white)
	g.TurnStart, g.Deadline, g.Expires = fromMS(turn), fromMS(deadline), fromMS(expires)
	g.Created, g.Updated, g.Ended = fromMS(created), fromMS(updated), fromMS(ended)
	return g, err
}

// CreateGame stores a new game.
func (s *Store) CreateGame(ctx context.Context, g store.Game) error {
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO games (`+gameCols+`) VALUES (`+gamePlaceholders+`)`), gameArgs(g)...)
	if err != nil && s.d.Unique != nil && s.d.Unique(err) {
		return fmt.Errorf("game %s: %w", g.ID, store.ErrDuplicate)
	}
	return err
}

// Game returns a game and its log.
func (s *Store) Game(ctx context.Context, id string) (store.Game, []store.Entry, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return store.Game{}, nil, err
	}
	defer tx.Rollback()
	g, err := scanGame(tx.QueryRowContext(ctx, s.q(`SELECT `+gameCols+` FROM games WHERE id = ?`), id))
	if err != nil {
		return g, nil, err
	}
	rows, err := tx.QueryContext(ctx, s.q(`SELECT n, move, undo, by_id, at_ms, black_ms, white_ms FROM moves WHERE game_id = ? ORDER BY n`), id)
	if err != nil {
		return g, nil, err
	}
	defer rows.Close()
	var log []store.Entry
	for rows.Next() {
		e := store.Entry{GameID: id}
		var at, black, white int64
		if err := rows.Scan(&e.N, &e.Move, &e.Undo, &e.By, &at, &black, &white); err != nil {
			return g, nil, err
		}
		e.At, e.BlackLeft, e.WhiteLeft = fromMS(at), dur(black), dur(white)
		log = append(log, e)
	}
	if err := rows.Err(); err != nil {
		return g, nil, err
	}
	if len(log) != g.Entries {
		return g, nil, fmt.Errorf("game %s: %d log entries stored, the game counts %d", id, len(log), g.Entries)
	}
	return g, log, tx.Commit()
}

// Update writes g when the stored game is still at version expect, and
// appends the entries, in one transaction.
func (s *Store) Update(ctx context.Context, g store.Game, expect int, entries []store.Entry) error {
	if g.Version != expect+1 {
		return fmt.Errorf("update of game %s: version %d after %d: a change adds one", g.ID, g.Version, expect)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var entriesBefore int
	err = tx.QueryRowContext(ctx, s.q(`SELECT entries FROM games WHERE id = ? AND version = ?`), g.ID, expect).Scan(&entriesBefore)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("game %s at version %d: %w", g.ID, expect, store.ErrConflict)
	}
	if err != nil {
		return err
	}
	if g.Entries != entriesBefore+len(entries) {
		return fmt.Errorf("update of game %s: %d entries after %d and %d new", g.ID, g.Entries, entriesBefore, len(entries))
	}
	args := append(gameArgs(g)[1:], g.ID, expect)
	res, err := tx.ExecContext(ctx, s.q(`UPDATE games SET `+gameSet+` WHERE id = ? AND version = ?`), args...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("game %s at version %d: %w", g.ID, expect, store.ErrConflict)
	}
	for i, e := range entries {
		_, err := tx.ExecContext(ctx, s.q(`INSERT INTO moves (game_id, n, move, undo, by_id, at_ms, black_ms, white_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
			g.ID, entriesBefore+i, e.Move, e.Undo, e.By, ms(e.At), e.BlackLeft.Milliseconds(), e.WhiteLeft.Milliseconds())
		if err != nil {
			if s.d.Unique != nil && s.d.Unique(err) {
				return fmt.Errorf("game %s entry %d: %w", g.ID, entriesBefore+i, store.ErrConflict)
			}
			return err
		}
	}
	return tx.Commit()
}

// Games lists games by the filter, the most recently updated first.
func (s *Store) Games(ctx context.Context, f store.Filter) ([]store.Game, error) {
	var where []string
	var args []any
	if f.Player != 0 {
		where = append(where, "(black_id = ? OR white_id = ?)")
		args = append(args, f.Player, f.Player)
	}
	if len(f.States) > 0 {
		where = append(where, "state IN ("+strings.TrimSuffix(strings.Repeat("?, ", len(f.States)), ", ")+")")
		for _, st := range f.States {
			args = append(args, st)
		}
	}
	if f.Preset != "" {
		where = append(where, "preset = ?")
		args = append(args, f.Preset)
	}
	if f.Size != "" {
		where = append(where, "size = ?")
		args = append(args, f.Size)
	}
	if !f.Before.IsZero() {
		where = append(where, "updated_ms < ?")
		args = append(args, ms(f.Before))
	}
	q := `SELECT ` + gameCols + ` FROM games`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	limit := f.Limit
	if limit <= 0 || limit > 200 {
		limit = 200
	}
	q += " ORDER BY updated_ms DESC, id LIMIT " + strconv.Itoa(limit)
	return s.games(ctx, q, args...)
}

func (s *Store) games(ctx context.Context, q string, args ...any) ([]store.Game, error) {
	rows, err := s.db.QueryContext(ctx, s.q(q), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// Due lists the active games whose deadline has come and the waiting games
// that have expired, by t.
func (s *Store) Due(ctx context.Context, t time.Time) ([]store.Game, error) {
	return s.games(ctx, `SELECT `+gameCols+` FROM games WHERE (state = ? AND deadline_ms > 0 AND deadline_ms <= ?)
		OR (state = ? AND expires_ms > 0 AND expires_ms <= ?) ORDER BY id LIMIT 500`,
		store.StateActive, ms(t), store.StateWaiting, ms(t))
}

// Warnable lists active games whose deadline falls before t and whose
// current entry was not warned about.
func (s *Store) Warnable(ctx context.Context, t time.Time) ([]store.Game, error) {
	return s.games(ctx, `SELECT `+gameCols+` FROM games WHERE state = ? AND deadline_ms > 0 AND deadline_ms <= ?
		AND warned_entry < entries AND clock LIKE 'days:%' ORDER BY id LIMIT 500`, store.StateActive, ms(t))
}

// SaveAnalysis keeps a finished game's analysis.
func (s *Store) SaveAnalysis(ctx context.Context, gameID string, body []byte) error {
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO analyses (game_id, body, created_ms) VALUES (?, ?, ?)`), gameID, string(body), ms(time.Now()))
	if err != nil && s.d.Unique != nil && s.d.Unique(err) {
		return store.ErrDuplicate
	}
	return err
}

// Analysis returns a game's analysis.
func (s *Store) Analysis(ctx context.Context, gameID string) ([]byte, error) {
	var body string
	err := s.db.QueryRowContext(ctx, s.q(`SELECT body FROM analyses WHERE game_id = ?`), gameID).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	return []byte(body), err
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	return s.db.QueryRowContext(ctx, `SELECT 1`).Scan(&one)
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }
