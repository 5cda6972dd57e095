package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"alak/wire"
)

// Client speaks the play server's API (docs/api.md) with a bearer token.
// Its methods are safe for concurrent use.
type Client struct {
	base  string // the server's URL, without a trailing slash
	token string
	http  *http.Client // requests: bounded in time
	sse   *http.Client // event streams: no overall timeout
}

// maxAnswer bounds an answer the client reads (a game's state is a few
// kilobytes).
const maxAnswer = 1 << 20

// NewClient returns a client of the server at base (http or https) signing
// in with token.
func NewClient(base, token string) (*Client, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--url %q: the server's address is an http or https URL, such as http://localhost:8080", base)
	}
	if strings.TrimSpace(token) == "" {
		return nil, errors.New("--token: a bearer token is needed (POST /api/tokens gives one, docs/bots.md)")
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	return &Client{base: strings.TrimRight(base, "/"), token: token,
		http: &http.Client{Transport: tr, Timeout: 30 * time.Second},
		sse:  &http.Client{Transport: tr}}, nil
}

// APIError is an error answer of the server: its status and its
// wire.Error.
type APIError struct {
	Status  int
	Code    string
	Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("the server answered %d %s: %s", e.Status, e.Code, e.Message)
}

// Kind is the kind of error the status says (wire.KindOf).
func (e *APIError) Kind() wire.Kind { return wire.KindOf(e.Status) }

// Permanent reports whether asking again cannot help: a refusal other
// than a rate limit or a conflict of the moment.
func (e *APIError) Permanent() bool {
	k := e.Kind()
	return k.Refusal() && k != wire.RateLimited && e.Code != "conflict" && e.Code != "try_again"
}

// apiError reads an error answer: its status, and its wire.Error when the
// body is one (else the body's text).
func apiError(status int, body []byte) *APIError {
	ae := &APIError{Status: status}
	var e wire.Error
	if json.Unmarshal(body, &e) == nil {
		ae.Code, ae.Message = e.Code, e.Error
	} else {
		ae.Message = strings.TrimSpace(string(body))
	}
	return ae
}

// codeOf returns the API error code of err, "" for another error.
func codeOf(err error) string {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Code
	}
	return ""
}

// do sends one request with a JSON body (nil: none) and decodes the answer
// into out (nil: discarded).
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	if resp.StatusCode >= 300 {
		return apiError(resp.StatusCode, data)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: the answer is not the JSON expected: %w", method, path, err)
	}
	return nil
}

// Me returns the account the token signs in.
func (c *Client) Me(ctx context.Context) (wire.Me, error) {
	var m wire.Me
	err := c.do(ctx, http.MethodGet, "/api/me", nil, &m)
	return m, err
}

// gameEnded reports whether the game will take no more moves.
func gameEnded(g *wire.Game) bool {
	return g.State == "finished" || g.State == "aborted" || g.State == "expired" || g.Over
}

// seatOf returns the colour ("x" or "o") name sits in, "" if neither.
func seatOf(players map[string]wire.Seat, name string) string {
	for _, c := range []string{"x", "o"} {
		if s, ok := players[c]; ok && s.Name != "" && strings.EqualFold(s.Name, name) {
			return c
		}
	}
	return ""
}

// Game returns a game's state.
func (c *Client) Game(ctx context.Context, id string) (wire.Game, error) {
	var g wire.Game
	err := c.do(ctx, http.MethodGet, "/api/games/"+url.PathEscape(id), nil, &g)
	return g, err
}

// Start returns the diagram a game started from (the first of GET
// /api/games/{id}/positions).
func (c *Client) Start(ctx context.Context, id string) (string, error) {
	var p wire.Positions
	if err := c.do(ctx, http.MethodGet, "/api/games/"+url.PathEscape(id)+"/positions", nil, &p); err != nil {
		return "", err
	}
	if len(p.Positions) == 0 {
		return "", fmt.Errorf("game %s: the server gave no start position", id)
	}
	return p.Positions[0], nil
}

// Join accepts a challenge: takes the empty seat.
func (c *Client) Join(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodPost, "/api/games/"+url.PathEscape(id)+"/join", wire.JoinRequest{}, nil)
}

// maxReason is the longest reason a decline may give (bytes, one line).
const maxReason = 200

// Decline refuses a challenge, saying why: the server keeps the reason
// (the expired game's reason is "declined: ..."), cut to maxReason bytes
// on one line.
func (c *Client) Decline(ctx context.Context, id, reason string) error {
	return c.do(ctx, http.MethodPost, "/api/games/"+url.PathEscape(id)+"/decline", wire.DeclineRequest{Reason: clipReason(reason)}, nil)
}

// clipReason makes reason one line of printable text of at most maxReason
// bytes, cut at a character's boundary with "..." where it was longer.
func clipReason(reason string) string {
	reason = strings.Join(strings.FieldsFunc(reason, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
	if len(reason) <= maxReason {
		return reason
	}
	cut := maxReason - len("...")
	for cut > 0 && !utf8.RuneStart(reason[cut]) {
		cut--
	}
	return reason[:cut] + "..."
}

// Move plays move at ply (the number of moves the bridge saw played).
func (c *Client) Move(ctx context.Context, id, move string, ply int) error {
	return c.do(ctx, http.MethodPost, "/api/games/"+url.PathEscape(id)+"/moves", wire.MoveRequest{Move: move, Ply: &ply}, nil)
}

// MyGames lists the account's games and the challenges to it.
func (c *Client) MyGames(ctx context.Context) (wire.MyGames, error) {
	var m wire.MyGames
	err := c.do(ctx, http.MethodGet, "/api/me/games", nil, &m)
	return m, err
}

// Stream opens an event stream (path under the server) and calls f with
// each event until the stream ends, ctx ends or f returns an error. A
// stream silent for longer than idle (the server sends a comment every
// 15 s) is taken for a lost connection and ended with an error.
func (c *Client) Stream(ctx context.Context, path string, idle time.Duration, f func(Event) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.sse.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
		return apiError(resp.StatusCode, data)
	}
	errSilent := fmt.Errorf("%s: nothing received for %v", path, idle)
	watchdog := time.AfterFunc(idle, func() { cancel(errSilent) })
	defer watchdog.Stop()
	err = readEvents(resp.Body, func() { watchdog.Reset(idle) }, f)
	if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil && errors.Is(cause, errSilent) {
		return errSilent
	}
	return err
}
