package analysis

// The analysis board: the page /analysis, and the calls its
// script makes besides GET /api/analysis and GET /api/explorer
// (positions.go, explorer.go): the position after a line of moves from
// any start, played with the kernel (GET /api/board), and SGF with
// variations read (POST /api/board/sgf) and written (POST
// /api/board/sgf/export) by the notation package.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"alak/internal/clip"
	"alak/notation"
	"alak/rules"
	"alak/server/internal/httpx"
	"alak/server/internal/pages"
	"alak/server/store"
	"alak/session"
	"alak/wire"
)

// MaxBoardMoves bounds the line of one GET /api/board: the longest line
// the board keeps.
const MaxBoardMoves = 1000

// MaxBoardBody bounds the SGF read and the tree written by the board's
// SGF calls.
const MaxBoardBody = 1 << 20

// BoardPage is what /analysis is given (pages.Page.Board): the create form's rules, and a
// finished game to open (?game=ID) or the sentence saying why it is not
// opened.
type BoardPage struct {
	GameID string
	Rules  string // the game's rules, rules.Rules.String
	Start  string // a set-up start's diagram, "" for the rules' own
	ToMove string // the set-up start's player to move
	Moves  string // the game's moves, comma-separated (MoveText)
	Refuse string

	// Box and Width are the board drawing's size (pages.BoardBox), drawn empty
	// until the script draws the board, so that nothing under it moves.
	Box   string
	Width int
}

// analysisBox is the size of the analysis board's drawing (pages.BoardBox)
// for the rules the page opens: a game's (gameRules), or the address's as
// analysis.js reads them (rules=, alak size=11 when absent, and size=
// when the rules have none); "" and 0 when they do not parse.
func analysisBox(gameRules string, q url.Values) (string, int) {
	text := gameRules
	if text == "" {
		text = q.Get("rules")
		if text == "" {
			text = "alak size=11"
		}
		if size := q.Get("size"); size != "" && !strings.Contains(" "+text, " size=") {
			text += " size=" + size
		}
	}
	if len(text) > 300 {
		return "", 0
	}
	rs, err := rules.Parse(text)
	if err != nil {
		return "", 0
	}
	return pages.BoardBox(pages.Shape(rs), rs.Width, rs.Height)
}

// handleAnalysisPage draws the board; ?game=ID opens a game, but only a
// finished one: a game in progress is never shown on the analysis board
// (fair play).
func (a *Analysis) handleAnalysisPage(w http.ResponseWriter, r *http.Request) {
	b := &BoardPage{}
	if id := r.URL.Query().Get("game"); id != "" {
		sg, err := a.cfg.Load(r.Context(), id)
		switch {
		case err != nil:
			b.Refuse = "There is no game " + clip.Text(id) + "."
		case sg.Row.State != store.StateFinished:
			b.Refuse = "Game " + id + " is not over: the analysis board opens a game once it is finished."
		default:
			g := sg.Game
			b.GameID, b.Rules = id, sg.Rules.String()
			if start, err := rules.NewPosition(sg.Rules); err != nil || start.String() != g.Start().String() || start.ToMove() != g.Start().ToMove() {
				b.Start, b.ToMove = g.Start().String(), g.Start().ToMove().Letter()
			}
			var ms []string
			for _, m := range g.Moves() {
				if m != rules.Resign {
					ms = append(ms, sg.Rules.MoveText(m))
				}
			}
			b.Moves = strings.Join(ms, ",")
		}
	}
	b.Box, b.Width = analysisBox(b.Rules, r.URL.Query())
	a.cfg.Pages.Render(w, r, "analysis", pages.Page{Title: "analysis board", Page: "analysis", Forms: a.cfg.Pages.Forms, Board: b})
}

// boardStart reads the rules and the start of a board call: rules=... (a
// preset and options, rules.Parse; alak when absent), and position=
// (a diagram, rules.ParseDiagram) with to_move=x|o, or the rules' start.
func boardStart(rulesText, position, toMove string) (rules.Rules, rules.Position, error) {
	bad := func(format string, a ...any) (rules.Rules, rules.Position, error) {
		return rules.Rules{}, rules.Position{}, httpx.Errf(wire.BadInput, "bad_position", format, a...)
	}
	if len(rulesText) > 300 || len(position) > 5000 {
		return bad("the rules are at most 300 characters and the position 5000")
	}
	rs, err := rules.Parse(rulesText)
	if err != nil {
		return bad("rules %q: %s", clip.Text(rulesText), err)
	}
	if position == "" {
		pos, err := rules.NewPosition(rs)
		if err != nil {
			return bad("rules %q: %s", clip.Text(rulesText), err)
		}
		return rs, pos, nil
	}
	c, err := rules.ParseColor(toMove)
	if err != nil {
		return bad("to_move=%q: write x (Black) or o (White) with a position", clip.Text(toMove))
	}
	pos, err := rules.ParseDiagram(rs, position, c)
	if err != nil {
		return bad("position %q: %s", clip.Text(position), err)
	}
	if w, h := pos.Size(); w != rs.Width || h != rs.Height {
		return bad("the position is %dx%d but the rules say %s: give size= in the rules", w, h, rs.SizeString())
	}
	return rs, pos, nil
}

// handleBoard plays a line of moves from a start with the kernel and
// answers the position it reaches, as the game's snapshot writes it.
func (a *Analysis) handleBoard(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	rs, start, err := boardStart(q.Get("rules"), q.Get("position"), q.Get("to_move"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	var parts []string
	if t := strings.TrimSpace(q.Get("moves")); t != "" {
		parts = strings.Split(t, ",")
	}
	if len(parts) > MaxBoardMoves {
		a.writeError(w, r, httpx.Errf(wire.BadInput, "bad_line", "a line is at most %d moves", MaxBoardMoves))
		return
	}
	g := rules.NewGameFrom(start)
	line := make([]string, 0, len(parts))
	for i, p := range parts {
		m, err := notation.Human.Decode(rs, p)
		if err == nil && m == rules.Resign {
			err = errors.New("resign is not a move of the board")
		}
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			a.writeError(w, r, httpx.Errf(wire.BadInput, "bad_line", "move %d (%s) cannot be played: %s", i+1, clip.Text(strings.TrimSpace(p)), err))
			return
		}
		line = append(line, rs.MoveText(m))
	}
	sn := session.New(g, session.Seat{}, session.Seat{}, session.Options{}).Snapshot()
	httpx.WriteJSON(w, http.StatusOK, wire.Board{Rules: rs.String(), Shape: pages.Shape(rs), Width: rs.Width, Height: rs.Height, Moves: line, Position: sn})
}

// handleBoardSGF reads an SGF file (the body, at most MaxBoardBody bytes)
// with its variations.
func (a *Analysis) handleBoardSGF(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBoardBody))
	if err != nil {
		a.writeError(w, r, httpx.Errf(wire.TooLarge, "too_large", "an SGF file of at most %d bytes is read", MaxBoardBody))
		return
	}
	rec, tree, err := notation.ReadSGFTree(body)
	if err != nil {
		a.writeError(w, r, httpx.Errf(wire.BadInput, "bad_sgf", "the SGF cannot be read: %s", err))
		return
	}
	v := wire.BoardTree{Rules: rec.Rules.String(), Comment: rec.Comments[0], Tree: treeView(rec.Rules, tree)}
	start := rec.Start
	if std, err := rules.NewPosition(rec.Rules); err == nil && start.Points() > 0 && (start.String() != std.String() || start.ToMove() != std.ToMove()) {
		v.Position, v.ToMove = start.String(), start.ToMove().Letter()
	}
	httpx.WriteJSON(w, http.StatusOK, v)
}

func treeView(r rules.Rules, vs []*notation.Variation) []wire.BoardNode {
	out := make([]wire.BoardNode, 0, len(vs))
	for _, v := range vs {
		out = append(out, wire.BoardNode{Move: r.MoveText(v.Move), Comment: v.Comment, Children: treeView(r, v.Children)})
	}
	return out
}

// handleBoardSGFExport writes the board's tree (a wire.BoardTree in JSON) as
// SGF with its variations, each move checked with the kernel.
func (a *Analysis) handleBoardSGFExport(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBoardBody))
	if err != nil {
		a.writeError(w, r, httpx.Errf(wire.TooLarge, "too_large", "a tree of at most %d bytes is written", MaxBoardBody))
		return
	}
	var req wire.BoardTree
	if err := httpx.DecodeBytes(body, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	rs, start, err := boardStart(req.Rules, req.Position, req.ToMove)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	n := 0
	tree, err := treeOf(rs, req.Tree, &n)
	if err != nil {
		a.writeError(w, r, httpx.Errf(wire.BadInput, "bad_tree", "%s", err))
		return
	}
	rec := notation.Record{Rules: rs, Comments: map[int]string{0: req.Comment}}
	if req.Position != "" {
		rec.Start = start
	}
	var buf bytes.Buffer
	if err := notation.WriteSGFTree(&buf, rec, tree); err != nil {
		a.writeError(w, r, httpx.Errf(wire.BadInput, "bad_tree", "%s", err))
		return
	}
	w.Header().Set("Content-Type", "application/x-go-sgf; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="analysis.sgf"`)
	w.Write(buf.Bytes())
}

// treeOf reads the moves of a tree in any notation, counting them in n.
func treeOf(r rules.Rules, nodes []wire.BoardNode, n *int) ([]*notation.Variation, error) {
	var out []*notation.Variation
	for _, nd := range nodes {
		if *n++; *n > notation.MaxTreeMoves {
			return nil, fmt.Errorf("a tree holds at most %d moves", notation.MaxTreeMoves)
		}
		m, err := notation.Human.Decode(r, nd.Move)
		if err != nil {
			return nil, err
		}
		kids, err := treeOf(r, nd.Children, n)
		if err != nil {
			return nil, err
		}
		out = append(out, &notation.Variation{Move: m, Comment: nd.Comment, Children: kids})
	}
	return out, nil
}
