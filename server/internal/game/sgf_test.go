package game

import (
	"reflect"
	"testing"
	"time"

	"alak/notation"
	"alak/rules"
	"alak/server/store"
)

// TestAddMessageComments: each message goes on the node of the moves on
// the board when it was sent (log entries at or before it, a takeback
// popping its moves), after any comment already there.
func TestAddMessageComments(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	log := []store.Entry{
		{Move: "5", At: at(1)}, {Move: "4", At: at(2)}, {Move: "7", At: at(3)},
		{Undo: 1, At: at(4)}, {Move: "3", At: at(5)}, {Move: "1", At: at(6)},
	}
	rec := notation.Record{Moves: make([]rules.Move, 4), Comments: map[int]string{0: "alak game x"}}
	addMessageComments(&rec, log, []Message{
		{From: "ada", Text: "good luck", At: at(0)},
		{From: "bo", Text: "same", At: at(2)},    // with move 2
		{From: "ada", Text: "oops", At: at(3)},   // after move 3, later taken back
		{From: "bo", Text: "granted", At: at(4)}, // the takeback: 2 moves on the board
		{From: "ada", Text: "thanks", At: at(4)}, // the same node, on its own line
		{From: "bo", Text: "gg", At: at(9)},      // after the last move
	})
	want := map[int]string{0: "alak game x\nada: good luck", 2: "bo: same\nbo: granted\nada: thanks", 3: "ada: oops", 4: "bo: gg"}
	if !reflect.DeepEqual(rec.Comments, want) {
		t.Errorf("comments %#v, want %#v", rec.Comments, want)
	}
}

// TestSGFTimeLeftTakebacks: the clocks of the moves on the board, a
// takeback of two moves dropping theirs; a set-up start with White to move
// gives White's clock to the first move.
func TestSGFTimeLeftTakebacks(t *testing.T) {
	t.Parallel()
	s := time.Second
	log := []store.Entry{
		{Move: "1", BlackLeft: 60 * s, WhiteLeft: 60 * s},
		{Move: "2", BlackLeft: 60 * s, WhiteLeft: 59 * s},
		{Move: "3", BlackLeft: 50 * s, WhiteLeft: 59 * s},
		{Undo: 2, BlackLeft: 50 * s, WhiteLeft: 59 * s},
		{Move: "4", BlackLeft: 50 * s, WhiteLeft: 40 * s},
	}
	if got, want := sgfTimeLeft(log, rules.Black), map[int]time.Duration{1: 60 * s, 2: 40 * s}; !reflect.DeepEqual(got, want) {
		t.Errorf("Black first: %v, want %v", got, want)
	}
	if got, want := sgfTimeLeft(log, rules.White), map[int]time.Duration{1: 60 * s, 2: 50 * s}; !reflect.DeepEqual(got, want) {
		t.Errorf("White first: %v, want %v", got, want)
	}
}
