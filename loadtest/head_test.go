package loadtest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"alak/session"
	"alak/wire"
)

// headSeeds are objects like the server's events, and the cases readHead
// leaves to encoding/json.
var headSeeds = []string{
	`{"id":"g1","state":"active","ply":3,"to_move":"o","over":false,"legal":[1,2,"pass"],"clock":{"spec":"none","x_ms":0},"players":{"x":{"name":"ada"},"o":{"name":"bo"}},"moves":["3","5","pass"]}`,
	`{"state":"finished","ply":40,"to_move":"","over":true,"legal":[],"result":"White wins 3-5 (White has no legal move)"}`,
	` { "ply" : -0 , "over" : null , "state" : null } `,
	`{"State":"active","ply":1}`,
	`{"state":"act\u0069ve","ply":2}`,
	`{"state":"é","ply":2,"note":"ü \u00e9 \n"}`,
	`{"ply":1,"ply":2}`,
	`{"ply":1.5}`,
	`{"ply":"3"}`,
	`{"legal":null}`,
	`{"x":[[[[{"a":[1e5,-2.5E-3,true,false,null]}]]]],"to_move":"x"}`,
	`{}`,
	`[]`,
	`{"ply":1,}`,
	`{"ply":01}`,
	`{"state":"a` + "\x01" + `"}`,
	`{"s":"` + "\xff" + `","ply":7}`,
	`{"ply":99999999999999999999}`,
}

// FuzzReadHead: readHead reads what encoding/json reads. Where
// encoding/json accepts the bytes (as a wire.GameHead), readHead gives the
// same head; where it refuses them, readHead refuses them too.
func FuzzReadHead(f *testing.F) {
	for _, s := range headSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want wire.GameHead
		werr := json.Unmarshal(data, &want)
		got, err := readHead(data)
		if (werr == nil) != (err == nil) {
			t.Fatalf("%q: readHead error %v, encoding/json %v", data, err, werr)
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: readHead %+v, encoding/json %+v", data, got, want)
		}
	})
}

// TestReadHeadFastPath: an event as the server writes it is read by the
// fast path (not handed to encoding/json), with its legal moves raw.
func TestReadHeadFastPath(t *testing.T) {
	var h wire.GameHead
	if !scanHead([]byte(headSeeds[0]), &h) {
		t.Fatalf("the server's kind of event was not read by the fast path")
	}
	if h.State != "active" || h.Ply != 3 || h.ToMove != "o" || h.Over || !bytes.Equal(h.Legal, []byte(`[1,2,"pass"]`)) {
		t.Errorf("read %+v", h)
	}
	for _, s := range []string{`{"State":"active"}`, `{"ply":1,"ply":2}`, `{"legal":null}`, `{"state":"é"}`} {
		if scanHead([]byte(s), &wire.GameHead{}) {
			t.Errorf("%s: read by the fast path, which leaves it to encoding/json", s)
		}
	}
}

// BenchmarkReadHead compares readHead with encoding/json on an event of
// alak on 11 points as the server writes it (a game's view).
func BenchmarkReadHead(b *testing.B) {
	data := sampleEvent(b)
	b.Run("readHead", func(b *testing.B) {
		for b.Loop() {
			if _, err := readHead(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			var h wire.GameHead
			if err := json.Unmarshal(data, &h); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// sampleEvent is a wire.Game of a game of alak on 11 points under way,
// encoded as the server encodes its events (its fields filled as a game's
// view fills them).
func sampleEvent(tb testing.TB) []byte {
	g := wire.Game{Snapshot: session.Snapshot{Rules: "alak", Size: 11, Board: "x-o--xo-x--", ToMove: "x",
		Forbidden: []any{}, Legal: []any{2, 4, 5, 8, 10, 11, "pass"}, Ply: 12, LastMove: 7, Captured: []any{},
		Diagram: "x-o--xO-x--", Stones: map[string]int{"x": 3, "o": 2}, Prisoners: map[string]int{"x": 1, "o": 0},
		Score: map[string]float64{"x": 4, "o": 2}}}
	g.ID, g.Rules, g.Preset, g.State, g.Kind = "k3j9x2", "alak size=11", "alak", "active", "named"
	g.Players = map[string]wire.Seat{"x": {Name: "ada"}, "o": {Name: "bo"}}
	g.Moves = []string{"6", "3", "7", "9", "1", "10", "4", "2", "5", "11", "pass", "7"}
	g.Notation = g.Moves
	g.Clock = wire.Clock{Spec: "live:5m+3s", Words: "5m + 3s", XMillis: 281000, OMillis: 290500, Running: "x"}
	g.Version, g.EventID, g.RulesText = 13, "12.13", "Alak on a line of 11 points: Baljeu's rules."
	data, err := json.Marshal(g)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}
