package rules

import (
	"alak/internal/clip"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Movement says what a move does.
type Movement uint8

// Movements.
const (
	Placement Movement = iota // a move places a stone on an empty point
	Sliding                   // a move slides a piece to the nearest empty slot
)

// OwnLiberty says what happens to the mover's own chain left without
// liberties by a placement (after enemy chains are captured, except under
// OwnRemovedTogether).
type OwnLiberty uint8

// Own-liberty rules.
const (
	OwnStays           OwnLiberty = iota // legal, and the chain stays (Baljeu)
	OwnIllegal                           // illegal: no suicide (Go)
	OwnRemoved                           // legal; the chain is removed after enemy captures (suicide)
	OwnRemovedTogether                   // every chain without liberties is removed at once, the mover's included (Alter Igo)
)

// Ko is the rule that forbids placements to stop endless capture loops.
type Ko uint8

// Ko rules. Positional and situational superko depend on the game's history
// and are enforced by Game, not by Position.
const (
	KoNone        Ko = iota
	KoCaptured       // a player may not place where their stones were removed by the opponent's last move (Baljeu)
	KoSimple         // no placement may recreate the board as it was before the opponent's last move
	KoPositional     // no placement may recreate any earlier board
	KoSituational    // no placement may recreate an earlier board with the same player to move
)

// Scoring says how a finished game is counted.
type Scoring uint8

// Scorings.
const (
	ScoreStones        Scoring = iota // stones on the board
	ScoreArea                         // stones plus territory
	ScoreTerritory                    // territory plus prisoners
	ScoreAreaPrisoners                // stones plus territory plus prisoners (the seed's Traditional Alak)
	ScoreNone                         // no counting: the game is only won by rule (Alter Igo)
)

// SelfCapture says whether a sliding move can lose the moved piece.
type SelfCapture uint8

// Self-capture rules for sliding games.
const (
	SelfOff   SelfCapture = iota // the moved piece is never removed (Dewdney as Burke read him)
	SelfPiece                    // the moved piece is removed when both its neighbours are opponent pieces (the code-golf text)
	SelfRun                      // the run the moved piece joins is removed when flanked by opponent pieces
)

// Rules is a complete rule set: a preset's choices plus the board size. It is
// a plain value; set fields directly or by name with Set.
type Rules struct {
	Preset   string   // the preset it started from ("" if built by hand)
	Movement Movement // placement or sliding
	Width    int      // points on a line; columns on a grid
	Height   int      // 1 for a line; rows on a grid

	EdgeCapture bool       // the ends of the line (edges of a grid) are not liberties, so chains are captured against them
	Own         OwnLiberty // filling your own last liberty
	Ko          Ko         // forbidden points / ko rule
	Pass        bool       // passing is allowed
	EndPasses   int        // consecutive passes that end the game (with Pass)
	Scoring     Scoring    // how the end is counted
	Komi        float64    // added to White's score; any value from -1000 to 1000 (the solver takes multiples of 0.5)
	Repetition  int        // the n-th occurrence of a position is a draw; 0: no such rule

	UnchangedLoses bool        // a placement that leaves the board unchanged loses (Alter Igo)
	MinPieces      int         // sliding: a player left with fewer pieces loses
	SelfCapture    SelfCapture // sliding: whether the moved piece can be removed
	Start          string      // sliding: the starting layout ("" for the default of the size)

	Safe SafeEye // placement on a line: a player may declare a point safe instead of placing (safe.go)

	PassEnd PassEnd // with passing and a repetition rule: whether the passes that end the game on a position's n-th occurrence count the board or draw
}

// PassEnd decides between the two ends a game can reach at once: the
// passes that end it (passes=N) and the repetition draw, when the last of
// those passes brings a position (stones, player to move, forbidden
// points) for the n-th time (repetition=N). docs/rules.md, A24.
type PassEnd uint8

// PassEnd rules.
const (
	PassEndScore PassEnd = iota // the board is counted: the end by passes comes first
	PassEndDraw                 // the repetition draw comes first
)

var passEndNames = []string{"score", "draw"}

// Presets returns the names of the presets, the default first.
func Presets() []string {
	return []string{"alak", "traditional", "tromp-taylor", "alterigo", "dewdney", "golf"}
}

// Preset returns the named preset on its default board. See docs/rules.md
// for the seed passage behind every choice.
func Preset(name string) (Rules, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "alak", "":
		return Rules{Preset: "alak", Width: 11, Height: 1, EdgeCapture: true, Own: OwnStays,
			Ko: KoCaptured, EndPasses: 2, Scoring: ScoreStones, Repetition: 3}, nil
	case "traditional":
		return Rules{Preset: "traditional", Width: 11, Height: 1, EdgeCapture: true, Own: OwnIllegal,
			Ko: KoSimple, Pass: true, EndPasses: 2, Scoring: ScoreAreaPrisoners, Repetition: 3}, nil
	case "tromp-taylor", "tt":
		return Rules{Preset: "tromp-taylor", Width: 11, Height: 1, EdgeCapture: true, Own: OwnIllegal,
			Ko: KoPositional, Pass: true, EndPasses: 2, Scoring: ScoreArea}, nil
	case "alterigo", "alter-igo":
		return Rules{Preset: "alterigo", Width: 9, Height: 9, EdgeCapture: true, Own: OwnRemovedTogether,
			Ko: KoNone, EndPasses: 2, Scoring: ScoreNone, Repetition: 3, UnchangedLoses: true}, nil
	case "dewdney":
		return Rules{Preset: "dewdney", Movement: Sliding, Width: 11, Height: 1, Ko: KoNone,
			EndPasses: 2, Scoring: ScoreStones, Repetition: 3, MinPieces: 2}, nil
	case "golf":
		return Rules{Preset: "golf", Movement: Sliding, Width: 11, Height: 1, Ko: KoNone,
			EndPasses: 2, Scoring: ScoreStones, Repetition: 3, MinPieces: 2, SelfCapture: SelfPiece}, nil
	}
	return Rules{}, fmt.Errorf("%w: unknown rules %q; the presets are %s", ErrRules, clip.Text(name), strings.Join(Presets(), ", "))
}

// MustPreset is Preset for names known to be valid; it panics otherwise.
func MustPreset(name string) Rules {
	r, err := Preset(name)
	if err != nil {
		panic(err)
	}
	return r
}

// Option describes one rule option that can be set by name.
type Option struct {
	Name   string // as used by Set and Parse
	Values string // what is accepted
	Help   string
}

type option struct {
	Option
	get func(r *Rules) string
	set func(r *Rules, v string) error
	// unset is, for an option added after proof certificates were first
	// made, its value under every preset (Unset).
	unset string
}

func enumOpt(name, help string, names []string, get func(r *Rules) int, set func(r *Rules, i int)) option {
	return option{
		Option: Option{Name: name, Values: strings.Join(names, "|"), Help: help},
		get:    func(r *Rules) string { return names[get(r)] },
		set: func(r *Rules, v string) error {
			for i, n := range names {
				if strings.EqualFold(v, n) {
					set(r, i)
					return nil
				}
			}
			return fmt.Errorf("%w: %s=%q: accepted values are %s", ErrRules, name, clip.Text(v), strings.Join(names, ", "))
		},
	}
}

func boolOpt(name, help string, f func(r *Rules) *bool) option {
	return option{
		Option: Option{Name: name, Values: "on|off", Help: help},
		get: func(r *Rules) string {
			if *f(r) {
				return "on"
			}
			return "off"
		},
		set: func(r *Rules, v string) error {
			switch strings.ToLower(v) {
			case "on", "true", "yes", "1":
				*f(r) = true
			case "off", "false", "no", "0":
				*f(r) = false
			default:
				return fmt.Errorf("%w: %s=%q: accepted values are on, off", ErrRules, name, clip.Text(v))
			}
			return nil
		},
	}
}

func intOpt(name, values, help string, lo, hi int, offIsZero bool, f func(r *Rules) *int) option {
	return option{
		Option: Option{Name: name, Values: values, Help: help},
		get: func(r *Rules) string {
			if offIsZero && *f(r) == 0 {
				return "off"
			}
			return strconv.Itoa(*f(r))
		},
		set: func(r *Rules, v string) error {
			if offIsZero && strings.EqualFold(v, "off") {
				*f(r) = 0
				return nil
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < lo || n > hi {
				return fmt.Errorf("%w: %s=%q: accepted values are %s", ErrRules, name, clip.Text(v), values)
			}
			*f(r) = n
			return nil
		},
	}
}

var ownNames = []string{"stays", "illegal", "removed", "together"}
var koNames = []string{"none", "captured", "simple", "superko", "situational"}
var scoreNames = []string{"stones", "area", "territory", "area+prisoners", "none"}
var selfNames = []string{"off", "piece", "run"}

var options = []option{
	{
		Option: Option{Name: "size", Values: "N (1-64) for a line, WxH (up to 19x19) for a grid", Help: "board size"},
		get:    func(r *Rules) string { return r.SizeString() },
		set:    func(r *Rules, v string) error { return r.setSize(v) },
	},
	boolOpt("edge", "captures against the ends of the line (edges of the grid) count", func(r *Rules) *bool { return &r.EdgeCapture }),
	enumOpt("own", "filling your own last liberty: the chain stays, is illegal, is removed after captures, or is removed together with the captured", ownNames,
		func(r *Rules) int { return int(r.Own) }, func(r *Rules, i int) { r.Own = OwnLiberty(i) }),
	enumOpt("ko", "forbidden points: none, points just captured, simple ko, positional superko, situational superko", koNames,
		func(r *Rules) int { return int(r.Ko) }, func(r *Rules, i int) { r.Ko = Ko(i) }),
	boolOpt("pass", "passing is allowed", func(r *Rules) *bool { return &r.Pass }),
	intOpt("passes", "1-9", "consecutive passes that end the game", 1, 9, false, func(r *Rules) *int { return &r.EndPasses }),
	enumOpt("score", "scoring: stones on the board, area, territory plus prisoners, area plus prisoners, none", scoreNames,
		func(r *Rules) int { return int(r.Scoring) }, func(r *Rules, i int) { r.Scoring = Scoring(i) }),
	{
		Option: Option{Name: "komi", Values: "a number from -1000 to 1000, such as 0, 0.5, 6.75, -2", Help: "points added to White's score"},
		get:    func(r *Rules) string { return strconv.FormatFloat(r.Komi, 'f', -1, 64) },
		set: func(r *Rules, v string) error {
			k, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsNaN(k) || math.Abs(k) > 1000 {
				return fmt.Errorf("%w: komi=%q: accepted values are numbers from -1000 to 1000 such as 0, 0.5, 6.75, -2", ErrRules, clip.Text(v))
			}
			r.Komi = k
			return nil
		},
	},
	intOpt("repetition", "off or 2-9", "the n-th occurrence of a position (board, player to move, forbidden points) is a draw", 2, 9, true, func(r *Rules) *int { return &r.Repetition }),
	boolOpt("unchanged", "a placement that leaves the board unchanged loses", func(r *Rules) *bool { return &r.UnchangedLoses }),
	intOpt("min", "0-32", "sliding: a player left with fewer pieces loses", 0, 32, false, func(r *Rules) *int { return &r.MinPieces }),
	enumOpt("selfcapture", "sliding: the moved piece is never removed, removed when flanked, or removed with its run when flanked", selfNames,
		func(r *Rules) int { return int(r.SelfCapture) }, func(r *Rules, i int) { r.SelfCapture = SelfCapture(i) }),
	{
		Option: Option{Name: "start", Values: "a layout of x, o and _ (or -), such as xxxx___oooo", Help: "sliding: the starting layout; sets the size"},
		get:    func(r *Rules) string { return r.Start },
		set: func(r *Rules, v string) error {
			if v == "" {
				r.Start = ""
				return nil
			}
			for _, ch := range v {
				if ch != 'x' && ch != 'o' && ch != '_' && ch != '-' {
					return fmt.Errorf("%w: start=%q: a layout uses only x, o and _ (or -)", ErrRules, clip.Text(v))
				}
			}
			if len(v) > 64 {
				return fmt.Errorf("%w: start=%q: at most 64 slots", ErrRules, clip.Text(v))
			}
			r.Start = strings.ReplaceAll(v, "-", "_")
			r.Width, r.Height = len(v), 1
			return nil
		},
	},
	enumOpt("safe", "instead of a placement a player may declare a point safe, where nobody can place after: off, only an eye (an empty point between your own stones), or any empty point", safeNames,
		func(r *Rules) int { return int(r.Safe) }, func(r *Rules, i int) { r.Safe = SafeEye(i) }),
	unsetOpt(enumOpt("passend", "when the passes that end the game bring a position for the n-th time: the board is counted, or the game is a draw by repetition", passEndNames,
		func(r *Rules) int { return int(r.PassEnd) }, func(r *Rules, i int) { r.PassEnd = PassEnd(i) }), "score"),
}

// unsetOpt marks o as added after certificates were first made, with the
// value unset under every preset (Unset).
func unsetOpt(o option, unset string) option {
	o.unset = unset
	return o
}

// Unset returns, for an option added after proof certificates were first
// made, its value under every preset, and true: the rules hash of a
// certificate (package proofcheck) names such an option only where it has
// another value, so that the certificates made before it still check. It
// returns "" and false for the other options, which every rules hash names.
func Unset(name string) (string, bool) {
	for _, o := range options {
		if strings.EqualFold(o.Name, name) {
			return o.unset, o.unset != ""
		}
	}
	return "", false
}

// Options lists the options Set accepts, in the order String writes them.
func Options() []Option {
	out := make([]Option, len(options))
	for i, o := range options {
		out[i] = o.Option
	}
	return out
}

// Set changes the option called name to value; see Options for the names.
func (r *Rules) Set(name, value string) error {
	for _, o := range options {
		if strings.EqualFold(o.Name, name) {
			return o.set(r, strings.TrimSpace(value))
		}
	}
	names := make([]string, len(options))
	for i, o := range options {
		names[i] = o.Name
	}
	return fmt.Errorf("%w: unknown option %q; the options are %s", ErrRules, clip.Text(name), strings.Join(names, ", "))
}

// Get returns the value of the option called name, as Set accepts it.
func (r Rules) Get(name string) (string, error) {
	for _, o := range options {
		if strings.EqualFold(o.Name, name) {
			return o.get(&r), nil
		}
	}
	return "", fmt.Errorf("%w: unknown option %q", ErrRules, clip.Text(name))
}

// Parse reads a rules description: a preset name followed by NAME=VALUE
// options, as String writes it ("alak size=6 edge=off").
func Parse(s string) (Rules, error) {
	fields := strings.Fields(s)
	name := "alak"
	if len(fields) > 0 && !strings.Contains(fields[0], "=") {
		name, fields = fields[0], fields[1:]
	}
	r, err := Preset(name)
	if err != nil {
		return Rules{}, err
	}
	given := make([]string, 0, len(fields))
	for _, f := range fields {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return Rules{}, fmt.Errorf("%w: %q: options are written NAME=VALUE", ErrRules, clip.Text(f))
		}
		if err := r.Set(k, v); err != nil {
			return Rules{}, err
		}
		given = append(given, k)
	}
	for _, k := range given {
		if err := r.CheckApplies(k); err != nil {
			return Rules{}, err
		}
	}
	return r, r.Validate()
}

// Applies reports whether the option called name has any effect under r:
// start, selfcapture and min only under sliding rules; own, ko, pass and
// unchanged only under placement rules; passes only where passing is
// allowed; komi only where the board is counted. The others always apply.
func (r Rules) Applies(name string) bool {
	switch strings.ToLower(name) {
	case "start", "selfcapture", "min":
		return r.Movement == Sliding
	case "own", "ko", "pass", "unchanged":
		return r.Movement == Placement
	case "passes":
		return r.Pass
	case "komi":
		return r.Scoring != ScoreNone
	case "safe":
		return r.Movement == Placement && r.IsLine()
	case "passend":
		return r.Pass && r.Repetition > 0
	}
	return true
}

// CheckApplies returns nil when the option called name applies under r (see
// Applies), otherwise an error saying why it has no effect: an option that
// would be silently ignored is refused instead.
func (r Rules) CheckApplies(name string) error {
	if r.Applies(name) {
		return nil
	}
	name = strings.ToLower(name)
	why := ""
	switch name {
	case "start", "selfcapture", "min":
		why = "it applies to sliding rules (dewdney, golf), and these rules place stones"
	case "own", "ko", "pass", "unchanged":
		why = "it applies to placement rules, and these rules slide pieces"
	case "passes":
		why = "passing is not allowed under these rules (set pass=on first)"
	case "komi":
		why = "these rules do not count the board (score=none)"
	case "safe":
		why = "safe points are declared on a line under placement rules"
	case "passend":
		why = "it decides between the end by passes and the repetition draw, and these rules have no passing (set pass=on) or no repetition rule (set repetition=N)"
	}
	return fmt.Errorf("%w: %s has no effect under %s: %s", ErrRules, name, r.Preset, why)
}

// Changed lists the options whose values differ from the preset's, as
// NAME=VALUE, in the order of Options; options that have no effect under r
// (see Applies) are left out. The size is left out when withSize is
// false (SGF records the size in SZ).
func (r Rules) Changed(withSize bool) []string {
	base, err := Preset(r.Preset)
	if err != nil {
		base = Rules{}
	}
	var out []string
	for _, o := range options {
		if o.Name == "size" && !withSize || !r.Applies(o.Name) {
			continue
		}
		if v := o.get(&r); v != o.get(&base) {
			out = append(out, o.Name+"="+v)
		}
	}
	return out
}

// String writes the preset name and every option that differs from it,
// including the size: "alak size=6 edge=off". Parse reads it back.
func (r Rules) String() string {
	name := r.Preset
	if name == "" {
		name = "alak"
	}
	return strings.Join(append([]string{name}, r.Changed(true)...), " ")
}

// SizeString writes the size as "11" for a line or "9x9" for a grid.
func (r Rules) SizeString() string {
	if r.Height <= 1 {
		return strconv.Itoa(r.Width)
	}
	return strconv.Itoa(r.Width) + "x" + strconv.Itoa(r.Height)
}

// IsLine reports whether the board is a line (one row).
func (r Rules) IsLine() bool { return r.Height == 1 }

// Points returns the number of points on the board.
func (r Rules) Points() int { return r.Width * r.Height }

// SetSize sets a line of n points (h == 1) or a w×h grid. A grid with one
// row or one column is a line.
func (r *Rules) SetSize(w, h int) {
	if w == 1 && h > 1 {
		w, h = h, 1
	}
	r.Width, r.Height = w, h
	if r.Movement == Sliding && r.Start != "" && len(r.Start) != w {
		r.Start = ""
	}
}

func (r *Rules) setSize(v string) error {
	bad := fmt.Errorf("%w: size=%q: a line is N (1 to 64), a grid WxH (up to 19x19)", ErrRules, clip.Text(v))
	a, b, grid := strings.Cut(strings.ToLower(v), "x")
	if !grid {
		a, b, grid = strings.Cut(strings.ToLower(v), "×")
	}
	w, err := strconv.Atoi(a)
	if err != nil {
		return bad
	}
	h := 1
	if grid {
		if h, err = strconv.Atoi(b); err != nil {
			return bad
		}
	}
	if w < 1 || h < 1 || w > 64 || h > 64 {
		return bad
	}
	r.SetSize(w, h)
	if !r.IsLine() && (r.Width > 19 || r.Height > 19) {
		return bad
	}
	return nil
}

// Validate reports the first thing that makes r unplayable.
func (r Rules) Validate() error {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrRules}, a...)...)
	}
	switch {
	case r.Width < 1 || r.Height < 1:
		return fail("size %s: the board needs at least one point", r.SizeString())
	case r.IsLine() && r.Width > 64:
		return fail("size %d: lines have at most 64 points", r.Width)
	case !r.IsLine() && (r.Width > 19 || r.Height > 19):
		return fail("size %s: grids are at most 19x19", r.SizeString())
	case r.Movement > Sliding || r.Own > OwnRemovedTogether || r.Ko > KoSituational ||
		r.Scoring > ScoreNone || r.SelfCapture > SelfRun || r.Safe > SafeField || r.PassEnd > PassEndDraw:
		return fail("an option is out of range")
	case r.Pass && r.EndPasses < 1:
		return fail("passes=%d: with passing allowed, at least one pass must end the game", r.EndPasses)
	case r.Repetition == 1 || r.Repetition < 0:
		return fail("repetition=%d: a position can only repeat from its second occurrence", r.Repetition)
	case math.IsNaN(r.Komi) || math.Abs(r.Komi) > 1000:
		return fail("komi %v: komi is a number from -1000 to 1000", r.Komi)
	case r.Safe != SafeOff && (r.Movement != Placement || !r.IsLine()):
		return fail("safe=%s: safe points are declared on a line under placement rules", safeNames[r.Safe])
	}
	if r.Movement == Sliding {
		if !r.IsLine() {
			return fail("sliding rules are played on a line, not a %s grid", r.SizeString())
		}
		if r.Ko >= KoPositional || r.Ko == KoCaptured || r.Ko == KoSimple || r.Pass {
			return fail("sliding rules take no ko rule and no passing")
		}
		start := r.StartLayout()
		if len(start) != r.Width {
			return fail("start %q has %d slots but the size is %d", start, len(start), r.Width)
		}
		if !strings.Contains(start, "_") {
			return fail("start %q: at least one slot must be empty", start)
		}
	}
	return nil
}

// StartLayout returns the sliding start layout: Start, or for the size n the
// default with (n-2)/2 pieces a side and the gap between them, which is
// xxxx___oooo on 11 slots. Placement rules start from the empty board.
func (r Rules) StartLayout() string {
	if r.Movement != Sliding {
		return strings.Repeat("_", r.Points())
	}
	if r.Start != "" {
		return r.Start
	}
	k := (r.Width - 2) / 2
	if k < 0 {
		k = 0
	}
	return strings.Repeat("x", k) + strings.Repeat("_", r.Width-2*k) + strings.Repeat("o", k)
}

// MarshalText implements encoding.TextMarshaler with the form of String, so
// rules travel in JSON and config files as "alak size=6 edge=off".
func (r Rules) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with Parse.
func (r *Rules) UnmarshalText(b []byte) error {
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*r = p
	return nil
}
