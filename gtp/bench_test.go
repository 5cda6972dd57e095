package gtp

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
)

// BenchmarkEngineGame measures the engine front end: one op is a whole
// 11-point alak game played by genmove in turn (first legal move), with the
// legal-move list and the result asked after every move, parsed from text
// and answered in text.
func BenchmarkEngineGame(b *testing.B) {
	var sb strings.Builder
	for i := range 40 {
		sb.WriteString("genmove " + []string{"b", "w"}[i%2] + "\ngogui-rules_legal_moves\ngogui-rules_final_result\n")
	}
	sb.WriteString("final_score\n")
	input := sb.String()
	b.ReportAllocs()
	for b.Loop() {
		e := newTestEngine(b, "alak", firstPlayer{})
		if err := e.Run(context.Background(), strings.NewReader(input), io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClientCommand measures one command's round trip through the
// client to an engine process (the fake engine's echo) and back.
func BenchmarkClientCommand(b *testing.B) {
	b.Setenv("GTP_TEST_ENGINE", "")
	b.Setenv("GORACE", "atexit_sleep_ms=0")
	c, err := Start(context.Background(), os.Args[0])
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	for b.Loop() {
		if _, err := c.Command(context.Background(), "echo", "A1"); err != nil {
			b.Fatal(err)
		}
	}
}
