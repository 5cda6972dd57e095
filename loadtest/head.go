package loadtest

import (
	"encoding/json"
	"strconv"
	"strings"

	"alak/wire"
)

// readHead reads the head of a game's event (wire.GameHead) from its JSON
// object: the five top-level fields it needs, every other value skipped
// by one pass over its bytes. Each player of the load reads every event of
// its game, so the tool reads two events a move; encoding/json, which
// checks the whole object and then decodes it by reflection, was a
// quarter of the tool's CPU, taken from the server it measures on the
// same machine. A value readHead does not read (another field, an escape
// in a field it reads) is left to encoding/json, which then reads the
// whole object: the result is encoding/json's wherever the object is
// valid JSON (FuzzReadHead).
func readHead(data []byte) (wire.GameHead, error) {
	var h wire.GameHead
	if ok := scanHead(data, &h); ok {
		return h, nil
	}
	h = wire.GameHead{}
	err := json.Unmarshal(data, &h)
	return h, err
}

// headFields are the JSON names of wire.GameHead's fields, in setHead's
// order.
var headFields = [...]string{"state", "ply", "to_move", "over", "legal"}

// scanHead fills h from data, a JSON object, and says whether it could:
// false for anything it does not read itself (invalid JSON, an escaped
// string among the fields it reads, a value of another type than the
// field's, a repeated field), which readHead gives to encoding/json.
func scanHead(data []byte, h *wire.GameHead) bool {
	s := scanner{b: data}
	s.space()
	if !s.byte('{') {
		return false
	}
	var seen [5]bool
	s.space()
	if s.byte('}') {
		s.space()
		return s.i == len(s.b)
	}
	for {
		s.space()
		key, ok := s.plainBytes()
		if !ok {
			return false
		}
		s.space()
		if !s.byte(':') {
			return false
		}
		s.space()
		start := s.i
		if !s.skipValue(0) {
			return false
		}
		v := data[start:s.i]
		field := -1
		for f, name := range headFields {
			if string(key) == name {
				field = f
			} else if len(key) == len(name) && strings.EqualFold(string(key), name) {
				return false // encoding/json matches keys regardless of case too: its reading
			}
		}
		if field >= 0 {
			if seen[field] {
				return false // encoding/json keeps the last: leave it to it
			}
			seen[field] = true
			if !setHead(h, field, v) {
				return false
			}
		}
		s.space()
		if s.byte('}') {
			s.space()
			return s.i == len(s.b)
		}
		if !s.byte(',') {
			return false
		}
	}
}

// setHead sets field f of h from its JSON value v, as encoding/json would
// for the values the server writes; false for any other.
func setHead(h *wire.GameHead, f int, v []byte) bool {
	switch f {
	case 0, 2: // a string without escapes, or null (which leaves it "")
		if string(v) == "null" {
			return true
		}
		sc := scanner{b: v}
		b, ok := sc.plainBytes()
		if !ok || sc.i != len(v) {
			return false
		}
		if f == 0 {
			h.State = string(b)
		} else {
			h.ToMove = string(b)
		}
	case 1: // an integer
		if string(v) == "null" {
			return true
		}
		n, err := strconv.Atoi(string(v))
		if err != nil || (len(v) > 1 && v[0] == '0') || (len(v) > 2 && v[0] == '-' && v[1] == '0') {
			return false
		}
		h.Ply = n
	case 3:
		switch string(v) {
		case "true":
			h.Over = true
		case "false", "null":
			h.Over = false
		default:
			return false
		}
	case 4:
		if string(v) == "null" {
			return false // what a raw message makes of null is encoding/json's
		}
		h.Legal = append(json.RawMessage(nil), v...)
	}
	return true
}

// scanner reads JSON from b at i.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) byte(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// plainBytes reads a string of printable ASCII without escapes, and
// returns its bytes (a part of s.b); false for any other (encoding/json
// reads those: escapes, and non-ASCII, where it replaces invalid UTF-8).
func (s *scanner) plainBytes() ([]byte, bool) {
	if !s.byte('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			b := s.b[start:s.i]
			s.i++
			return b, true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, false
		}
		s.i++
	}
	return nil, false
}

// maxDepth bounds the nesting skipValue follows (encoding/json's own
// bound is 10,000): deeper objects go to encoding/json.
const maxDepth = 64

// skipValue passes one JSON value, checking its syntax as it goes (so
// that a value it passes is one encoding/json would accept).
func (s *scanner) skipValue(depth int) bool {
	if depth > maxDepth || s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		return s.skipString()
	case c == '{':
		s.i++
		s.space()
		if s.byte('}') {
			return true
		}
		for {
			s.space()
			if !s.skipString() {
				return false
			}
			s.space()
			if !s.byte(':') {
				return false
			}
			s.space()
			if !s.skipValue(depth + 1) {
				return false
			}
			s.space()
			if s.byte('}') {
				return true
			}
			if !s.byte(',') {
				return false
			}
		}
	case c == '[':
		s.i++
		s.space()
		if s.byte(']') {
			return true
		}
		for {
			s.space()
			if !s.skipValue(depth + 1) {
				return false
			}
			s.space()
			if s.byte(']') {
				return true
			}
			if !s.byte(',') {
				return false
			}
		}
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return s.skipNumber()
	}
	return false
}

func (s *scanner) literal(w string) bool {
	if len(s.b)-s.i >= len(w) && string(s.b[s.i:s.i+len(w)]) == w {
		s.i += len(w)
		return true
	}
	return false
}

// skipString passes a string; escapes are passed whole, and anything
// encoding/json would refuse (a control character, a bad escape) makes it
// give up. (What encoding/json would rewrite, invalid UTF-8, does not
// matter in a value that is skipped.)
func (s *scanner) skipString() bool {
	if !s.byte('"') {
		return false
	}
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return true
		case c < 0x20:
			return false // encoding/json refuses it
		case c == '\\':
			s.i++
			if s.i >= len(s.b) {
				return false
			}
			switch s.b[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i++
			case 'u':
				if len(s.b)-s.i < 5 {
					return false
				}
				for _, h := range s.b[s.i+1 : s.i+5] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return false
					}
				}
				s.i += 5
			default:
				return false
			}
		default:
			s.i++
		}
	}
	return false
}

// skipNumber passes a number of JSON's grammar.
func (s *scanner) skipNumber() bool {
	s.byte('-')
	switch {
	case s.byte('0'):
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		s.digits()
	default:
		return false
	}
	if s.byte('.') {
		if !s.digits() {
			return false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if !s.byte('+') {
			s.byte('-')
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

func (s *scanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}
