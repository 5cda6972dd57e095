package player

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestNewUntrusted(t *testing.T) {
	for _, tc := range []struct{ spec, name string }{
		{"random", "random"},
		{" Greedy ", "greedy"},
		{"alphabeta", "alphabeta:time=1s"},
		{"alphabeta:depth=6", "alphabeta:time=3s,depth=6"},
		{"alphabeta:nodes=5000,time=200ms", "alphabeta:time=200ms,nodes=5000"},
		{"mcts", "mcts:time=1s,playouts=300000"},
		{"MCTS:playouts=2000 c=1.5", "mcts:time=3s,playouts=2000,c=1.5"},
		{"mcts:time=3s,playouts=300000", "mcts:time=3s,playouts=300000"},
		{"perfect", "perfect:time=2s"},
		{"perfect:nodes=100000,mem=16", "perfect:time=2s,nodes=100000,mem=16"},
		{"strong", "strong:time=1s,mem=64"},
		{"strong:time=3s,mem=16,proof=off", "strong:time=3s,mem=16,proof=off"},
		{"strong:nodes=5000", "strong:time=1s,nodes=5000,mem=64"},
		{"level:1", "random"},
		{"level:3", "alphabeta:time=3s,depth=2"},
		{"level:5", "mcts:time=3s,playouts=1000"},
		{"level:7", "mcts:time=300ms,playouts=300000"},
		{"level:9", "perfect:time=3s"},
	} {
		p, err := NewUntrusted(tc.spec, 1)
		if err != nil {
			t.Errorf("%q: %v", tc.spec, err)
			continue
		}
		if p.Name() != tc.name {
			t.Errorf("%q built %q, want %q", tc.spec, p.Name(), tc.name)
		}
		if err := untrustedBounded(p); err != nil {
			t.Errorf("%q: %v", tc.spec, err)
		}
	}
	for n := 1; n <= Levels(); n++ {
		if _, err := NewUntrusted(fmt.Sprintf("level:%d", n), 1); err != nil {
			t.Errorf("level %d is refused: %v", n, err)
		}
	}
}

func TestNewUntrustedRefuses(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"gtp:alak gtp", "starts a program"},
		{"GTP:/bin/sh -c reboot", "starts a program"},
		{"perfect:table=default", "reads and writes files"},
		{"perfect:table=/etc", "reads and writes files"},
		{"level:10", "from 1 to 9"},
		{"level:0", "from 1 to 9"},
		{"level:x", "from 1 to 9"},
		{"alphabeta:time=10s", "from 1ms to 3s per move"},
		{"mcts:time=1h", "from 1ms to 3s per move"},
		{"perfect:time=4s", "from 1ms to 3s per move"},
		{"alphabeta:time=1us", "from 1ms to 3s per move"},
		{"alphabeta:time=-1s", "a positive duration"},
		{"alphabeta:depth=101", "from 1 to 100"},
		{"alphabeta:nodes=10000001", "from 1 to 10000000"},
		{"mcts:playouts=300001", "from 1 to 300000"},
		{"mcts:c=11", "from 0 to 10"},
		{"mcts:c=NaN", "from 0 to 10"},
		{"perfect:nodes=99999999999", "from 1 to 10000000"},
		{"perfect:mem=65", "from 1 to 64"},
		{"perfect:beyond=strong", "unknown option"},
		{"strong:mem=65", "from 1 to 64"},
		{"strong:time=4s", "from 1ms to 3s per move"},
		{"strong:proof=maybe", "on or off is accepted"},
		{"mcts:depth=3", "unknown option"},
		{"random:x=1", "takes no options"},
		{"chess", "the players accepted are random, greedy"},
		{"", "the players accepted are"},
		{"mcts:" + strings.Repeat("c=1,", 30), "at most 100 bytes"},
	} {
		p, err := NewUntrusted(tc.spec, 1)
		if err == nil {
			t.Errorf("%q was accepted as %s", tc.spec, p.Name())
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %q, want one saying %q", tc.spec, err, tc.want)
		}
	}
}

// untrustedBounded checks a player NewUntrusted built: a built-in player
// (no external engine), no file named, every budget within the limits.
func untrustedBounded(p Player) error {
	timeOK := func(d time.Duration) bool { return d >= UntrustedMinTime && d <= UntrustedMaxTime }
	switch p := p.(type) {
	case *Random, *Greedy:
	case *AlphaBeta:
		if !timeOK(p.movetime) || p.maxDepth > UntrustedMaxDepth || p.maxNodes < 0 || p.maxNodes > UntrustedMaxNodes {
			return fmt.Errorf("alphabeta with time %v, depth %d, nodes %d", p.movetime, p.maxDepth, p.maxNodes)
		}
	case *MCTS:
		if !timeOK(p.movetime) || p.playouts < 1 || p.playouts > UntrustedMaxPlayouts || !(p.c >= 0 && p.c <= 10) {
			return fmt.Errorf("mcts with time %v, playouts %d, c %v", p.movetime, p.playouts, p.c)
		}
	case *Perfect:
		if p.tableDir != "" || p.table != nil {
			return fmt.Errorf("perfect with the table %q", p.tableDir)
		}
		if !timeOK(p.movetime) || p.nodes < 0 || p.nodes > UntrustedMaxNodes || p.memMB < 1 || p.memMB > UntrustedMaxMemMB {
			return fmt.Errorf("perfect with time %v, nodes %d, mem %d MB", p.movetime, p.nodes, p.memMB)
		}
	case *Strong:
		if !timeOK(p.movetime) || p.nodes < 0 || p.nodes > UntrustedMaxNodes || p.memMB < 1 || p.memMB > UntrustedMaxMemMB {
			return fmt.Errorf("strong with time %v, nodes %d, mem %d MB", p.movetime, p.nodes, p.memMB)
		}
	default:
		return fmt.Errorf("a %T", p)
	}
	return nil
}

// FuzzNewUntrusted checks that no spec NewUntrusted accepts builds an
// external engine (which starts a program) or a player that names a file,
// or one whose budgets exceed the limits; and that the name of what it
// built builds the same player again. The seed corpus is in
// testdata/fuzz/FuzzNewUntrusted.
func FuzzNewUntrusted(f *testing.F) {
	f.Fuzz(func(t *testing.T, spec string) {
		p, err := NewUntrusted(spec, 1)
		if err != nil {
			if p != nil {
				t.Fatalf("%q: a player and the error %v", spec, err)
			}
			return
		}
		if err := untrustedBounded(p); err != nil {
			t.Fatalf("%q built %s: %v", spec, p.Name(), err)
		}
		again, err := NewUntrusted(p.Name(), 1)
		if err != nil || again.Name() != p.Name() {
			t.Fatalf("%q built %q, which builds %v (%v)", spec, p.Name(), again, err)
		}
	})
}
