package rules

import (
	"errors"
	"testing"
)

// FuzzParseDiagram: any text under any preset either sets up a position
// whose diagram reads back to the same position, or gives an error; never
// a panic.
func FuzzParseDiagram(f *testing.F) {
	for _, s := range []string{"x--oX-", "//Oo-o", "xxxx___oooo", "ox-|-o-|o--", "X", "", "x|", "xO/X", "-----oX/x-"} {
		f.Add(uint8(0), s, true)
		f.Add(uint8(5), s, false)
	}
	names := Presets()
	f.Fuzz(func(t *testing.T, preset uint8, diagram string, black bool) {
		r := MustPreset(names[int(preset)%len(names)])
		toMove := White
		if black {
			toMove = Black
		}
		pos, err := ParseDiagram(r, diagram, toMove)
		if err != nil {
			if !errors.Is(err, ErrSetup) && !errors.Is(err, ErrRules) {
				t.Fatalf("error %v wraps neither ErrSetup nor ErrRules", err)
			}
			return
		}
		back, err := ParseDiagram(r, pos.String(), toMove)
		if err != nil {
			t.Fatalf("%q -> %q does not read back: %v", diagram, pos.String(), err)
		}
		if back.String() != pos.String() || back.Hash() != pos.Hash() {
			t.Fatalf("%q -> %q -> %q", diagram, pos.String(), back.String())
		}
	})
}

// FuzzParseRules: a rules description either parses to rules whose String
// parses back to the same rules, or gives an error wrapping ErrRules.
func FuzzParseRules(f *testing.F) {
	for _, s := range []string{"alak", "alak size=6 edge=off", "traditional komi=0.5", "alterigo size=9x9", "golf selfcapture=run start=xx___oo", "tromp-taylor size=1x12", "x=y", "alak size=99"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrRules) {
				t.Fatalf("Parse(%q): %v does not wrap ErrRules", s, err)
			}
			return
		}
		back, err := Parse(r.String())
		if err != nil || back != r {
			t.Fatalf("Parse(%q) = %+v; String %q reads back as %+v, %v", s, r, r.String(), back, err)
		}
	})
}

// FuzzPlay: any sequence of move numbers under any preset is either played
// or refused with an error wrapping ErrIllegal; the position refusing a move
// is unchanged.
func FuzzPlay(f *testing.F) {
	f.Add(uint8(0), uint8(11), []byte{0, 3, 4, 5, 1, 2})
	f.Add(uint8(4), uint8(11), []byte{200, 17, 3, 255})
	f.Add(uint8(3), uint8(3), []byte{4, 4, 1, 0, 8})
	names := Presets()
	f.Fuzz(func(t *testing.T, preset, size uint8, moves []byte) {
		r := MustPreset(names[int(preset)%len(names)])
		if r.IsLine() {
			r.SetSize(int(size)%64+1, 1)
		} else {
			r.SetSize(int(size)%5+1, int(size)/5%5+1)
		}
		pos, err := NewPosition(r)
		if err != nil {
			return // e.g. a sliding start too small to leave an empty slot
		}
		for _, b := range moves {
			var m Move
			switch {
			case b == 255:
				m = Pass
			case b == 254:
				m = Resign
			case r.Movement == Sliding:
				m = Slide(int(b>>4), int(b&15))
			default:
				m = Place(int(b))
			}
			keep := pos
			next, err := pos.Play(m)
			if err != nil {
				if !errors.Is(err, ErrIllegal) && !errors.Is(err, ErrSetup) {
					t.Fatalf("%v: %v does not wrap ErrIllegal", m, err)
				}
				if pos != keep {
					t.Fatal("a refused move changed the position")
				}
				continue
			}
			pos = next
		}
	})
}

// FuzzMoveText: Move's text form reads back to the same move.
func FuzzMoveText(f *testing.F) {
	for _, s := range []string{"3", "1-4", "pass", "resign", "0", "-1", "a", "64-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var m Move
		if err := m.UnmarshalText([]byte(s)); err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("%q: %v does not wrap ErrSyntax", s, err)
			}
			return
		}
		text, _ := m.MarshalText()
		var back Move
		if err := back.UnmarshalText(text); err != nil || back != m {
			t.Fatalf("%q -> %v -> %q -> %v, %v", s, m, text, back, err)
		}
	})
}
