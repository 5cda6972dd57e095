package game

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"alak/notation"
	"alak/rules"
	"alak/server/store"
)

// Record is the record GET /api/games/{id}/sgf writes: the game with the
// players' names, the date, an opening comment naming the game and its
// clock, a live clock's time control (TM, OT) and each mover's time left
// (BL, WL), and msgs, the messages the requester may read, as comments.
func (c *Core) Record(ctx context.Context, st *State, msgs []Message) notation.Record {
	rec := st.Sess.Record()
	v := c.View(ctx, st)
	rec.Black, rec.White = v.Players["x"].Name, v.Players["o"].Name
	rec.Date = st.Row.Created.UTC().Format("2006-01-02")
	rec.Comments = map[int]string{0: fmt.Sprintf("alak game %s, %s, %s", st.Row.ID, st.Row.Rules, st.Clock.Words())}
	if st.Clock.Kind == ClockLive {
		rec.Time = sgfTimeControl(st.Clock)
		rec.TimeLeft = sgfTimeLeft(st.Log, rec.Start.ToMove())
	}
	addMessageComments(&rec, st.Log, msgs)
	return rec
}

// sgfTimeControl writes a live clock as SGF's TM and OT: the time for the
// game in seconds, and the increment as OT[N fischer] (the form OGS
// writes: N seconds added after each move), none when there is none.
func sgfTimeControl(c Clock) notation.TimeControl {
	tc := notation.TimeControl{Main: c.Initial}
	if c.Increment > 0 {
		tc.Overtime = strconv.FormatFloat(c.Increment.Seconds(), 'f', -1, 64) + " fischer"
	}
	return tc
}

// sgfTimeLeft returns, for each move on the board at the end of the log
// (1-based), the time its player had left after it: the clock its entry
// recorded, increment included. Takebacks remove their moves' entries.
// first is the colour of the first move.
func sgfTimeLeft(log []store.Entry, first rules.Color) map[int]time.Duration {
	var on []store.Entry // the entries of the moves on the board
	for _, e := range log {
		if e.Move == "" {
			on = on[:max(0, len(on)-e.Undo)]
			continue
		}
		on = append(on, e)
	}
	left := make(map[int]time.Duration, len(on))
	c := first
	for i, e := range on {
		left[i+1] = e.BlackLeft
		if c == rules.White {
			left[i+1] = e.WhiteLeft
		}
		c = c.Opp()
	}
	return left
}

// Message is a message between the players as the SGF export writes it:
// a C comment "From: text" on the node after which it was sent.
type Message struct {
	From string
	Text string
	At   time.Time
}

// addMessageComments adds each message to the comment of the node after
// which it was sent: the node of the number of moves on the board then
// (replaying the log's entries made at or before it, takebacks included),
// at most the moves of the record.
func addMessageComments(rec *notation.Record, log []store.Entry, msgs []Message) {
	for _, m := range msgs {
		ply := 0
		for _, e := range log {
			if e.At.After(m.At) {
				break
			}
			if e.Move == "" {
				ply = max(0, ply-e.Undo)
			} else {
				ply++
			}
		}
		rec.AddComment(min(ply, len(rec.Moves)), m.From+": "+m.Text)
	}
}
