//go:build unix

package solve

import (
	"context"
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the CPU time the process has used (user and system).
// The predecessor benchmarks report it per op beside the wall time: on a
// shared machine the wall time measures the other processes as much as
// this one.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDensePreds times the dense solver's predecessor step alone
// (dindex.preds and the families' undo functions, where the empty points
// are split into runs): one op is a call for every state of the index of
// the variant on n points. The variants take each family's path: alak
// (forbidden shapes), own=removed (dense_generic.go), own=together with
// ko=captured (the gap shapes) and ko=none (undoRemoved, dense_gaps.go),
// Alter Igo (predsTogether), golf and its self=run reading (dense_slide.go).
func BenchmarkDensePreds(b *testing.B) {
	for _, c := range []struct {
		name string
		v    denseVariant
		n    int
	}{
		{"alak", denseVariant{"alak", nil}, 10},
		{"removed", denseVariant{"alak", []string{"own", "removed"}}, 10},
		{"together", denseVariant{"alak", []string{"own", "together"}}, 9},
		{"together-kofree", denseVariant{"alak", []string{"own", "together", "ko", "none"}}, 10},
		{"alterigo", denseVariant{"alterigo", nil}, 10},
		{"golf", denseVariant{"golf", nil}, 11},
		{"golf-selfrun", denseVariant{"golf", []string{"selfcapture", "run"}}, 11},
	} {
		b.Run(c.name, func(b *testing.B) {
			ix := newDindex(c.v.rules(b, c.n))
			type st struct {
				b, w, f uint64
				white   bool
			}
			var states []st
			eachState(ix, func(_, bb, w, f uint64, white bool) {
				states = append(states, st{bb, w, f, white})
			})
			var buf []dstate
			preds := 0
			cpu := cpuTime(b)
			for b.Loop() {
				for _, s := range states {
					buf = ix.preds(s.b, s.w, s.f, s.white, buf[:0])
					preds += len(buf)
				}
			}
			b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(len(states)), "states/op")
			b.ReportMetric(float64(preds)/float64(b.N), "preds/op")
		})
	}
}

// BenchmarkCompactPreds times the compact solver's predecessor step alone
// (cgraph.preds, with forbidCandidates' split of the empty points into
// runs): one op is a call for every state of the graph of alak on n
// points, built once before the timing.
func BenchmarkCompactPreds(b *testing.B) {
	for _, c := range []struct {
		name string
		opts []string
		n    int
	}{
		{"alak", nil, 10},
		{"ko-none", []string{"ko", "none"}, 10},
	} {
		b.Run(c.name, func(b *testing.B) {
			g := newGame(b, "alak", c.n, c.opts...)
			s := newSearcher(context.Background(), g.Rules(), Options{MemoryMB: 256})
			cg, err := s.solveCompact(g.Position())
			if err != nil {
				b.Fatal(err)
			}
			var keys []uint64
			for i := range uint64(cg.t.size()) {
				if k := cg.t.key(i); k != 0 {
					keys = append(keys, k)
				}
			}
			var buf []uint64
			preds := 0
			cpu := cpuTime(b)
			for b.Loop() {
				for _, k := range keys {
					buf = cg.preds(k, buf[:0])
					preds += len(buf)
				}
			}
			b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(len(keys)), "states/op")
			b.ReportMetric(float64(preds)/float64(b.N), "preds/op")
		})
	}
}
