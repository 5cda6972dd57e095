// Package command reads a player's command, one way for every way of
// playing: the move call of the API (which the pages and the bots use
// too) and the first line of a mailed reply. Only what each way takes
// besides moves, and the sentences saying so, differ (Syntax: API,
// Mail).
//
//	cmd, err := command.API.Parse(st.Rules, req.Move)
//	if cmd.Kind == command.Resign { ... }
//
// It touches no store and no game: it reads text under a game's rules,
// and the rules judge the move when it is played.
package command

import (
	"errors"
	"strings"

	"alak/notation"
	"alak/rules"
	"alak/server/internal/httpx"
	"alak/wire"
)

// Kind is what a command asks for.
type Kind uint8

const (
	Move   Kind = iota // a move: a point, a slide, a pass (Command.Move)
	Resign             // resign
	Draw               // offer a draw, or accept the opponent's
	Board              // send the board again
	Empty              // no text at all
)

// Command is a command read from a player's text.
type Command struct {
	Kind Kind
	Move rules.Move // the move of Kind Move
}

// MaxLen is the longest text read as a move: a move is a few bytes, and
// a longer text is refused unread.
const MaxLen = 20

// Syntax is what one way of playing takes as a command, and how it says
// what it takes.
type Syntax struct {
	// words: "draw", "board" (in any case) and the empty text are
	// commands; otherwise they are read as moves, and refused as such.
	words bool
	// tooLong is the refusal of a text over MaxLen bytes.
	tooLong string
	// unreadable formats the refusal of a text notation cannot read as a
	// move: the text (%q) and why (%s).
	unreadable string
}

var (
	// API is POST /api/games/{id}/moves's: moves and resign.
	API = Syntax{
		tooLong:    "a move is a point (3, c, C1), a slide (1-4), pass or resign",
		unreadable: "cannot read %q: %s",
	}
	// Mail is a mailed reply's: moves, resign, draw and board.
	Mail = Syntax{
		words:      true,
		tooLong:    "a move is a point (3, c, C1), a slide (1-4), pass, resign, draw or board",
		unreadable: "cannot read %q as a move: %s (a move is a point such as 3, pass, resign; or write draw or board)",
	}
)

// Parse reads text as a command of the game under rules r, in any
// notation alak reads (notation.Human: 3, c, C1, 1-4, pass, resign). A
// text it cannot read is refused as wire.BadInput ("bad_move"), saying
// what is accepted. It does not judge the move: the rules do, when it is
// played.
func (cs Syntax) Parse(r rules.Rules, text string) (Command, error) {
	if cs.words {
		switch strings.ToLower(text) {
		case "":
			return Command{Kind: Empty}, nil
		case "board":
			return Command{Kind: Board}, nil
		case "draw":
			return Command{Kind: Draw}, nil
		}
	}
	if len(text) > MaxLen {
		return Command{}, httpx.Errf(wire.BadInput, "bad_move", "%s", cs.tooLong)
	}
	m, err := notation.Human.Decode(r, text)
	if err != nil {
		var pe *notation.ParseError
		if errors.As(err, &pe) {
			return Command{}, httpx.Errf(wire.BadInput, "bad_move", cs.unreadable, pe.Input, pe.Msg)
		}
		return Command{}, httpx.Errf(wire.BadInput, "bad_move", "%s", err)
	}
	if m == rules.Resign {
		return Command{Kind: Resign}, nil
	}
	return Command{Kind: Move, Move: m}, nil
}
