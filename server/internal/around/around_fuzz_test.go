package around

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"alak/server/internal/httpx"
	"alak/wire"
)

// FuzzMessageRequest: the body of POST /api/games/{id}/messages is either
// refused with a clear error (400 for a body that is not the JSON object,
// 422 for a text out of bounds) or gives a text within every bound, never
// a panic.
func FuzzMessageRequest(f *testing.F) {
	for _, seed := range []string{
		``, `{}`, `{"text": "good luck"}`, `{"text": "  gg \n"}`, `{"text": ""}`, `{"text": "   "}`, `{"text": "a\nb"}`,
		`{"text": "\u0000"}`, `{"text": "\u200b\u0085"}`, `{"text": "\ud800"}`, `{"text": "<script>alert(1)</script>"}`,
		`{"text": "` + strings.Repeat("é", 500) + `"}`, `{"text": "` + strings.Repeat("é", 501) + `"}`, `{"text": 3}`,
		`{"text": "a", "extra": 1}`, `{"text": "a"} {}`, `"\xff"`, `{"text": "\xff\xfe"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		text, err := decodeMessage(body)
		if err != nil {
			var ae *httpx.Error
			if !errors.As(err, &ae) || ae.Msg == "" || ae.Kind.Status() != http.StatusBadRequest && ae.Kind.Status() != http.StatusUnprocessableEntity {
				t.Errorf("%q: %#v, want a 400 or 422 that says why", body, err)
			}
			return
		}
		if !json.Valid(body) {
			t.Errorf("accepted %q, which is not one JSON value", body)
		}
		if text == "" || text != strings.TrimSpace(text) || !utf8.ValidString(text) || utf8.RuneCountInString(text) > maxMessageChars || strings.IndexFunc(text, unicode.IsControl) >= 0 {
			t.Errorf("%q: accepted the text %q, out of bounds", body, text)
		}
	})
}

// FuzzRematchRequest: the body of POST /api/games/{id}/rematch decodes or
// is refused with a 400, never a panic.
func FuzzRematchRequest(f *testing.F) {
	for _, seed := range []string{``, `{}`, `{"decline": true}`, `{"decline": false}`, `{"decline": "yes"}`, `{"decline": null}`, `{"accept": true}`, `[]`, `{} x`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, v := range []any{new(wire.RematchRequest), new(wire.MuteRequest)} {
			err := httpx.DecodeBytes(body, v)
			if err == nil {
				if s := strings.TrimSpace(string(body)); s != "" && !json.Valid(body) {
					t.Errorf("%T: accepted %q, which is not one JSON value", v, body)
				}
				continue
			}
			var ae *httpx.Error
			if !errors.As(err, &ae) || ae.Kind.Status() != http.StatusBadRequest || ae.Code != "bad_json" {
				t.Errorf("%T: %q: %#v, want a 400 bad_json", v, body, err)
			}
		}
	})
}
