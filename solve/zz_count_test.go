package solve

import (
	"context"
	"testing"
	"time"
)

func TestZZCount(t *testing.T) {
	for _, preset := range []string{"dewdney", "alak"} {
		g := newGame(t, preset, 14)
		for _, m := range []bool{true, false} {
			st := time.Now()
			var last int64
			DenseSolve(context.Background(), g, DenseOptions{Jobs: 1, Margins: m, Progress: func(p Progress) { last = p.Nodes }})
			t.Logf("%s margins %v: %v handled~%d", preset, m, time.Since(st), last)
		}
	}
}
