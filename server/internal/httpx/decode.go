package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"alak/internal/clip"
	"alak/wire"
)

// MaxBody bounds every request body.
const MaxBody = 16 << 10

// Decode reads a JSON body of at most MaxBody bytes into v, refusing
// unknown fields and trailing data. An empty body is an empty object.
func Decode(w http.ResponseWriter, r *http.Request, v any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return Errf(wire.TooLarge, "too_large", "the body is larger than %d bytes", MaxBody)
		}
		return Errf(wire.BadRequest, "bad_body", "the body could not be read")
	}
	return DecodeBytes(body, v)
}

// DecodeBytes is Decode's parsing, on its own for the fuzz test.
func DecodeBytes(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return Errf(wire.BadRequest, "bad_json", "the body is not the JSON object this call takes (%s): docs/api.md describes it", clip.Text(err.Error()))
	}
	// Only JSON's white space may follow the value (dec.More misses a
	// stray ] or }).
	if rest := bytes.Trim(body[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return Errf(wire.BadRequest, "bad_json", "the body holds more than one JSON value")
	}
	return nil
}
