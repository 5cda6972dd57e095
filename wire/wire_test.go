package wire

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// jsonFields returns the JSON name and the type of every field t encodes,
// its embedded structs' fields included (the shallower field winning, as
// encoding/json does).
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	var walk func(t reflect.Type, depth int, seen map[string]int)
	walk = func(t reflect.Type, depth int, seen map[string]int) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
				walk(f.Type, depth+1, seen)
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if d, ok := seen[name]; ok && d <= depth {
				continue
			}
			seen[name] = depth
			out[name] = f.Type
		}
	}
	walk(t, 0, map[string]int{})
	return out
}

// TestGameHead: every field of GameHead is a field of Game of the same
// JSON name and type (json.RawMessage standing for any type), so that a
// GameHead reads a Game's JSON.
func TestGameHead(t *testing.T) {
	game := jsonFields(reflect.TypeFor[Game]())
	raw := reflect.TypeFor[json.RawMessage]()
	head := jsonFields(reflect.TypeFor[GameHead]())
	if len(head) != 5 {
		t.Errorf("GameHead has %d fields, want 5", len(head))
	}
	for name, ht := range head {
		gt, ok := game[name]
		switch {
		case !ok:
			t.Errorf("GameHead's %q is not a field of Game", name)
		case ht != gt && ht != raw:
			t.Errorf("GameHead's %q is a %v, Game's a %v", name, ht, gt)
		}
	}
	// And it reads one.
	g := Game{ID: "g", State: "active"}
	g.Ply, g.ToMove, g.Legal = 3, "o", []any{2, "pass"}
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var h GameHead
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatal(err)
	}
	if h.State != "active" || h.Ply != 3 || h.ToMove != "o" || h.Over || string(h.Legal) != `[2,"pass"]` {
		t.Errorf("the head of %s: %+v", b, h)
	}
}

// TestKinds: each kind's status, the one the server answered such errors
// with before the kinds existed (docs/api.md lists them by status and
// code), read back by KindOf; Refusal holds exactly for the kinds answered
// 400 to 429.
func TestKinds(t *testing.T) {
	for _, c := range []struct {
		k       Kind
		status  int
		back    Kind // KindOf(status)
		refusal bool
	}{
		{Internal, http.StatusInternalServerError, Internal, false},
		{BadRequest, http.StatusBadRequest, BadRequest, true},
		{Unauthenticated, http.StatusUnauthorized, Unauthenticated, true},
		{Forbidden, http.StatusForbidden, Forbidden, true},
		{NotYourTurn, http.StatusForbidden, Forbidden, true},
		{NotFound, http.StatusNotFound, NotFound, true},
		{Conflict, http.StatusConflict, Conflict, true},
		{TooLarge, http.StatusRequestEntityTooLarge, TooLarge, true},
		{BadInput, http.StatusUnprocessableEntity, BadInput, true},
		{IllegalMove, http.StatusUnprocessableEntity, BadInput, true},
		{RateLimited, http.StatusTooManyRequests, RateLimited, true},
		{Cancelled, 499, Cancelled, false},
		{Unavailable, http.StatusServiceUnavailable, Unavailable, false},
	} {
		if got := c.k.Status(); got != c.status {
			t.Errorf("kind %d: status %d, want %d", c.k, got, c.status)
		}
		if got := KindOf(c.status); got != c.back {
			t.Errorf("KindOf(%d) = %d, want %d", c.status, got, c.back)
		}
		if got := c.k.Refusal(); got != c.refusal {
			t.Errorf("kind %d: refusal %v, want %v", c.k, got, c.refusal)
		}
	}
	if n := len(statuses); n != 13 {
		t.Errorf("%d kinds, the table above has 13", n)
	}
	for status, want := range map[int]Kind{http.StatusMethodNotAllowed: BadRequest, http.StatusGone: BadRequest, http.StatusBadGateway: Internal} {
		if got := KindOf(status); got != want {
			t.Errorf("KindOf(%d) = %d, want %d", status, got, want)
		}
	}
	if k := Kind(200); k.Status() != http.StatusInternalServerError || k.Refusal() {
		t.Errorf("an unknown kind: status %d, refusal %v", k.Status(), k.Refusal())
	}
}
