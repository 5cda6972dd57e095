package mail

import (
	"fmt"
	"strings"
	"time"

	"alak/rules"
	"alak/server/internal/game"
	"alak/server/store"
)

// The body of the mails about a game's board (the your-move mail, the
// answers to a mailed move): the board as the play-by-mail server showed
// it, the last move, the legal moves, the clock, and how to answer by mail.

// mailDateFormat is how mails write a time.
const mailDateFormat = "Mon 2 Jan 2006 15:04 UTC"

// boardBody describes the game to the player of colour c: the board
// (the seeds' line notation, a grid for Alter Igo) with whose move it is,
// the last move, the legal moves when it is c's move, the clock, and, when
// replies are read (byMail), how to answer.
func (m *Mail) boardBody(st *game.State, c rules.Color, byMail bool) string {
	var b strings.Builder
	b.WriteString(st.Sess.Snapshot().Text(st.Rules, false))
	moves := st.Sess.Moves()
	if n := len(moves); n > 0 {
		fmt.Fprintf(&b, "Last move: %s (move %d).\n", st.Rules.MoveText(moves[n-1]), n)
	} else {
		b.WriteString("No move has been played yet.\n")
	}
	active := st.Row.State == store.StateActive
	mine := active && st.Sess.ToMove() == c
	if mine {
		b.WriteString(wrapWords("Legal moves:", legalMoveTexts(st)))
	}
	if active && !st.Row.Deadline.IsZero() {
		left := max(st.Row.Deadline.Sub(m.c.Now()), 0)
		who := "Your opponent has"
		if mine {
			who = "You have"
		}
		fmt.Fprintf(&b, "Time left: %s. %s until %s.\n", leftWords(left), who, st.Row.Deadline.UTC().Format(mailDateFormat))
	} else if active && st.Paused() {
		b.WriteString("The game's clock is paused: a player is on vacation.\n")
	}
	if byMail && active {
		b.WriteString("\n" + wrapWords("", strings.Fields(fmt.Sprintf("To play by mail, answer this mail with one line on top: a move (such as %s), resign, "+
			"draw (to offer or accept a draw) or board (to have the board sent again). "+
			"It answers the board after move %d: once the game has moved on, it is refused and the board is sent again.",
			exampleMove(st), st.Sess.Ply()))))
	}
	return b.String()
}

// legalMoveTexts is the legal moves of the player to move in the game's
// notation, pass and resign last.
func legalMoveTexts(st *game.State) []string {
	var points, other []string
	for _, m := range st.Sess.LegalMoves() {
		if m == rules.Pass || m == rules.Resign {
			other = append(other, st.Rules.MoveText(m))
			continue
		}
		points = append(points, st.Rules.MoveText(m))
	}
	if !strings.Contains(strings.Join(other, " "), st.Rules.MoveText(rules.Resign)) {
		other = append(other, st.Rules.MoveText(rules.Resign))
	}
	return append(points, other...)
}

// exampleMove is a legal point of the game, for the how-to-answer line.
func exampleMove(st *game.State) string {
	for _, m := range st.Sess.LegalMoves() {
		if m != rules.Pass && m != rules.Resign {
			return st.Rules.MoveText(m)
		}
	}
	return "5"
}

// wrapWords writes label and the words on lines of at most 72 characters,
// the following lines indented when there is a label.
func wrapWords(label string, words []string) string {
	var b strings.Builder
	line, indent := label, "  "
	if label == "" {
		indent = ""
	}
	for _, w := range words {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) > 72:
			b.WriteString(line + "\n")
			line = indent + w
		default:
			line += " " + w
		}
	}
	b.WriteString(line + "\n")
	return b.String()
}

// leftWords says a time left in days and hours, or hours and minutes.
func leftWords(d time.Duration) string {
	d = d.Round(time.Minute)
	days, hours, minutes := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case days > 0 && hours > 0:
		return plural(days, "day") + " " + plural(hours, "hour")
	case days > 0:
		return plural(days, "day")
	case hours > 0 && minutes > 0:
		return plural(hours, "hour") + " " + plural(minutes, "minute")
	case hours > 0:
		return plural(hours, "hour")
	}
	return plural(minutes, "minute")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
