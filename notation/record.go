package notation

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"alak/rules"
)

// Record is a game as files hold it: the rules, the start position, the
// moves, and what SGF records around them. Moves never hold rules.Resign:
// a resignation is written in Result ("B+R" or "W+R").
type Record struct {
	Rules    rules.Rules
	Start    rules.Position // the position the game starts from
	Moves    []rules.Move
	Comments map[int]string // 0: before the first move; k: after move k
	Black    string         // player names (SGF PB, PW)
	White    string
	// Result is the SGF RE form: "B+3", "W+2", "0" for a draw, "B+R"/"W+R"
	// for a resignation, "B+"/"W+" for a win by rule; "" while unfinished.
	Result string
	Date   string
	// Time is the time control of a game played on a clock (SGF TM, OT).
	Time TimeControl
	// TimeLeft holds, for move k (1-based), the time its player had left
	// after it (SGF BL on Black's moves, WL on White's); a move without an
	// entry has none written. Move lists do not carry clocks.
	TimeLeft map[int]time.Duration
}

// NewRecord returns the record of a game: its rules, start, moves and, when
// it is over, its result. A final resignation becomes the result.
func NewRecord(g *rules.Game) Record {
	rec := Record{Rules: g.Rules(), Start: g.Start(), Moves: g.Moves()}
	if n := len(rec.Moves); n > 0 && rec.Moves[n-1] == rules.Resign {
		rec.Moves = rec.Moves[:n-1]
	}
	rec.Result = ResultString(g.Outcome())
	return rec
}

// start returns the record's start position, or the rules' own start when
// Start is the zero Position.
func (rec Record) start() (rules.Position, error) {
	if hasStart(rec.Start) {
		return rec.Start, nil
	}
	return rules.NewPosition(rec.Rules)
}

// hasStart reports whether pos is a position rather than the zero Position
// (whose methods other than String are not usable).
func hasStart(pos rules.Position) bool { return pos.String() != "" }

// isSetUp reports whether the start differs from the rules' own start (the
// empty board, or the sliding layout, with Black to move): in its diagram,
// the player to move, prisoners, passes, or a last move (a root XL[1] alone
// was read and then not written: the fuzz corpus's e9998d40d7aceb34).
func (rec Record) isSetUp() bool {
	if !hasStart(rec.Start) {
		return false
	}
	std, err := rules.NewPosition(rec.Rules)
	if err != nil {
		return true
	}
	a, _ := rec.Start.MarshalText()
	b, _ := std.MarshalText()
	return !bytes.Equal(a, b)
}

// hasPrisoners reports whether a start position holds prisoners.
func hasPrisoners(pos rules.Position) bool {
	return pos.Prisoners(rules.Black) != 0 || pos.Prisoners(rules.White) != 0
}

// ParsePrisoners reads the prisoners each side took before a set-up start,
// Black's first, as "2-1"; the error says what is accepted.
func ParsePrisoners(v string) (black, white int, err error) {
	return parsePrisoners(v, "-")
}

// parsePrisoners reads the prisoners of a set-up start, Black's first:
// "2-1" (move lists) or "2:1" (SGF's XP).
func parsePrisoners(v string, sep string) (black, white int, err error) {
	a, b, ok := strings.Cut(strings.TrimSpace(v), sep)
	if ok {
		black, err = strconv.Atoi(strings.TrimSpace(a))
		if err == nil {
			white, err = strconv.Atoi(strings.TrimSpace(b))
		}
	}
	if !ok || err != nil || black < 0 || white < 0 || black > rules.MaxPrisoners || white > rules.MaxPrisoners {
		return 0, 0, fmt.Errorf("write Black's prisoners then White's, from 0 to %d, such as 2%s1", rules.MaxPrisoners, sep)
	}
	return black, white, nil
}

// Game replays the record from its start. The error names the move number
// (1-based), the move and the reason. A resignation in Result is played when
// the game is not over and it is the resigning player's turn.
func (rec Record) Game() (*rules.Game, error) {
	start, err := rec.start()
	if err != nil {
		return nil, err
	}
	g := rules.NewGameFrom(start)
	r := start.Rules()
	for i, m := range rec.Moves {
		if err := g.Play(m); err != nil {
			return g, fmt.Errorf("move %d (%s by %s): %w", i+1, Human.Encode(r, m), colorWord(g.Position().ToMove()), err)
		}
	}
	if loser, ok := resignedBy(rec.Result); ok && !g.Over() && g.Position().ToMove() == loser {
		if err := g.Play(rules.Resign); err != nil {
			return g, fmt.Errorf("result %s: %w", rec.Result, err)
		}
	}
	return g, nil
}

// resignedBy returns the player who resigned according to an SGF result.
func resignedBy(result string) (rules.Color, bool) {
	switch strings.ToUpper(strings.TrimSpace(result)) {
	case "B+R", "B+RESIGN":
		return rules.White, true
	case "W+R", "W+RESIGN":
		return rules.Black, true
	}
	return rules.None, false
}

// ResultString writes an outcome in the SGF RE form: "B+3" or "W+2" for a
// counted game (the margin, komi included), "0" for a draw, "B+R"/"W+R" for
// a resignation, "B+T"/"W+T" for a loss on time, "Void" for an aborted game, "B+"/"W+" for a game won by rule (an unchanged board, too
// few pieces, a count under rules that score nothing), "" while it goes on.
func ResultString(o rules.Outcome) string {
	switch {
	case !o.Over():
		return ""
	case o.Reason == rules.Aborted:
		return "Void"
	case o.Winner == rules.None:
		return "0"
	}
	side := "B+"
	if o.Winner == rules.White {
		side = "W+"
	}
	switch o.Reason {
	case rules.Resigned:
		return side + "R"
	case rules.Timeout:
		return side + "T"
	case rules.NoMoves, rules.Passes:
		m := o.Margin
		if m == 0 || m != o.Black-o.White {
			return side
		}
		if m < 0 {
			m = -m
		}
		return side + strconv.FormatFloat(m, 'f', -1, 64)
	}
	return side
}

// ParseResult reads the results of an SGF RE value that end a game by what
// the players did rather than by its moves: "B+R"/"W+R" (also "B+Resign"),
// a resignation; "B+T"/"W+T" (also "B+Time"), a loss on time; "0" or
// "Draw", a draw whose reason the record does not give (rules.Recorded:
// an agreement, or a match's move limit); "Void", an aborted game. ok is false for anything else, such as a count.
func ParseResult(s string) (reason rules.Reason, winner rules.Color, ok bool) {
	t := strings.ToUpper(strings.TrimSpace(s))
	switch t {
	case "0", "DRAW":
		return rules.Recorded, rules.None, true
	case "VOID":
		return rules.Aborted, rules.None, true
	}
	side, what, found := strings.Cut(t, "+")
	switch side {
	case "B":
		winner = rules.Black
	case "W":
		winner = rules.White
	default:
		found = false
	}
	if !found {
		return rules.NotOver, rules.None, false
	}
	switch what {
	case "R", "RESIGN":
		return rules.Resigned, winner, true
	case "T", "TIME":
		return rules.Timeout, winner, true
	}
	return rules.NotOver, rules.None, false
}

// ReadRecord reads a record in either format: SGF when the text starts
// with "(" (after blank space), a plain move list otherwise.
func ReadRecord(data []byte) (Record, error) {
	if len(data) > MaxRecordBytes {
		return Record{}, tooLong(len(data))
	}
	t := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(t) > 0 && t[0] == '(' {
		return ReadSGF(data)
	}
	return ReadMoveList(data)
}

// ReadRecordFile reads a record file (SGF or a move list) of at most
// MaxRecordBytes, without reading more of a larger file than that. The
// errors say whether the file is missing, not a regular file, or too long.
func ReadRecordFile(path string) (Record, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Record{}, fmt.Errorf("%s: no such file", path)
		}
		return Record{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Record{}, err
	}
	if !st.Mode().IsRegular() {
		return Record{}, fmt.Errorf("%s is not a regular file, so not a record", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxRecordBytes+1))
	if err != nil {
		return Record{}, err
	}
	if len(data) > MaxRecordBytes {
		return Record{}, fmt.Errorf("%s: %w", path, tooLong(int(st.Size())))
	}
	rec, err := ReadRecord(data)
	if err != nil {
		return rec, fmt.Errorf("%s: %w", path, err)
	}
	return rec, nil
}
