package solve

import (
	"context"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestDenseStatsTmp(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("DN"))
	if n == 0 {
		t.Skip("DN unset")
	}
	jobs, _ := strconv.Atoi(os.Getenv("DJ"))
	margins := os.Getenv("DM") != ""
	g := newGame(t, "alak", n)
	c0 := cpuTime()
	res, _, err := DenseSolve(context.Background(), g, DenseOptions{Jobs: jobs, Margins: margins})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d jobs %d margins %v: %d states value %v wall %v cpu %v", n, jobs, margins, res.Nodes, res.Value, res.Elapsed, cpuTime()-c0)
}
