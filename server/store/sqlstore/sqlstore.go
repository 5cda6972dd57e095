// Package sqlstore implements store.Store over database/sql, for the SQL
// databases the server runs on. The statements are written once, with ?
// placeholders, and rebound for databases that number them ($1); the
// schema of each database is in package migrations. Package sqlitestore
// opens it on an embedded SQLite file, package pgstore on PostgreSQL.
//
// Every statement is prepared once per Store, at its first use, and
// reused (in a transaction through tx.Stmt): a move does not pay for
// parsing SQL. On a database that takes one writer at a time (SQLite,
// Dialect.SingleWriter) every write goes through one goroutine that
// commits the writes waiting together in one transaction, each in a
// savepoint of its own (group commit, writer.go); elsewhere (PostgreSQL,
// which groups the commits of concurrent transactions by itself) a write
// that needs a transaction has its own.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"alak/server/internal/ratings/update"
	"alak/server/store"
)

// Dialect says how a database writes what the statements need.
type Dialect struct {
	Name string
	// Numbered placeholders: $1, $2 ... instead of ?.
	Numbered bool
	// Unique reports whether err is a unique-constraint violation.
	Unique func(err error) bool
	// SingleWriter: the database takes one writing transaction at a time
	// (SQLite); the store's writes then go through its group commit.
	SingleWriter bool
	// WritingWith: a WITH clause may hold an UPDATE (PostgreSQL), so a
	// move's update and its log entry are one statement, one round trip,
	// rather than a transaction of four.
	WritingWith bool
}

// Store is a store.Store on a *sql.DB.
type Store struct {
	db    *sql.DB
	d     Dialect
	path  string
	stmts sync.Map // query text (before rebinding) → *sql.Stmt
	// updateShapes counts the sets of columns updateGame has prepared a
	// statement for.
	updateShapes atomic.Int64
	w            *writer // the group commit of a single-writer database, or nil
}

// New returns a store on db, whose schema is already migrated. path names
// the database for messages and Path (a file, or a URL without password).
// On a single-writer dialect it starts the group commit with
// DefaultGroupCommit.
func New(db *sql.DB, d Dialect, path string) *Store {
	return NewGroupCommit(db, d, path, DefaultGroupCommit)
}

// NewGroupCommit is New with the group commit's bounds (used only by a
// single-writer dialect).
func NewGroupCommit(db *sql.DB, d Dialect, path string, gc GroupCommit) *Store {
	s := &Store{db: db, d: d, path: path}
	// A copy: txQueries has room beyond its length (ratings.go's init
	// appends to it), so appending to it in place would write into the
	// array that stores opened at the same time share (a race the server's
	// parallel tests caught, a SQLite and a PostgreSQL store at once).
	queries := slices.Clone(txQueries)
	if d.SingleWriter {
		queries = append(queries, qSavepoint, qRollbackTo, qRelease)
	}
	if d.WritingWith {
		queries = append(queries, qMove)
	}
	for _, q := range queries {
		s.stmt(context.Background(), q) // an error is met again at the statement's use
	}
	if d.SingleWriter {
		s.w = newWriter(s, gc)
	}
	return s
}

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

// stmt returns the statement of query, prepared once.
func (s *Store) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := s.stmts.Load(query); ok {
		return st.(*sql.Stmt), nil
	}
	st, err := s.db.PrepareContext(ctx, s.q(query))
	if err != nil {
		return nil, err
	}
	if prev, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close()
		return prev.(*sql.Stmt), nil
	}
	return st, nil
}

// on returns the statement of query to run in tx, or on the database when
// tx is nil. In a transaction the statement prepared on its connection is
// reused.
func (s *Store) on(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	if tx == nil {
		return s.stmt(ctx, query)
	}
	st, ok := s.stmts.Load(query)
	if !ok {
		// Not prepared when the store was made: prepare it for this
		// transaction only, on its own connection.
		return tx.PrepareContext(ctx, s.q(query))
	}
	return tx.StmtContext(ctx, st.(*sql.Stmt)), nil
}

// write makes one write: through the group commit on a single-writer
// database; elsewhere in a transaction of its own when it needs one (own),
// or as it is (one statement, tx nil).
func (s *Store) write(ctx context.Context, own bool, fn writeFunc) error {
	if s.w != nil {
		return s.w.do(ctx, fn)
	}
	if !own {
		return fn(ctx, nil)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(ctx, tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// exec runs a statement that returns no rows.
func (s *Store) exec(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	st, err := s.on(ctx, tx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// scanner is a row to scan.
type scanner interface{ Scan(dest ...any) error }

// failed is a row that could not be read: Scan returns err.
type failed struct{ err error }

func (f failed) Scan(...any) error { return f.err }

// row runs a statement that returns one row.
func (s *Store) row(ctx context.Context, tx *sql.Tx, query string, args ...any) scanner {
	st, err := s.on(ctx, tx, query)
	if err != nil {
		return failed{err}
	}
	return st.QueryRowContext(ctx, args...)
}

// query runs a statement that returns rows.
func (s *Store) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := s.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
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
	err := s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		return s.row(ctx, tx, qInsertAccount,
			nullName(a.Name), key, a.PassHash, a.Email, b2i(a.ConfirmMoves), ms(a.Created), b2i(a.Bot)).Scan(&a.ID)
	})
	if err != nil {
		if s.unique(err) {
			return a, fmt.Errorf("account %q: %w", a.Name, store.ErrDuplicate)
		}
		return a, err
	}
	return a, nil
}

func (s *Store) unique(err error) bool { return s.d.Unique != nil && s.d.Unique(err) }

const accountCols = `id, COALESCE(name, ''), pass_hash, email, confirm_moves, created_ms, bot`

func scanAccount(row scanner) (store.Account, error) {
	var a store.Account
	var confirm, bot int
	var created int64
	if err := row.Scan(&a.ID, &a.Name, &a.PassHash, &a.Email, &confirm, &created, &bot); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return a, store.ErrNotFound
		}
		return a, err
	}
	a.ConfirmMoves, a.Created, a.Bot = confirm != 0, fromMS(created), bot != 0
	return a, nil
}

// AccountByID returns the account with the id.
func (s *Store) AccountByID(ctx context.Context, id int64) (store.Account, error) {
	return scanAccount(s.row(ctx, nil, `SELECT `+accountCols+` FROM accounts WHERE id = ?`, id))
}

// AccountByName returns the account with the name, without regard to case.
func (s *Store) AccountByName(ctx context.Context, name string) (store.Account, error) {
	if name == "" {
		return store.Account{}, store.ErrNotFound
	}
	return scanAccount(s.row(ctx, nil, `SELECT `+accountCols+` FROM accounts WHERE name_key = ?`, strings.ToLower(name)))
}

// UpdateAccount writes an account's password, email and settings.
func (s *Store) UpdateAccount(ctx context.Context, a store.Account) error {
	return s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		res, err := s.exec(ctx, tx, qUpdateAccount,
			a.PassHash, a.Email, b2i(a.ConfirmMoves), a.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.ErrNotFound
		}
		return nil
	})
}

// ChangePassword writes an account's password hash and deletes every
// token of the account but keep, in one transaction.
func (s *Store) ChangePassword(ctx context.Context, id int64, passHash, keep string) error {
	return s.write(ctx, true, func(ctx context.Context, tx *sql.Tx) error {
		res, err := s.exec(ctx, tx, qSetPassword, passHash, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.ErrNotFound
		}
		_, err = s.exec(ctx, tx, qDeleteTokensBut, id, keep)
		return err
	})
}

// CreateToken stores a token.
func (s *Store) CreateToken(ctx context.Context, t store.Token) error {
	err := s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		_, err := s.exec(ctx, tx, qInsertToken,
			t.Hash, t.AccountID, t.Kind, ms(t.Created), ms(t.Expires))
		return err
	})
	if err != nil && s.unique(err) {
		return store.ErrDuplicate
	}
	return err
}

// TokenAccount returns the account of an unexpired token, in one query.
func (s *Store) TokenAccount(ctx context.Context, hash string, now time.Time) (store.Account, store.Token, error) {
	var t store.Token
	var a store.Account
	var created, expires, accCreated int64
	var confirm, bot int
	err := s.row(ctx, nil, `SELECT t.hash, t.account_id, t.kind, t.created_ms, t.expires_ms,
		a.id, COALESCE(a.name, ''), a.pass_hash, a.email, a.confirm_moves, a.created_ms, a.bot
		FROM tokens t JOIN accounts a ON a.id = t.account_id WHERE t.hash = ? AND t.expires_ms > ?`, hash, ms(now)).
		Scan(&t.Hash, &t.AccountID, &t.Kind, &created, &expires, &a.ID, &a.Name, &a.PassHash, &a.Email, &confirm, &accCreated, &bot)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Account{}, t, store.ErrNotFound
	}
	if err != nil {
		return store.Account{}, t, err
	}
	t.Created, t.Expires = fromMS(created), fromMS(expires)
	a.ConfirmMoves, a.Created, a.Bot = confirm != 0, fromMS(accCreated), bot != 0
	return a, t, nil
}

// DeleteToken removes a token (signing out).
func (s *Store) DeleteToken(ctx context.Context, hash string) error {
	return s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		_, err := s.exec(ctx, tx, qDeleteToken, hash)
		return err
	})
}

// gameColumns are the games table's columns, in the order of gameArgs.
var gameColumns = []string{"id", "rules", "start", "preset", "size", "black_id", "white_id", "black_bot", "white_bot",
	"creator_id", "color", "kind", "opponent_id", "invite_hash", "clock", "state", "version", "ply", "entries",
	"black_ms", "white_ms", "turn_ms", "deadline_ms", "warned_entry", "draw_offer", "takeback", "result", "reason",
	"winner", "expires_ms", "created_ms", "updated_ms", "ended_ms",
	"rated", "black_rating", "black_rd", "white_rating", "white_rd",
	"allow_bots"}

var (
	gameCols = strings.Join(gameColumns, ", ")
	// gameSet assigns every column but the id.
	gameSet = strings.Join(gameColumns[1:], " = ?, ") + " = ?"
	// gamePlaceholders are the values of an insert.
	gamePlaceholders = strings.TrimSuffix(strings.Repeat("?, ", len(gameColumns)), ", ")
)

// The statements a write runs in a transaction: prepared when the store
// is made, since preparing one at the database level in the middle of a
// transaction would need a second connection from the pool.
var (
	qInsertAccount = `INSERT INTO accounts (name, name_key, pass_hash, email, confirm_moves, created_ms, bot)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`
	qUpdateAccount = `UPDATE accounts SET pass_hash = ?, email = ?, confirm_moves = ? WHERE id = ?`
	qInsertToken   = `INSERT INTO tokens (hash, account_id, kind, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?)`
	qDeleteToken   = `DELETE FROM tokens WHERE hash = ?`
	qSetPassword   = `UPDATE accounts SET pass_hash = ? WHERE id = ?`
	// qDeleteTokensBut deletes an account's tokens but one.
	qDeleteTokensBut = `DELETE FROM tokens WHERE account_id = ? AND hash <> ?`
	qInsertGame      = `INSERT INTO games (` + gameCols + `) VALUES (` + gamePlaceholders + `)`
	qUpdateGame      = `UPDATE games SET ` + gameSet + ` WHERE id = ? AND version = ? AND entries = ?`
	qGameVersion     = `SELECT version, entries FROM games WHERE id = ?`
	qInsertMove      = `INSERT INTO moves (game_id, n, move, undo, by_id, at_ms, black_ms, white_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
	qInsertAnalysis  = `INSERT INTO analyses (game_id, body, created_ms) VALUES (?, ?, ?)`
	// qMove is a change with one log entry in one statement (WritingWith):
	// the entry is inserted only if the update found the game at its
	// version.
	qMove = `WITH changed AS (UPDATE games SET ` + gameSet + ` WHERE id = ? AND version = ? AND entries = ? RETURNING id)
		INSERT INTO moves (game_id, n, move, undo, by_id, at_ms, black_ms, white_ms) SELECT id, ?, ?, ?, ?, ?, ?, ? FROM changed`
	// The savepoint of each write in a group commit's batch.
	qSavepoint  = `SAVEPOINT w`
	qRollbackTo = `ROLLBACK TO w`
	qRelease    = `RELEASE w`

	txQueries = []string{qInsertAccount, qUpdateAccount, qInsertToken, qDeleteToken, qSetPassword, qDeleteTokensBut, qInsertGame, qUpdateGame,
		qGameVersion, qInsertMove, qInsertAnalysis}
)

// maxUpdateShapes bounds the statements updateGame prepares: past it, a
// change with a set of columns not seen yet sets them all.
const maxUpdateShapes = 256

// updateGame is the statement that writes g over prev, setting the
// columns in which they differ (and always the version), with its
// arguments. Each set of columns is a statement of its own, prepared once:
// a move of a game without a clock sets four, a live game's more; there
// are a few dozen sets in all (maxUpdateShapes bounds them).
func (s *Store) updateGame(g, prev store.Game, before int) (string, []any) {
	now, was := gameArgs(g), gameArgs(prev)
	var b strings.Builder
	b.WriteString("UPDATE games SET ")
	args := make([]any, 0, len(now)+2)
	for i := 1; i < len(gameColumns); i++ {
		if now[i] == was[i] && gameColumns[i] != "version" {
			continue
		}
		if len(args) > 0 {
			b.WriteString(", ")
		}
		b.WriteString(gameColumns[i])
		b.WriteString(" = ?")
		args = append(args, now[i])
	}
	b.WriteString(" WHERE id = ? AND version = ? AND entries = ?")
	q := b.String()
	if _, ok := s.stmts.Load(q); !ok && s.updateShapes.Add(1) > maxUpdateShapes {
		return qUpdateGame, append(now[1:], g.ID, prev.Version, before)
	}
	return q, append(args, g.ID, prev.Version, before)
}

func gameArgs(g store.Game) []any {
	return []any{g.ID, g.Rules, g.Start, g.Preset, g.Size, g.Black.AccountID, g.White.AccountID, g.Black.Bot, g.White.Bot,
		g.Creator, g.Color, g.Kind, g.Opponent, g.InviteHash, g.Clock, g.State, g.Version, g.Ply, g.Entries,
		g.BlackLeft.Milliseconds(), g.WhiteLeft.Milliseconds(), ms(g.TurnStart), ms(g.Deadline), g.WarnedEntry,
		g.DrawOffer, g.Takeback, g.Result, g.Reason, g.Winner, ms(g.Expires), ms(g.Created), ms(g.Updated), ms(g.Ended),
		b2i(g.Rated), g.BlackRating.Rating, g.BlackRating.RD, g.WhiteRating.Rating, g.WhiteRating.RD,
		b2i(g.AllowBots)}
}

func scanGame(row scanner) (store.Game, error) {
	var g store.Game
	var black, white, turn, deadline, expires, created, updated, ended int64
	var rated, allowBots int
	err := row.Scan(&g.ID, &g.Rules, &g.Start, &g.Preset, &g.Size, &g.Black.AccountID, &g.White.AccountID, &g.Black.Bot, &g.White.Bot,
		&g.Creator, &g.Color, &g.Kind, &g.Opponent, &g.InviteHash, &g.Clock, &g.State, &g.Version, &g.Ply, &g.Entries,
		&black, &white, &turn, &deadline, &g.WarnedEntry, &g.DrawOffer, &g.Takeback, &g.Result, &g.Reason, &g.Winner,
		&expires, &created, &updated, &ended,
		&rated, &g.BlackRating.Rating, &g.BlackRating.RD, &g.WhiteRating.Rating, &g.WhiteRating.RD,
		&allowBots)
	g.Rated, g.AllowBots = rated != 0, allowBots != 0
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
	err := s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		_, err := s.exec(ctx, tx, qInsertGame, gameArgs(g)...)
		return err
	})
	if err != nil && s.unique(err) {
		return fmt.Errorf("game %s: %w", g.ID, store.ErrDuplicate)
	}
	return err
}

// Game returns a game and its log. It needs no transaction: the row is
// read first, and the log is append-only, so its first Entries entries are
// the ones of the row read, whatever was written since.
func (s *Store) Game(ctx context.Context, id string) (store.Game, []store.Entry, error) {
	g, err := scanGame(s.row(ctx, nil, `SELECT `+gameCols+` FROM games WHERE id = ?`, id))
	if err != nil {
		return g, nil, err
	}
	if g.Entries == 0 {
		return g, nil, nil
	}
	rows, err := s.query(ctx, `SELECT n, move, undo, by_id, at_ms, black_ms, white_ms FROM moves WHERE game_id = ? AND n < ? ORDER BY n`, id, g.Entries)
	if err != nil {
		return g, nil, err
	}
	defer rows.Close()
	log := make([]store.Entry, 0, g.Entries)
	for rows.Next() {
		e := store.Entry{GameID: id}
		var at, black, white int64
		if err := rows.Scan(&e.N, &e.Move, &e.Undo, &e.By, &at, &black, &white); err != nil {
			return g, nil, err
		}
		if e.N != len(log) {
			return g, nil, fmt.Errorf("game %s: log entry %d stored where %d belongs", id, e.N, len(log))
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
	return g, log, nil
}

// Update writes g over prev when the stored game is still at prev's
// version, and appends the entries, in one transaction: the update's own
// condition is the version check (and the entries count, which must add
// up); only when it changed nothing is the row read, to say why. The
// update sets only the columns in which g differs from prev (updateGame):
// on SQLite every index holding a column the statement sets is rewritten,
// even to the same value, and a move of a game without a clock changes
// four columns of the game's, where setting them all rewrote the leaves
// of seven indexes (10 pages to the write-ahead log for a move alone,
// against 7: measured with the sqlite3 shell on a server's database).
// Where the database takes an UPDATE in a WITH clause, a change of one
// entry (a move) is a single statement instead. A change that finishes a
// rated game also updates its players' ratings in the same transaction
// (rate, ratings.go: update.Game), so the version check that lets one writer finish
// the game lets one rate it.
func (s *Store) Update(ctx context.Context, g store.Game, prev store.Game, entries []store.Entry) error {
	expect := prev.Version
	if g.Version != expect+1 || g.ID != prev.ID {
		return fmt.Errorf("update of game %s: version %d after %d of game %s: a change adds one to its own game", g.ID, g.Version, expect, prev.ID)
	}
	before := g.Entries - len(entries)
	if s.w == nil && s.d.WritingWith && len(entries) == 1 && !update.Rates(g) {
		args := append(gameArgs(g)[1:], g.ID, expect, before)
		e := entries[0]
		res, err := s.exec(ctx, nil, qMove, append(args, before, e.Move, e.Undo, e.By, ms(e.At), e.BlackLeft.Milliseconds(), e.WhiteLeft.Milliseconds())...)
		if err != nil {
			if s.unique(err) {
				return fmt.Errorf("game %s entry %d: %w", g.ID, before, store.ErrConflict)
			}
			return err
		}
		return s.changed(ctx, nil, res, g, expect, len(entries))
	}
	query, args := s.updateGame(g, prev, before)
	if _, err := s.stmt(ctx, query); err != nil { // prepared once, outside the write's transaction
		return err
	}
	return s.write(ctx, true, func(ctx context.Context, tx *sql.Tx) error {
		res, err := s.exec(ctx, tx, query, args...)
		if err != nil {
			return err
		}
		if err := s.changed(ctx, tx, res, g, expect, len(entries)); err != nil {
			return err
		}
		if err := s.rate(ctx, tx, g); err != nil {
			return err
		}
		for i, e := range entries {
			_, err := s.exec(ctx, tx, qInsertMove,
				g.ID, before+i, e.Move, e.Undo, e.By, ms(e.At), e.BlackLeft.Milliseconds(), e.WhiteLeft.Milliseconds())
			if err != nil {
				if s.unique(err) {
					return fmt.Errorf("game %s entry %d: %w", g.ID, before+i, store.ErrConflict)
				}
				return err
			}
		}
		return nil
	})
}

// changed checks that an update of game g from version expect changed its
// row; if not, it says why: ErrConflict when the game has moved on, an
// error when the entries do not add up (a programming error).
func (s *Store) changed(ctx context.Context, tx *sql.Tx, res sql.Result, g store.Game, expect, added int) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 1 {
		return nil
	}
	var version, stored int
	err = s.row(ctx, tx, qGameVersion, g.ID).Scan(&version, &stored)
	if err == nil && version == expect {
		return fmt.Errorf("update of game %s: %d entries after %d and %d new", g.ID, g.Entries, stored, added)
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	return fmt.Errorf("game %s at version %d: %w", g.ID, expect, store.ErrConflict)
}

// Games lists games by the filter, the most recently updated first. Each
// shape of the filter is one prepared statement (a few dozen are used).
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
	if f.Kind != "" {
		where = append(where, "kind = ?")
		args = append(args, f.Kind)
	}
	if f.Opponent != 0 {
		where = append(where, "opponent_id = ?")
		args = append(args, f.Opponent)
	}
	if !f.Live.IsZero() {
		where = append(where, "(expires_ms = 0 OR expires_ms > ?)")
		args = append(args, ms(f.Live))
	}
	q := `SELECT ` + gameCols + ` FROM games`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	limit := f.Limit
	if limit <= 0 || limit > 200 {
		limit = 200
	}
	q += " ORDER BY updated_ms DESC, id LIMIT ?"
	return s.games(ctx, q, append(args, limit)...)
}

// PlayerStats counts the account's finished games in one query, over all
// of them.
func (s *Store) PlayerStats(ctx context.Context, account int64) (store.Stats, error) {
	var st store.Stats
	err := s.row(ctx, nil, `SELECT COUNT(*),
		COALESCE(SUM(CASE WHEN (black_id = ? AND winner = 'x') OR (white_id = ? AND winner = 'o') THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN (black_id = ? AND winner = 'o') OR (white_id = ? AND winner = 'x') THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN winner = 'draw' THEN 1 ELSE 0 END), 0)
		FROM games WHERE state = ? AND (black_id = ? OR white_id = ?)`,
		account, account, account, account, store.StateFinished, account, account).
		Scan(&st.Finished, &st.Wins, &st.Losses, &st.Draws)
	return st, err
}

// claimGames selects the games where account ? sits or is challenged (the
// creator always sits); claimShared is the condition that account ? has a
// part in a game.
const (
	claimGames  = `SELECT id FROM games WHERE black_id = ? UNION SELECT id FROM games WHERE white_id = ? UNION SELECT id FROM games WHERE opponent_id = ?`
	claimShared = `(black_id = ? OR white_id = ? OR creator_id = ? OR opponent_id = ?)`
)

// ClaimGames moves a guest's games to an account in one transaction: the
// games the account already has a part in are listed and kept, the others
// rewritten, each one version on.
func (s *Store) ClaimGames(ctx context.Context, from, to int64) (store.Claim, error) {
	var c store.Claim
	if from == 0 || to == 0 || from == to {
		return c, fmt.Errorf("claiming the games of account %d for %d: two different accounts are needed", from, to)
	}
	err := s.write(ctx, true, func(ctx context.Context, tx *sql.Tx) error {
		c = store.Claim{}
		kept, err := s.ids(ctx, tx, `SELECT id FROM games WHERE id IN (`+claimGames+`) AND `+claimShared+` ORDER BY id`,
			from, from, from, to, to, to, to)
		if err != nil {
			return err
		}
		moved, err := s.ids(ctx, tx, `UPDATE games SET
			black_id = CASE WHEN black_id = ? THEN ? ELSE black_id END,
			white_id = CASE WHEN white_id = ? THEN ? ELSE white_id END,
			creator_id = CASE WHEN creator_id = ? THEN ? ELSE creator_id END,
			opponent_id = CASE WHEN opponent_id = ? THEN ? ELSE opponent_id END,
			version = version + 1
			WHERE id IN (`+claimGames+`) AND NOT `+claimShared+` RETURNING id`,
			from, to, from, to, from, to, from, to, from, from, from, to, to, to, to)
		if err != nil {
			return err
		}
		slices.Sort(moved)
		c.Moved, c.Kept = moved, kept
		return nil
	})
	return c, err
}

// ids runs a statement that returns one column of ids, in tx (or on the
// database when tx is nil).
func (s *Store) ids(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]string, error) {
	st, err := s.on(ctx, tx, query)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

func (s *Store) games(ctx context.Context, q string, args ...any) ([]store.Game, error) {
	rows, err := s.query(ctx, q, args...)
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

// Beat records that process proc is alive, or stopped, at now.
func (s *Store) Beat(ctx context.Context, proc string, now time.Time, stopped bool) error {
	return s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		_, err := s.exec(ctx, tx, qBeat, proc, ms(now), b2i(stopped))
		return err
	})
}

const qBeat = `INSERT INTO processes (id, beat_ms, stopped) VALUES (?, ?, ?)
	ON CONFLICT (id) DO UPDATE SET beat_ms = excluded.beat_ms, stopped = excluded.stopped`

// resumeLock is the PostgreSQL advisory lock that serialises the starts of
// processes ("alak" + 1 in ASCII; pgstore's migration lock is "alak").
const resumeLock = 0x616c616c

// Resume registers process r.Process and, when no other is alive, moves
// the active games' clocks on by the time since the last beat, in one
// transaction: on PostgreSQL under an advisory lock held to its end, on
// SQLite under the database's write lock (every writing transaction takes
// it at its start).
func (s *Store) Resume(ctx context.Context, r store.Resume) (time.Duration, error) {
	var down time.Duration
	err := s.write(ctx, true, func(ctx context.Context, tx *sql.Tx) error {
		down = 0
		if s.d.Name == "postgres" {
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, resumeLock); err != nil {
				return err
			}
		}
		now := ms(r.Now)
		var last, alive int64
		err := s.row(ctx, tx, `SELECT COALESCE(MAX(beat_ms), 0), COALESCE(SUM(CASE WHEN stopped = 0 AND beat_ms > ? THEN 1 ELSE 0 END), 0)
			FROM processes WHERE id <> ?`, now-r.Stale.Milliseconds(), r.Process).Scan(&last, &alive)
		if err != nil {
			return err
		}
		if alive == 0 && last > 0 && now > last {
			down = dur(now - last)
			kinds := []string{"live:%"}
			if down > r.DaysAfter {
				kinds = append(kinds, "days:%")
			}
			for _, k := range kinds {
				_, err := s.exec(ctx, tx, `UPDATE games SET turn_ms = turn_ms + ?, deadline_ms = deadline_ms + ?, version = version + 1
					WHERE state = ? AND deadline_ms > 0 AND clock LIKE ?`, now-last, now-last, store.StateActive, k)
				if err != nil {
					return err
				}
			}
		}
		// The others that stopped or are gone are no longer needed: this
		// process's beat is now the last.
		if _, err := s.exec(ctx, tx, `DELETE FROM processes WHERE id <> ? AND (stopped = 1 OR beat_ms <= ?)`, r.Process, now-r.Stale.Milliseconds()); err != nil {
			return err
		}
		_, err = s.exec(ctx, tx, qBeat, r.Process, now, 0)
		return err
	})
	return down, err
}

// SaveAnalysis keeps a finished game's analysis.
func (s *Store) SaveAnalysis(ctx context.Context, gameID string, body []byte) error {
	err := s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		_, err := s.exec(ctx, tx, qInsertAnalysis, gameID, string(body), ms(time.Now()))
		return err
	})
	if err != nil && s.unique(err) {
		return store.ErrDuplicate
	}
	return err
}

// Analysis returns a game's analysis.
func (s *Store) Analysis(ctx context.Context, gameID string) ([]byte, error) {
	var body string
	err := s.row(ctx, nil, `SELECT body FROM analyses WHERE game_id = ?`, gameID).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	return []byte(body), err
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	return s.row(ctx, nil, `SELECT 1`).Scan(&one)
}

// Close stops the group commit (the writes under way are committed first,
// those still waiting refused), closes the statements and the database.
func (s *Store) Close() error {
	if s.w != nil {
		s.w.close()
	}
	s.stmts.Range(func(_, st any) bool {
		st.(*sql.Stmt).Close()
		return true
	})
	return s.db.Close()
}
