package player

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits of NewUntrusted: what a spec from outside (the play server's
// requests) may ask for. A request costs at most one move's time of one
// core and a bounded amount of memory, whatever it names.
const (
	// UntrustedMaxTime bounds the time per move of every search player:
	// the strongest named level (perfect:time=3s) thinks that long, and a
	// request gets no more. A search player whose spec sets no time gets
	// its default (1s, perfect 2s) or, beside a depth, node or playout
	// budget of the request, this time.
	UntrustedMaxTime = 3 * time.Second
	// UntrustedMinTime is the shortest time per move accepted.
	UntrustedMinTime = time.Millisecond
	// UntrustedMaxPlayouts bounds mcts's iterations per move, given or not:
	// its tree grows by one node per iteration (measured: 123 MB allocated
	// by 711k iterations on 1×9, 169 MB by 400k on 1×30), so the tree stays
	// near 100 MB on any machine; 3 s of search reaches it only on a fast
	// one (about 240k iterations a second on 1×9 on the 2-core machine of
	// docs/strength.md).
	UntrustedMaxPlayouts = 300_000
	// UntrustedMaxDepth bounds alphabeta's depth: the player's own limit;
	// the time bounds the search.
	UntrustedMaxDepth = maxSearchDepth
	// UntrustedMaxNodes bounds the node budgets of alphabeta and perfect;
	// the time cuts them first on most machines.
	UntrustedMaxNodes = 10_000_000
	// UntrustedMaxMemMB bounds perfect's solver table (its default) and
	// strong's proof graph (given where a spec sets none).
	UntrustedMaxMemMB = 64
	// UntrustedMaxSpec bounds a spec's length in bytes.
	UntrustedMaxSpec = 100
)

// untrustedAccepted says what NewUntrusted accepts, for its errors.
var untrustedAccepted = fmt.Sprintf("the players accepted are random, greedy, alphabeta (time, depth, nodes), "+
	"mcts (time, playouts, c), perfect (time, nodes, mem), strong (time, nodes, mem, proof) and level:1 to level:%d, "+
	"with time at most %v per move", len(levels), UntrustedMaxTime)

// NewUntrusted builds a player from a spec that comes from outside, such as
// a play server's request. It accepts the built-in players and levels only:
// it refuses gtp: (which starts a program) and perfect's table= (which
// reads and writes files), and it bounds every budget by the Untrusted
// limits: a value beyond them is refused with an error that says what is
// accepted, and a search player is given a time (and mcts a playout bound)
// where its spec sets none. The player's Name is its spec as built, with
// the bounds added (level:N gives the level's spec).
func NewUntrusted(spec string, seed uint64) (Player, error) {
	safe, err := untrustedSpec(spec)
	if err != nil {
		return nil, err
	}
	return New(safe, seed)
}

// untrustedSpec checks spec against the Untrusted limits and returns it in
// the form New builds, bounds added.
func untrustedSpec(spec string) (string, error) {
	if len(spec) > UntrustedMaxSpec || !utf8.ValidString(spec) {
		return "", fmt.Errorf("player spec of %d bytes: a spec is at most %d bytes of text; %s", len(spec), UntrustedMaxSpec, untrustedAccepted)
	}
	name, args, _ := strings.Cut(strings.TrimSpace(spec), ":")
	name = strings.ToLower(strings.TrimSpace(name))
	args = strings.TrimSpace(args)
	switch name {
	case "random", "greedy":
		if args != "" {
			return "", fmt.Errorf("player %s takes no options, got %q", name, args)
		}
		return name, nil
	case "level":
		n, err := strconv.Atoi(args)
		if err != nil || n < 1 || n > len(levels) {
			return "", fmt.Errorf("player level:%s: a level is a number from 1 to %d, such as level:3", args, len(levels))
		}
		return untrustedSpec(levels[n-1])
	case "gtp":
		return "", fmt.Errorf("player gtp: an external engine is not accepted here: it starts a program; %s", untrustedAccepted)
	case "alphabeta", "mcts", "perfect", "strong":
		return untrustedSearch(name, args)
	}
	return "", fmt.Errorf("unknown player %q: %s", spec, untrustedAccepted)
}

// untrustedSearch checks the options of a search player and writes them
// back in a fixed order, bounds added.
func untrustedSearch(name, args string) (string, error) {
	allowed := map[string][]string{
		"alphabeta": {"time", "depth", "nodes"},
		"mcts":      {"time", "playouts", "c"},
		"perfect":   {"time", "nodes", "mem", "table"},
		"strong":    {"time", "nodes", "mem", "proof"},
	}[name]
	o, err := parseOptions(name, args, allowed...)
	if err != nil {
		return "", err
	}
	if _, ok := o["table"]; ok {
		return "", fmt.Errorf("player perfect: table= is not accepted here: it reads and writes files; the options are time, nodes and mem")
	}
	var out []string
	add := func(k, v string) { out = append(out, k+"="+v) }
	d, err := o.duration(name, "time", 0)
	if err != nil {
		return "", err
	}
	if d != 0 && (d < UntrustedMinTime || d > UntrustedMaxTime) {
		return "", fmt.Errorf("player %s: time=%s: from %v to %v per move is accepted here", name, o["time"], UntrustedMinTime, UntrustedMaxTime)
	}
	count := func(key string, hi int) (int, error) {
		n, err := o.int(name, key, 0, 1, hi)
		if err != nil {
			return 0, fmt.Errorf("%w here", err)
		}
		if n > 0 {
			add(key, strconv.Itoa(n))
		}
		return n, nil
	}
	budget := false // a depth, node or playout budget, which lifts the default time
	switch name {
	case "alphabeta":
		depth, err := count("depth", UntrustedMaxDepth)
		if err != nil {
			return "", err
		}
		nodes, err := count("nodes", UntrustedMaxNodes)
		if err != nil {
			return "", err
		}
		budget = depth > 0 || nodes > 0
	case "mcts":
		playouts, err := count("playouts", UntrustedMaxPlayouts)
		if err != nil {
			return "", err
		}
		if playouts == 0 {
			add("playouts", strconv.Itoa(UntrustedMaxPlayouts))
		}
		budget = playouts > 0
		if v, ok := o["c"]; ok {
			c, err := strconv.ParseFloat(v, 64)
			if err != nil || !(c >= 0 && c <= 10) {
				return "", fmt.Errorf("player mcts: c=%q: a number from 0 to 10 such as 0.7 is accepted", v)
			}
			add("c", strconv.FormatFloat(c, 'g', -1, 64))
		}
	case "perfect", "strong":
		if _, err := count("nodes", UntrustedMaxNodes); err != nil {
			return "", err
		}
		if _, err := count("mem", UntrustedMaxMemMB); err != nil {
			return "", err
		}
		if name == "strong" {
			// strong's default graph (256 MB) is above the bound: a
			// spec without mem= gets the bound.
			if _, ok := o["mem"]; !ok {
				add("mem", strconv.Itoa(UntrustedMaxMemMB))
			}
			switch v := o["proof"]; v {
			case "":
			case "on", "off":
				add("proof", v)
			default:
				return "", fmt.Errorf("player strong: proof=%q: on or off is accepted", v)
			}
		}
	}
	switch {
	case d != 0:
	case budget:
		d = UntrustedMaxTime
	default:
		d = defaultTime(name)
	}
	out = append([]string{"time=" + d.String()}, out...)
	return name + ":" + strings.Join(out, ","), nil
}

// defaultTime returns the time per move of a search player whose spec
// sets no budget.
func defaultTime(name string) time.Duration {
	p, err := New(name, 0)
	if err != nil {
		panic(err) // the built-in players build without options
	}
	switch p := p.(type) {
	case *AlphaBeta:
		return p.movetime
	case *MCTS:
		return p.movetime
	case *Perfect:
		return p.movetime
	case *Strong:
		return p.movetime
	}
	panic("player: no default time for " + name)
}
