package game

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"alak/internal/clip"
)

// ClockKind is the kind of a time control, as its spec starts.
type ClockKind string

// The kinds of time control.
const (
	ClockNone ClockKind = "none"
	ClockLive ClockKind = "live" // Fischer: a time for the game, an increment a move
	ClockDays ClockKind = "days" // correspondence: days for each move
)

// Clock is a game's time control.
type Clock struct {
	Kind      ClockKind
	Initial   time.Duration // live: each player's time at the start
	Increment time.Duration // live: added after each of the player's moves
	Days      int           // days: the time for each move
}

// CorrespondenceDays are the days per move a correspondence game may have.
var CorrespondenceDays = []int{1, 2, 3, 5, 7, 14}

// ParseClock reads a time control: "none", "live:5m+3s" (five minutes each
// and three seconds added per move; "live:5+3" means the same, minutes and
// seconds), or "days:3" (three days per move, one of CorrespondenceDays).
func ParseClock(s string) (Clock, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	bad := func(why string) (Clock, error) {
		return Clock{}, fmt.Errorf("clock %q: %s; accepted are none, live:5m+3s (minutes and seconds a move added; 1s to 3h, increment up to 1m) and days:N with N one of 1, 2, 3, 5, 7, 14", clip.Text(s), why)
	}
	switch {
	case t == "none" || t == "":
		return Clock{Kind: ClockNone}, nil
	case strings.HasPrefix(t, "days:"):
		n, err := strconv.Atoi(t[len("days:"):])
		if err != nil {
			return bad("the days are a number")
		}
		for _, d := range CorrespondenceDays {
			if n == d {
				return Clock{Kind: ClockDays, Days: n}, nil
			}
		}
		return bad("not one of the days offered")
	case strings.HasPrefix(t, "live:"):
		base, inc, _ := strings.Cut(t[len("live:"):], "+")
		initial, err := clockDuration(base, time.Minute)
		if err != nil {
			return bad("the base time is a duration such as 5m or 90s")
		}
		increment := time.Duration(0)
		if inc != "" {
			if increment, err = clockDuration(inc, time.Second); err != nil {
				return bad("the increment is a duration such as 3s")
			}
		}
		if initial < time.Second || initial > 3*time.Hour || increment < 0 || increment > time.Minute {
			return bad("out of range")
		}
		return Clock{Kind: ClockLive, Initial: initial, Increment: increment}, nil
	}
	return bad("unknown kind")
}

// clockDuration reads a duration, or a plain number in unit.
func clockDuration(s string, unit time.Duration) (time.Duration, error) {
	if n, err := strconv.Atoi(s); err == nil {
		return time.Duration(n) * unit, nil
	}
	return time.ParseDuration(s)
}

// String writes the clock as ParseClock reads it.
func (c Clock) String() string {
	switch c.Kind {
	case ClockLive:
		s := "live:" + ShortDuration(c.Initial)
		if c.Increment > 0 {
			s += "+" + ShortDuration(c.Increment)
		}
		return s
	case ClockDays:
		return "days:" + strconv.Itoa(c.Days)
	}
	return "none"
}

// Words says the clock in a few words: "5 min + 3 s", "3 days a move".
func (c Clock) Words() string {
	switch c.Kind {
	case ClockLive:
		s := ShortDuration(c.Initial)
		if c.Increment > 0 {
			s += " + " + ShortDuration(c.Increment)
		}
		return s
	case ClockDays:
		if c.Days == 1 {
			return "1 day a move"
		}
		return strconv.Itoa(c.Days) + " days a move"
	}
	return "no clock"
}

// ShortDuration writes 5m0s as 5m and 1h30m0s as 1h30m.
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// ByDays reports whether a stored clock text ("days:3") is a
// correspondence clock, without parsing the rest of it.
func ByDays(clock string) bool { return strings.HasPrefix(clock, string(ClockDays)+":") }

// PerMove is the time a correspondence player has for each move.
func (c Clock) PerMove() time.Duration { return time.Duration(c.Days) * 24 * time.Hour }
