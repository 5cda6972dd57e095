package conditional

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"time"

	"alak/internal/clip"
	"alak/notation"
	"alak/rules"
	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/session"
	"alak/wire"
)

// Config is what the conditional moves take from the rest of the server.
type Config struct {
	// Store is the store's conditional moves role.
	Store store.ConditionalStore
	// Core is the game core: a call runs under the game's lock on the game
	// as stored, and a stored tree drops the state the core keeps.
	Core *game.Core
	// Shared says that other processes serve the store too (the server's
	// Notifier is set): the trees a state holds may then be stale, and
	// are read from the store at each move.
	Shared bool
	// Metrics counts a reply played as a move stored.
	Metrics *game.Metrics
	Log     *slog.Logger
	Now     func() time.Time
}

// Service is the conditional moves: the API's calls (GET, PUT and DELETE
// /api/games/{id}/conditional), the reply played when a move names one
// (Reply, the core's Played hook) and the line the mail gives about them
// (Note). It holds no state of its own.
type Service struct {
	cfg Config
}

// New returns the conditional moves over what cfg gives them.
func New(cfg Config) *Service { return &Service{cfg: cfg} }

// writeError answers err as JSON with its kind's status (httpx.WriteError).
func (cm *Service) writeError(w http.ResponseWriter, r *http.Request, err error) {
	httpx.WriteError(cm.cfg.Log, w, r, err)
}

// Bounds of a tree: the plies it looks ahead and the answers it holds.
const (
	maxConditionalDepth = 60
	maxConditionalNodes = 500
)

// conditionalGame reports whether conditional moves may be left in the
// game: a game between two people by correspondence or without a clock
// (a live game moves too fast for them to matter).
func conditionalGame(st *game.State) bool {
	return (st.Clock.Kind == game.ClockDays || st.Clock.Kind == game.ClockNone) &&
		st.Row.Black.Bot == "" && st.Row.White.Bot == "" &&
		st.Row.Black.AccountID != 0 && st.Row.White.AccountID != 0
}

// readTree checks a tree sent by a player and writes its moves in the one
// move form (rules.Rules.MoveText), so that it matches the moves played
// whatever notation it was written in. It does not check that the moves
// are legal: the kernel does when one is to be played.
func readTree(r rules.Rules, tree map[string]*wire.CondNode) (map[string]*wire.CondNode, error) {
	nodes := 0
	var read func(t map[string]*wire.CondNode, path string, depth int) (map[string]*wire.CondNode, error)
	bad := func(path, format string, a ...any) error {
		where := "at the top of the tree"
		if path != "" {
			where = "after " + path
		}
		return httpx.Errf(wire.BadInput, "bad_conditional", "conditional moves, %s: %s", where, fmt.Sprintf(format, a...))
	}
	move := func(text, path string) (string, error) {
		if len(text) > 20 {
			return "", bad(path, "%q is not a move: a move is a point (3, c, C1), a slide (1-4) or pass", clip.Text(text))
		}
		m, err := notation.Human.Decode(r, text)
		if err != nil {
			return "", bad(path, "cannot read %q: %s", clip.Text(text), err)
		}
		if m == rules.Resign {
			return "", bad(path, "resign cannot be a conditional move")
		}
		return r.MoveText(m), nil
	}
	read = func(t map[string]*wire.CondNode, path string, depth int) (map[string]*wire.CondNode, error) {
		if len(t) == 0 {
			return nil, nil
		}
		if depth+2 > maxConditionalDepth {
			return nil, bad(path, "the tree looks more than %d moves ahead", maxConditionalDepth)
		}
		out := make(map[string]*wire.CondNode, len(t))
		for _, key := range sortedKeys(t) {
			n := t[key]
			if nodes++; nodes > maxConditionalNodes {
				return nil, bad("", "the tree holds more than %d answers", maxConditionalNodes)
			}
			k, err := move(key, path)
			if err != nil {
				return nil, err
			}
			if _, dup := out[k]; dup {
				return nil, bad(path, "the opponent's move %s is named twice", k)
			}
			here := strings.TrimSpace(path + " " + k)
			if n == nil || strings.TrimSpace(n.Move) == "" {
				return nil, bad(here, `no answer: each of the opponent's moves takes {"move": "..."}`)
			}
			reply, err := move(n.Move, here)
			if err != nil {
				return nil, err
			}
			then, err := read(n.Then, here+" "+reply, depth+2)
			if err != nil {
				return nil, err
			}
			out[k] = &wire.CondNode{Move: reply, Then: then}
		}
		return out, nil
	}
	return read(tree, "", 0)
}

func sortedKeys(t map[string]*wire.CondNode) []string {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// condIndex is the index of c's seat in game.State.Conds.
func condIndex(c rules.Color) int {
	if c == rules.White {
		return 1
	}
	return 0
}

// stored returns c's conditional moves in the game, and
// whether c has any row: from the state when this process knows them,
// else from the store.
func (cm *Service) stored(ctx context.Context, st *game.State, c rules.Color) (store.Conditional, bool, error) {
	k := &st.Conds[condIndex(c)]
	if cm.kept(st, c) {
		return k.Row, k.Found, nil
	}
	row, err := cm.cfg.Store.Conditional(ctx, st.Row.ID, c.Letter())
	switch {
	case errors.Is(err, store.ErrNotFound):
		*k = game.CondSeat{Known: true}
		return row, false, nil
	case err != nil:
		*k = game.CondSeat{}
		return row, false, err
	}
	*k = game.CondSeat{Known: true, Found: true, Row: row}
	return row, true, nil
}

// kept says whether stored answers for seat c from the state this process
// keeps, without reading the store.
func (cm *Service) kept(st *game.State, c rules.Color) bool {
	return st.Conds[condIndex(c)].Known && !cm.cfg.Shared
}

// set stores a seat's conditional moves from a request on the game as
// read from the store (call, under the game's lock),
// and drops the state this process keeps of the game, whose conds would
// be stale: the next change reads the game again.
func (cm *Service) set(ctx context.Context, row store.Conditional) error {
	err := cm.cfg.Store.SetConditional(ctx, row)
	cm.cfg.Core.States.Take(row.GameID)
	return err
}

// conditionalSeat checks that a may see or leave conditional moves in the
// game and returns a's colour.
func conditionalSeat(st *game.State, a *store.Account) (rules.Color, error) {
	c, ok := st.SeatOf(a)
	if !ok {
		return rules.None, httpx.Errf(wire.Forbidden, "not_your_game", "conditional moves are their owner's: you are not a player of this game")
	}
	return c, nil
}

// of reads a seat's row; a seat that never left any has an
// empty one.
func (cm *Service) of(ctx context.Context, st *game.State, c rules.Color) (store.Conditional, error) {
	row, err := cm.cfg.Store.Conditional(ctx, st.Row.ID, c.Letter())
	if errors.Is(err, store.ErrNotFound) {
		return store.Conditional{GameID: st.Row.ID, Color: c.Letter(), Played: -1, NoteEntry: -1}, nil
	}
	return row, err
}

// conditionalView is what GET shows the owner: the tree while it holds,
// and the note about the last one.
func conditionalView(st *game.State, row store.Conditional) wire.Conditional {
	v := wire.Conditional{Ply: st.Sess.Ply(), Tree: map[string]*wire.CondNode{}, Note: row.Note}
	if row.Tree != "" && row.Entry == st.Row.Entries && st.Row.State == store.StateActive {
		if err := json.Unmarshal([]byte(row.Tree), &v.Tree); err != nil {
			v.Tree = map[string]*wire.CondNode{}
		}
	}
	return v
}

// ServeGet is GET /api/games/{id}/conditional[?line=...]: the caller's
// tree while it holds and the note about the last one, and with line, the
// line played after the game's moves for the page's editor.
func (cm *Service) ServeGet(w http.ResponseWriter, r *http.Request) {
	cm.call(w, r, func(st *game.State, c rules.Color, row store.Conditional) (wire.Conditional, error) {
		v := conditionalView(st, row)
		if r.URL.Query().Has("line") {
			line, pos, err := previewLine(st, r.URL.Query().Get("line"))
			if err != nil {
				return wire.Conditional{}, err
			}
			v.Line, v.Position = line, &pos
		}
		return v, nil
	})
}

// previewLine plays a line of moves (comma-separated, in any notation)
// after the game's on a copy, with the kernel, for the page's editor: the
// moves in the one move form and the position they lead to.
func previewLine(st *game.State, text string) ([]string, session.Snapshot, error) {
	bad := func(format string, a ...any) error {
		return httpx.Errf(wire.BadInput, "bad_line", format, a...)
	}
	var parts []string
	if strings.TrimSpace(text) != "" {
		parts = strings.Split(text, ",")
	}
	if len(parts) > maxConditionalDepth {
		return nil, session.Snapshot{}, bad("a line is at most %d moves", maxConditionalDepth)
	}
	g := st.Sess.Game()
	line := make([]string, 0, len(parts))
	for i, p := range parts {
		if len(p) > 20 {
			return nil, session.Snapshot{}, bad("the line's move %d is not a move", i+1)
		}
		m, err := notation.Human.Decode(st.Rules, p)
		if err == nil && m == rules.Resign {
			err = errors.New("resign cannot be a conditional move")
		}
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			return nil, session.Snapshot{}, bad("the line's move %d (%s) cannot be played: %s", i+1, clip.Text(strings.TrimSpace(p)), err)
		}
		line = append(line, st.Rules.MoveText(m))
	}
	sess := session.New(g, session.Seat{}, session.Seat{}, session.Options{})
	return line, sess.Snapshot(), nil
}

// ServePut is PUT /api/games/{id}/conditional {"ply": N, "tree": {...}}:
// the caller's tree, replacing the one left, while it is the opponent's
// move.
func (cm *Service) ServePut(w http.ResponseWriter, r *http.Request) {
	var req wire.ConditionalRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		cm.writeError(w, r, err)
		return
	}
	if req.Ply == nil {
		cm.writeError(w, r, httpx.Errf(wire.BadRequest, "no_ply", `conditional moves name the ply they follow: {"ply": N, "tree": {...}}, N the moves already played`))
		return
	}
	cm.call(w, r, func(st *game.State, c rules.Color, row store.Conditional) (wire.Conditional, error) {
		if _, err := st.Player(&store.Account{ID: row.Account}); err != nil {
			return wire.Conditional{}, err
		}
		if !conditionalGame(st) {
			return wire.Conditional{}, httpx.Errf(wire.Conflict, "no_conditional", "conditional moves are for games between two people by correspondence or without a clock; this game's clock is %s", st.Clock.Words())
		}
		if err := st.CheckPly(*req.Ply); err != nil {
			return wire.Conditional{}, err
		}
		if st.Sess.ToMove() == c {
			return wire.Conditional{}, httpx.Errf(wire.Conflict, "your_turn", "it is your move: play it; conditional moves answer your opponent's")
		}
		tree, err := readTree(st.Rules, req.Tree)
		if err != nil {
			return wire.Conditional{}, err
		}
		row.Tree = ""
		if len(tree) > 0 {
			data, err := json.Marshal(tree)
			if err != nil {
				return wire.Conditional{}, err
			}
			row.Tree = string(data)
		}
		row.Entry, row.Ply, row.Note, row.NoteEntry, row.Updated = st.Row.Entries, st.Sess.Ply(), "", -1, cm.cfg.Now()
		if err := cm.set(r.Context(), row); err != nil {
			return wire.Conditional{}, err
		}
		return conditionalView(st, row), nil
	})
}

// ServeDelete is DELETE /api/games/{id}/conditional: the caller's tree
// and note cleared.
func (cm *Service) ServeDelete(w http.ResponseWriter, r *http.Request) {
	cm.call(w, r, func(st *game.State, c rules.Color, row store.Conditional) (wire.Conditional, error) {
		if row.Tree == "" && row.Note == "" {
			return conditionalView(st, row), nil
		}
		row.Tree, row.Note, row.NoteEntry, row.Updated = "", "", -1, cm.cfg.Now()
		if err := cm.set(r.Context(), row); err != nil {
			return wire.Conditional{}, err
		}
		return conditionalView(st, row), nil
	})
}

// call runs f on the game as stored, under the game's lock
// (so a move this process is making is either in or not yet begun), with
// the caller's seat and row.
func (cm *Service) call(w http.ResponseWriter, r *http.Request, f func(st *game.State, c rules.Color, row store.Conditional) (wire.Conditional, error)) {
	a, err := httpx.RequireAccount(r)
	if err != nil {
		cm.writeError(w, r, err)
		return
	}
	id := r.PathValue("id")
	unlock := cm.cfg.Core.LockGame(id)
	defer unlock()
	st, err := cm.cfg.Core.Load(r.Context(), id)
	if err != nil {
		cm.writeError(w, r, err)
		return
	}
	c, err := conditionalSeat(st, a)
	if err != nil {
		cm.writeError(w, r, err)
		return
	}
	row, err := cm.of(r.Context(), st, c)
	if err != nil {
		cm.writeError(w, r, err)
		return
	}
	row.Account = a.ID
	v, err := f(st, c, row)
	if err != nil {
		cm.writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, http.StatusOK, v)
}

// Reply (the core's Played hook) runs in Core.PlayMove once mover's move
// m is played: when
// the opponent left conditional moves that name m, their reply is played
// now, in the same change; the tree left is stored (or cleared, with a
// note when the reply was illegal) once the change is committed, before
// the change's own after (the your-move mail reads it). It cannot be
// stored before: a commit that fails with a conflict is run again on the
// game read afresh, which must find the tree as it was. So in the instant
// between the commit (whose event reaches the opponent's stream) and that
// write, an opponent's next move through another process finds the tree
// left at the old entry and does not use it: with one process the game's
// lock, held through after, rules that out.
func (cm *Service) Reply(st *game.State, mover rules.Color, m rules.Move, now time.Time, ch *game.Change) {
	if !conditionalGame(st) {
		return
	}
	owner := mover.Opp()
	// The read's timeout (a timer) is made only when the store is read:
	// at most moves the seat's row is kept with the state.
	ctx := context.Background()
	if !cm.kept(st, owner) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
	}
	row, found, err := cm.stored(ctx, st, owner)
	if err != nil {
		cm.cfg.Log.Error("reading conditional moves", "game", st.Row.ID, "err", err)
		return
	}
	if !found {
		return
	}
	moveEntry := st.Row.Entries // the entry of m: the change is not yet committed
	if row.Tree == "" || row.Entry != moveEntry {
		return
	}
	var tree map[string]*wire.CondNode
	if err := json.Unmarshal([]byte(row.Tree), &tree); err != nil {
		cm.cfg.Log.Error("stored conditional moves unreadable", "game", st.Row.ID, "err", err)
		return
	}
	row.Tree, row.Updated = "", now
	mt := st.Rules.MoveText(m)
	node := tree[mt]
	if node != nil && !st.Sess.Over() {
		reply, err := st.Rules.ParseMoveText(node.Move)
		if err == nil {
			err = st.Sess.Legal(reply)
		}
		if err == nil {
			paused := st.Paused()
			if err = st.Sess.Play(owner, reply); err == nil {
				st.StartTurn(now)
				if paused {
					st.Pause(now)
				}
				ch.Entries = append(ch.Entries, st.Entry(st.Rules.MoveText(reply), 0, st.AccountOf(owner), now))
				row.Played = moveEntry + 1
				if len(node.Then) > 0 {
					data, _ := json.Marshal(node.Then)
					row.Tree, row.Entry, row.Ply = string(data), moveEntry+2, st.Sess.Ply()
				}
			}
		}
		if err != nil {
			row.Note = fmt.Sprintf("Your conditional answer %s to %s was not played: %s. The rest of your conditional moves are cancelled.",
				node.Move, mt, strings.TrimSuffix(httpx.MoveRefused(st.Rules, err).Error(), "."))
			row.NoteEntry = moveEntry
		}
	}
	before := ch.After
	ch.After = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := cm.cfg.Store.SetConditional(ctx, row); err != nil {
			cm.cfg.Log.Error("storing conditional moves", "game", st.Row.ID, "err", err)
			st.Conds[condIndex(owner)] = game.CondSeat{} // read again at the next move
		} else {
			st.Conds[condIndex(owner)] = game.CondSeat{Known: true, Found: true, Row: row}
		}
		if row.Played == moveEntry+1 {
			cm.cfg.Metrics.Moves.Add(1)
		}
		if before != nil {
			before()
		}
	}
}

// Note is the line the your-move mail (and the answer to a
// mailed move) gives account to about conditional moves: that the
// opponent's last move was played from their conditional moves, or that
// to's own were cancelled by an illegal reply at the last move. "" when
// neither.
func (cm *Service) Note(ctx context.Context, st *game.State, to int64) string {
	c, ok := st.SeatOf(&store.Account{ID: to})
	if !ok || to == 0 || len(st.Log) == 0 {
		return ""
	}
	last := st.Log[len(st.Log)-1]
	var notes []string
	if opp, err := cm.cfg.Store.Conditional(ctx, st.Row.ID, c.Opp().Letter()); err == nil && opp.Played == last.N && last.Move != "" {
		notes = append(notes, fmt.Sprintf("Your opponent's %s was one of their conditional moves, played at once in answer to yours.", last.Move))
	}
	if own, err := cm.cfg.Store.Conditional(ctx, st.Row.ID, c.Letter()); err == nil && own.Note != "" && own.NoteEntry == last.N {
		notes = append(notes, own.Note)
	}
	return strings.Join(notes, " ")
}
