package notation

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"alak/internal/clip"
)

// TimeControl is a game's time control as SGF records it: TM, each
// player's main time, and OT, the overtime in words such as "3 fischer"
// (three seconds added after each move) or "5x30 byo-yomi". The zero
// value is a game without a recorded clock.
type TimeControl struct {
	Main     time.Duration // SGF TM, written in seconds; 0: not written
	Overtime string        // SGF OT; "": not written
}

// maxSGFSeconds bounds the times TM, BL and WL may give: about 31 years,
// far past any clock and far from time.Duration's limit.
const maxSGFSeconds = 1e9

// sgfSeconds writes a duration as SGF's real number of seconds, to the
// millisecond: 300, 52.5, 0.001.
func sgfSeconds(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Milliseconds())/1000, 'f', -1, 64)
}

// parseSGFSeconds reads SGF's real number of seconds (TM, BL, WL), rounded
// to the millisecond; the error says what is accepted.
func parseSGFSeconds(id, v string) (time.Duration, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) || math.Abs(f) > maxSGFSeconds || id == "TM" && f < 0 {
		return 0, fmt.Errorf("%w: SGF %s[%s]: write the time in seconds, a number such as 300 or 52.5 (at most 1e9)", ErrNotation, id, clip.Text(v))
	}
	return time.Duration(math.Round(f*1000)) * time.Millisecond, nil
}

// AddComment adds text to the comment of node k (0: before the first move;
// k: after move k), on a line of its own after what is already there: the
// way to put several remarks, such as the players' messages, on one node.
func (rec *Record) AddComment(k int, text string) {
	if text == "" {
		return
	}
	if rec.Comments == nil {
		rec.Comments = map[int]string{}
	}
	if c := rec.Comments[k]; c != "" {
		text = c + "\n" + text
	}
	rec.Comments[k] = text
}
