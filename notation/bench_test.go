package notation

import (
	"bytes"
	"io"
	"testing"

	"alak/rules"
)

// benchRecord is a random game of 100 moves on 21 points under Tromp-Taylor
// rules, nine passes in a row needed to end it.
func benchRecord(b *testing.B) Record {
	b.Helper()
	r := rules.MustPreset("tromp-taylor")
	r.SetSize(21, 1)
	r.EndPasses = 9
	start, _ := rules.NewPosition(r)
	rec := NewRecord(randomGame(b, start, 1, 100))
	if len(rec.Moves) < 50 {
		b.Fatalf("the game has %d moves", len(rec.Moves))
	}
	return rec
}

func BenchmarkWriteSGF(b *testing.B) {
	rec := benchRecord(b)
	for b.Loop() {
		if err := WriteSGF(io.Discard, rec); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadSGF(b *testing.B) {
	var buf bytes.Buffer
	if err := WriteSGF(&buf, benchRecord(b)); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if _, err := ReadSGF(buf.Bytes()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadMoveList(b *testing.B) {
	var buf bytes.Buffer
	if err := WriteMoveList(&buf, benchRecord(b)); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if _, err := ReadMoveList(buf.Bytes()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBoard(b *testing.B) {
	g, err := benchRecord(b).Game()
	if err != nil {
		b.Fatal(err)
	}
	pos := g.Position()
	for b.Loop() {
		_ = Board(pos, true)
	}
}
