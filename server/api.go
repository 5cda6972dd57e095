package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"alak/internal/clip"
	"alak/notation"
	"alak/player"
	"alak/rules"
	"alak/server/store"
	"alak/session"
)

// maxBody bounds every request body.
const maxBody = 16 << 10

func (s *Server) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /healthz", s.handleHealth)
	mux.HandleFunc("GET /readyz", s.handleReady)
	if !s.cfg.MetricsElsewhere {
		mux.Handle("GET /metrics", s.MetricsHandler())
	}
	mux.HandleFunc("POST /api/accounts", s.handleCreateAccount)
	mux.HandleFunc("POST /api/login", s.handleLogin)
	mux.HandleFunc("POST /api/logout", s.handleLogout)
	mux.HandleFunc("POST /api/tokens", s.handleToken)
	mux.HandleFunc("DELETE /api/tokens/current", s.handleRevokeToken)
	mux.HandleFunc("GET /api/me", s.handleMe)
	mux.HandleFunc("PUT /api/me", s.handleUpdateMe)
	mux.HandleFunc("GET /api/me/games", s.handleMyGames)
	mux.HandleFunc("GET /api/rules", s.handleRules)
	mux.HandleFunc("GET /api/lobby", s.handleLobby)
	mux.HandleFunc("GET /api/players/{name}", s.handlePlayer)
	mux.HandleFunc("POST /api/games", s.handleCreateGame)
	mux.HandleFunc("GET /api/games", s.handleListGames)
	mux.HandleFunc("GET /api/games/{id}", s.handleGame)
	mux.HandleFunc("GET /api/games/{id}/events", s.handleEvents)
	mux.HandleFunc("GET /api/games/{id}/sgf", s.handleSGF)
	mux.HandleFunc("GET /api/games/{id}/analysis", s.handleAnalysis)
	mux.HandleFunc("POST /api/games/{id}/join", s.handleJoin)
	mux.HandleFunc("POST /api/games/{id}/decline", s.handleDecline)
	mux.HandleFunc("POST /api/games/{id}/moves", s.handleMove)
	mux.HandleFunc("POST /api/games/{id}/resign", s.handleResign)
	mux.HandleFunc("POST /api/games/{id}/draw", s.handleDraw)
	mux.HandleFunc("POST /api/games/{id}/takeback", s.handleTakeback)
	mux.HandleFunc("POST /api/games/{id}/abort", s.handleAbort)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, apiErr(http.StatusNotFound, "no_route", "no such API call: docs/api.md lists them"))
	})
	s.pageRoutes(mux)
}

// decode reads a JSON body of at most maxBody bytes into v, refusing
// unknown fields and trailing data. An empty body is an empty object.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return apiErr(http.StatusRequestEntityTooLarge, "too_large", "the body is larger than %d bytes", maxBody)
		}
		return apiErr(http.StatusBadRequest, "bad_body", "the body could not be read")
	}
	return decodeBytes(body, v)
}

// decodeBytes is decode's parsing, on its own for the fuzz test.
func decodeBytes(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return apiErr(http.StatusBadRequest, "bad_json", "the body is not the JSON object this call takes (%s): docs/api.md describes it", clip.Text(err.Error()))
	}
	// Only JSON's white space may follow the value (dec.More misses a
	// stray ] or }).
	if rest := bytes.Trim(body[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return apiErr(http.StatusBadRequest, "bad_json", "the body holds more than one JSON value")
	}
	return nil
}

type credentials struct {
	Name     string `json:"name"`
	Password string `json:"password"`
	Email    string `json:"email,omitempty"`
}

func (s *Server) handleCreateAccount(w http.ResponseWriter, r *http.Request) {
	var c credentials
	if err := decode(w, r, &c); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := checkName(c.Name); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := checkPasswordRules(c.Password); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := checkEmail(c.Email); err != nil {
		s.writeError(w, r, err)
		return
	}
	if wait, ok := s.signup.allow(clientAddr(r), s.now()); !ok {
		s.writeError(w, r, tooMany(wait, "too many new accounts from this address: wait %s", waitWords(wait)))
		return
	}
	hash, err := hashPassword(c.Password)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	guest := guestOf(r) // checked before the new account's cookie replaces the guest's
	a, err := s.store.CreateAccount(r.Context(), store.Account{Name: c.Name, PassHash: hash, Email: c.Email, Created: s.now()})
	if errors.Is(err, store.ErrDuplicate) {
		s.writeError(w, r, apiErr(http.StatusConflict, "name_taken", "the name %s is taken: choose another", c.Name))
		return
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "account created", "account", a.ID)
	out := AccountView{MeView: meView(a)}
	if guest != nil {
		// Signing up from a guest's session takes the guest's games over,
		// before the guest's cookie is replaced: if the claim fails, the
		// browser still holds the guest, and signing in can claim again.
		if out.Claimed, err = s.claimGuestGames(r, guest, a); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	if err := s.startSession(w, r, a); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, out)
}

// AccountView is what signing up and signing in answer: the account, and
// the guest's games it took over, if any.
type AccountView struct {
	MeView
	Claimed *ClaimView `json:"claimed,omitempty"`
}

// checkEmail takes "" (no mail) or an address name@host of at most 200
// bytes of valid UTF-8 that holds no white space of any kind (a space, a
// tab, a line or paragraph separator, a no-break space), no control or
// invisible formatting character, and none of < > , ; (one address, and
// nothing that could end a mail header line or hide in one).
func checkEmail(email string) error {
	if email == "" {
		return nil
	}
	bad := func(why string) error {
		return apiErr(http.StatusUnprocessableEntity, "bad_email", "an email address is name@host, at most 200 characters, without spaces, tabs, line breaks, control characters or < > , ; (%s)", why)
	}
	if len(email) > 200 {
		return bad("this one is longer")
	}
	if !utf8.ValidString(email) {
		return bad("this one is not valid UTF-8")
	}
	at := strings.LastIndexByte(email, '@')
	if at <= 0 || at == len(email)-1 {
		return bad("this one has no name@host")
	}
	for _, c := range email {
		switch {
		case unicode.IsSpace(c) || unicode.In(c, unicode.Zs, unicode.Zl, unicode.Zp):
			return bad(fmt.Sprintf("this one holds the white space %U", c))
		case unicode.IsControl(c) || unicode.Is(unicode.Cf, c):
			return bad(fmt.Sprintf("this one holds the control character %U", c))
		case strings.ContainsRune("<>,;", c):
			return bad(fmt.Sprintf("this one holds %q", c))
		}
	}
	return nil
}

// checkSignInLimits spends a password check of name from the request's
// address, or returns the 429 to answer.
func (s *Server) checkSignInLimits(r *http.Request, name string) error {
	if wait, ok := s.logins.attempt(name, clientAddr(r), s.now()); !ok {
		return tooMany(wait, "too many sign-in attempts: wait %s", waitWords(wait))
	}
	return nil
}

// signIn checks a name and password under the rate limits.
func (s *Server) signIn(r *http.Request, c credentials) (store.Account, error) {
	if err := s.checkSignInLimits(r, c.Name); err != nil {
		return store.Account{}, err
	}
	bad := apiErr(http.StatusUnauthorized, "bad_credentials", "the name or the password is wrong")
	if c.Name == "" || len(c.Name) > 24 || len(c.Password) > 200 {
		s.logins.fail(c.Name, clientAddr(r), s.now())
		return store.Account{}, bad
	}
	a, err := s.store.AccountByName(r.Context(), c.Name)
	if errors.Is(err, store.ErrNotFound) {
		checkPassword(dummyHash, c.Password) // the same time whether or not the name exists
		s.logins.fail(c.Name, clientAddr(r), s.now())
		return store.Account{}, bad
	}
	if err != nil {
		return store.Account{}, err
	}
	if !checkPassword(a.PassHash, c.Password) {
		s.logins.fail(c.Name, clientAddr(r), s.now())
		return store.Account{}, bad
	}
	s.logins.succeed(c.Name, clientAddr(r), s.now())
	return a, nil
}

// dummyHash is checked against when the name is unknown.
var dummyHash, _ = hashPassword("a password nobody has")

// handleLogin is POST /api/login {"name", "password", "claim_guest_games"}:
// a session cookie; from a guest's session, with claim_guest_games, the
// guest's games move to the account.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	var req struct {
		credentials
		ClaimGuestGames bool `json:"claim_guest_games"`
	}
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	guest := guestOf(r)
	if req.ClaimGuestGames && guest == nil {
		s.writeError(w, r, apiErr(http.StatusUnprocessableEntity, "not_a_guest",
			"claim_guest_games takes over the games of the guest session this browser plays in, and this request has none"))
		return
	}
	a, err := s.signIn(r, req.credentials)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := AccountView{MeView: meView(a)}
	if req.ClaimGuestGames {
		if out.Claimed, err = s.claimGuestGames(r, guest, a); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	if err := s.startSession(w, r, a); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// handleLogout is POST /api/logout: it ends the request's credential, the
// session cookie's session or the bearer token (revoked), and clears the
// cookie.
func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	if cred, ok := requestCredential(r); ok {
		if err := s.deleteToken(r.Context(), cred.hash); err != nil {
			s.writeError(w, r, err)
			return
		}
	} else if c, err := r.Cookie(sessionCookie); err == nil {
		s.deleteToken(r.Context(), hashSecret(c.Value)) // a stale cookie: nothing to end, most likely
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookies, MaxAge: -1})
	writeJSON(w, http.StatusOK, map[string]string{"status": "signed out"})
}

// handleToken is POST /api/tokens {"name","password"} → {"token"}: a
// bearer token for scripts and bots.
func (s *Server) handleToken(w http.ResponseWriter, r *http.Request) {
	var c credentials
	if err := decode(w, r, &c); err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.signIn(r, c)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	secret, hash := newSecret()
	now := s.now()
	if err := s.store.CreateToken(r.Context(), store.Token{Hash: hash, AccountID: a.ID, Kind: store.TokenAPI, Created: now, Expires: now.Add(apiTokenLife)}); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"token": secret, "expires": now.Add(apiTokenLife)})
}

// handleRevokeToken is DELETE /api/tokens/current: the bearer token the
// request carries is revoked at once (in every process within tokenTTL).
func (s *Server) handleRevokeToken(w http.ResponseWriter, r *http.Request) {
	cred, ok := requestCredential(r)
	if !ok || !cred.bearer {
		s.writeError(w, r, apiErr(http.StatusUnauthorized, "no_token", "send the token to revoke as Authorization: Bearer TOKEN (a browser signs out with POST /api/logout)"))
		return
	}
	if err := s.deleteToken(r.Context(), cred.hash); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "revoked"})
}

// MeView is the signed-in account as /api/me sends it.
type MeView struct {
	ID           int64  `json:"id"`
	Name         string `json:"name"`
	Guest        bool   `json:"guest"`
	Email        string `json:"email,omitempty"`
	ConfirmMoves bool   `json:"confirm_moves"`
}

func meView(a store.Account) MeView {
	return MeView{ID: a.ID, Name: displayName(a), Guest: a.Guest(), Email: a.Email, ConfirmMoves: a.ConfirmMoves}
}

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request) {
	a, err := requireAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, meView(*a))
}

func (s *Server) handleUpdateMe(w http.ResponseWriter, r *http.Request) {
	a, err := requireAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req struct {
		Email        *string `json:"email"`
		ConfirmMoves *bool   `json:"confirm_moves"`
		Password     *string `json:"password"`
		// CurrentPassword must come with Password: whoever holds a stolen
		// cookie or token does not know it.
		CurrentPassword string `json:"current_password"`
	}
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if a.Guest() {
		s.writeError(w, r, apiErr(http.StatusForbidden, "guest", "a guest has no settings: create an account"))
		return
	}
	// The account as stored, not as a token's cached copy holds it: a change
	// made meanwhile (in another process) is not undone.
	acc, err := s.store.AccountByID(r.Context(), a.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Email != nil {
		if err := checkEmail(*req.Email); err != nil {
			s.writeError(w, r, err)
			return
		}
		acc.Email = *req.Email
	}
	if req.ConfirmMoves != nil {
		acc.ConfirmMoves = *req.ConfirmMoves
	}
	if req.Password != nil {
		if err := checkPasswordRules(*req.Password); err != nil {
			s.writeError(w, r, err)
			return
		}
		// The current password is checked as a sign-in is, under the same
		// limits, so that a stolen cookie cannot guess it faster.
		if err := s.checkSignInLimits(r, acc.Name); err != nil {
			s.writeError(w, r, err)
			return
		}
		if len(req.CurrentPassword) > 200 || !checkPassword(acc.PassHash, req.CurrentPassword) {
			s.logins.fail(acc.Name, clientAddr(r), s.now())
			s.writeError(w, r, apiErr(http.StatusForbidden, "wrong_password", "changing the password takes the current one too: current_password is missing or wrong"))
			return
		}
		s.logins.succeed(acc.Name, clientAddr(r), s.now())
		hash, err := hashPassword(*req.Password)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		// Every other session and every token ends: whoever stole one is
		// signed out. The request's own credential stays.
		cred, _ := requestCredential(r)
		if err := s.changePassword(r.Context(), acc.ID, hash, cred.hash); err != nil {
			s.writeError(w, r, err)
			return
		}
		acc.PassHash = hash
		s.log.InfoContext(r.Context(), "password changed", "account", acc.ID)
	}
	if err := s.updateAccount(r.Context(), acc); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, meView(acc))
}

// GameSummary is a game in a list.
type GameSummary struct {
	ID       string                `json:"id"`
	Rules    string                `json:"rules"`
	Preset   string                `json:"preset"`
	Size     string                `json:"size"`
	State    string                `json:"state"`
	Kind     string                `json:"kind"`
	Clock    string                `json:"clock"`
	Players  map[string]PlayerView `json:"players"`
	Ply      int                   `json:"ply"`
	ToMove   string                `json:"to_move,omitempty"` // in an active game
	MyTurn   bool                  `json:"my_turn,omitempty"`
	Deadline *time.Time            `json:"deadline,omitempty"`
	Result   string                `json:"result,omitempty"` // SGF RE form
	Reason   string                `json:"reason,omitempty"`
	Winner   string                `json:"winner,omitempty"`
	Updated  time.Time             `json:"updated"`
	Expires  *time.Time            `json:"expires,omitempty"`
}

func (s *Server) summary(ctx context.Context, g store.Game, me int64, names map[int64]PlayerView) GameSummary {
	out := GameSummary{ID: g.ID, Rules: g.Rules, Preset: g.Preset, Size: g.Size, State: g.State, Kind: g.Kind, Clock: g.Clock,
		Players: map[string]PlayerView{}, Ply: g.Ply, Result: g.Result, Reason: g.Reason, Winner: g.Winner, Updated: g.Updated}
	for i, seat := range []store.Seat{g.Black, g.White} {
		key := []string{"x", "o"}[i]
		switch {
		case seat.Bot != "":
			out.Players[key] = PlayerView{Name: botName(seat.Bot), Computer: true}
		case seat.AccountID != 0:
			pv, ok := names[seat.AccountID]
			if !ok {
				if a, err := s.store.AccountByID(ctx, seat.AccountID); err == nil {
					pv = PlayerView{Name: displayName(a), Guest: a.Guest()}
				}
				names[seat.AccountID] = pv
			}
			out.Players[key] = pv
		}
	}
	if g.State == store.StateActive {
		// The start may have White to move; the row's start and ply say who is to move now.
		toMove := rules.Black
		if g.Start != "" {
			if f := strings.Fields(g.Start); len(f) > 1 && f[1] == "o" {
				toMove = rules.White
			}
		}
		if g.Ply%2 == 1 {
			toMove = toMove.Opp()
		}
		out.ToMove = sym(toMove)
		seat := g.Black
		if toMove == rules.White {
			seat = g.White
		}
		out.MyTurn = me != 0 && seat.AccountID == me
		if !g.Deadline.IsZero() {
			d := g.Deadline
			out.Deadline = &d
		}
	}
	if g.State == store.StateWaiting && !g.Expires.IsZero() {
		e := g.Expires
		out.Expires = &e
	}
	return out
}

// handleMyGames is GET /api/me/games: my active and waiting games, those
// where it is my turn first (the soonest deadline first), then the others,
// then my last finished games.
func (s *Server) handleMyGames(w http.ResponseWriter, r *http.Request) {
	a, err := requireAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	games, err := s.store.Games(r.Context(), store.Filter{Player: a.ID, States: []string{store.StateActive, store.StateWaiting}})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// Challenges addressed to me by name: the creator sits, I do not yet;
	// the query selects them by their named opponent.
	invites, err := s.store.Games(r.Context(), store.Filter{States: []string{store.StateWaiting}, Kind: store.KindNamed,
		Opponent: a.ID, Live: s.now(), Limit: 200})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	names := map[int64]PlayerView{}
	var mine []GameSummary
	for _, g := range games {
		mine = append(mine, s.summary(r.Context(), g, a.ID, names))
	}
	var challenges []GameSummary
	for _, g := range invites {
		challenges = append(challenges, s.summary(r.Context(), g, a.ID, names))
	}
	sort.SliceStable(mine, func(i, j int) bool {
		if mine[i].MyTurn != mine[j].MyTurn {
			return mine[i].MyTurn
		}
		di, dj := mine[i].Deadline, mine[j].Deadline
		switch {
		case di == nil && dj == nil:
			return mine[i].Updated.After(mine[j].Updated)
		case di == nil:
			return false
		case dj == nil:
			return true
		}
		return di.Before(*dj)
	})
	finished, err := s.store.Games(r.Context(), store.Filter{Player: a.ID, States: []string{store.StateFinished, store.StateAborted}, Limit: 20})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var done []GameSummary
	for _, g := range finished {
		done = append(done, s.summary(r.Context(), g, a.ID, names))
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": nonNil(mine), "challenges": nonNil(challenges), "finished": nonNil(done)})
}

func nonNil(gs []GameSummary) []GameSummary {
	if gs == nil {
		return []GameSummary{}
	}
	return gs
}

// handleListGames is GET /api/games?player=NAME&state=active|finished|waiting&preset=P&size=N&before=RFC3339&limit=N.
func (s *Server) handleListGames(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := store.Filter{Preset: q.Get("preset"), Size: q.Get("size")}
	if len(f.Preset) > 40 || len(f.Size) > 10 {
		s.writeError(w, r, apiErr(http.StatusBadRequest, "bad_filter", "preset and size are short words such as alak and 11"))
		return
	}
	if name := q.Get("player"); name != "" {
		a, err := s.store.AccountByName(r.Context(), name)
		if err != nil {
			s.writeError(w, r, apiErr(http.StatusNotFound, "no_player", "no player is called %s", clip.Text(name)))
			return
		}
		f.Player = a.ID
	}
	switch st := q.Get("state"); st {
	case "", "finished":
		f.States = []string{store.StateFinished}
	case "active":
		f.States = []string{store.StateActive}
	case "waiting":
		f.States = []string{store.StateWaiting}
	case "all":
	default:
		s.writeError(w, r, apiErr(http.StatusBadRequest, "bad_filter", "state is active, finished, waiting or all"))
		return
	}
	if b := q.Get("before"); b != "" {
		t, err := time.Parse(time.RFC3339Nano, b)
		if err != nil {
			s.writeError(w, r, apiErr(http.StatusBadRequest, "bad_filter", "before is a time such as 2026-11-24T12:00:00Z"))
			return
		}
		f.Before = t
	}
	f.Limit = 50
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 200 {
			s.writeError(w, r, apiErr(http.StatusBadRequest, "bad_filter", "limit is 1 to 200"))
			return
		}
		f.Limit = n
	}
	games, err := s.store.Games(r.Context(), f)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var me int64
	if a := account(r); a != nil {
		me = a.ID
	}
	names := map[int64]PlayerView{}
	out := []GameSummary{}
	for _, g := range games {
		out = append(out, s.summary(r.Context(), g, me, names))
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": out})
}

// handleLobby is GET /api/lobby: the open challenges anyone may take, the
// 200 most recently made that have not expired (selected by the query,
// whatever other games wait).
func (s *Server) handleLobby(w http.ResponseWriter, r *http.Request) {
	games, err := s.store.Games(r.Context(), store.Filter{States: []string{store.StateWaiting}, Kind: store.KindOpen, Live: s.now(), Limit: 200})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var me int64
	if a := account(r); a != nil {
		me = a.ID
	}
	names := map[int64]PlayerView{}
	out := []GameSummary{}
	for _, g := range games {
		out = append(out, s.summary(r.Context(), g, me, names))
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": out})
}

// handlePlayer is GET /api/players/{name}: the player's record, counted by
// the database over all their finished games.
func (s *Server) handlePlayer(w http.ResponseWriter, r *http.Request) {
	a, err := s.store.AccountByName(r.Context(), r.PathValue("name"))
	if err != nil {
		s.writeError(w, r, apiErr(http.StatusNotFound, "no_player", "no player is called %s", clip.Text(r.PathValue("name"))))
		return
	}
	st, err := s.store.PlayerStats(r.Context(), a.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"name": a.Name, "since": a.Created, "finished": st.Finished, "wins": st.Wins, "losses": st.Losses, "draws": st.Draws})
}

// RulesInfo describes the presets and options for the create form.
type RulesInfo struct {
	Presets []PresetInfo   `json:"presets"`
	Options []rules.Option `json:"options"`
	Levels  []string       `json:"levels"`
	Days    []int          `json:"days"`
}

// PresetInfo is one preset with its defaults and the options it uses.
type PresetInfo struct {
	Name     string            `json:"name"`
	Size     string            `json:"size"`
	Grid     bool              `json:"grid"`
	Sliding  bool              `json:"sliding"`
	Values   map[string]string `json:"values"`
	Applies  []string          `json:"applies"`
	Describe string            `json:"describe"`
}

func (s *Server) handleRules(w http.ResponseWriter, r *http.Request) {
	info := RulesInfo{Options: rules.Options(), Days: CorrespondenceDays}
	for i := 1; i <= player.Levels(); i++ {
		spec, _ := player.Level(i)
		info.Levels = append(info.Levels, spec)
	}
	for _, name := range rules.Presets() {
		p := rules.MustPreset(name)
		pi := PresetInfo{Name: name, Size: p.SizeString(), Grid: !p.IsLine(), Sliding: p.Movement == rules.Sliding, Values: map[string]string{},
			Describe: notation.RulesText(p)}
		for _, o := range rules.Options() {
			v, _ := p.Get(o.Name)
			pi.Values[o.Name] = v
			if p.Applies(o.Name) || o.Name == "passes" || o.Name == "komi" {
				pi.Applies = append(pi.Applies, o.Name)
			}
		}
		info.Presets = append(info.Presets, pi)
	}
	w.Header().Set("Cache-Control", "max-age=3600")
	writeJSON(w, http.StatusOK, info)
}

// createRequest is POST /api/games.
type createRequest struct {
	Rules    string `json:"rules"`    // "alak size=11 edge=off"
	Position string `json:"position"` // an optional start: a diagram, as --position
	ToMove   string `json:"to_move"`  // with position
	Color    string `json:"color"`    // x, o, random
	Clock    string `json:"clock"`    // none, live:5m+3s, days:3
	Opponent string `json:"opponent"` // NAME, open, link, computer:SPEC
}

// CreateView is what POST /api/games answers.
type CreateView struct {
	ID     string `json:"id"`
	URL    string `json:"url"`
	Invite string `json:"invite,omitempty"` // the invitation link (opponent "link")
}

func (s *Server) handleCreateGame(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	g, secret, err := s.newGame(r, req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// New games are limited by address before a guest is made, and by
	// account.
	now := s.now()
	if wait := s.gamesAt.wait(clientAddr(r), now); wait > 0 {
		s.writeError(w, r, tooMany(wait, "too many new games from this address: wait %s", waitWords(wait)))
		return
	}
	a, err := s.accountOrGuest(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if wait, ok := allowAll(now, limit{s.gamesAt, clientAddr(r)}, limit{s.games, strconv.FormatInt(a.ID, 10)}); !ok {
		s.writeError(w, r, tooMany(wait, "too many new games (%d a minute for an account, %d from an address): wait %s", s.cfg.GameRate, 2*s.cfg.GameRate, waitWords(wait)))
		return
	}
	if a.Guest() && (g.Kind == store.KindNamed || g.Kind == store.KindOpen || g.Clock != "none" && strings.HasPrefix(g.Clock, "days:")) {
		s.writeError(w, r, apiErr(http.StatusForbidden, "account_needed", "a guest plays live games by link or against the computer: create an account for correspondence, the lobby and named challenges"))
		return
	}
	if err := s.seatCreator(r.Context(), &g, a); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.store.CreateGame(r.Context(), g); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "game created", "game", g.ID, "rules", g.Rules, "kind", g.Kind, "clock", g.Clock)
	out := CreateView{ID: g.ID, URL: s.gameURL(g.ID)}
	if secret != "" {
		out.Invite = s.gameURL(g.ID) + "?invite=" + secret
	}
	if g.State == store.StateActive {
		if st, err := s.loadGame(r.Context(), g.ID); err == nil && st.botToMove() {
			s.bots.schedule(g.ID, g.Version)
		}
	}
	writeJSON(w, http.StatusCreated, out)
}

// newGame checks a create request and builds the game, without its seats.
func (s *Server) newGame(r *http.Request, req createRequest) (store.Game, string, error) {
	var g store.Game
	if len(req.Rules) > 200 || len(req.Position) > 500 || len(req.Opponent) > 100 {
		return g, "", apiErr(http.StatusUnprocessableEntity, "too_long", "rules are at most 200 characters, a position 500, an opponent 100")
	}
	spec := req.Rules
	if strings.TrimSpace(spec) == "" {
		spec = "alak"
	}
	rs, err := rules.Parse(spec)
	if err != nil {
		return g, "", apiErr(http.StatusUnprocessableEntity, "bad_rules", "%s (the rules are a preset and its options, such as alak size=11 edge=off)", err)
	}
	setup := session.Setup{Rules: rs, SizeGiven: strings.Contains(spec, "size="), Diagram: req.Position, ToMove: req.ToMove}
	game, err := setup.Game()
	if err != nil {
		return g, "", apiErr(http.StatusUnprocessableEntity, "bad_position", "%s", err)
	}
	rs = game.Rules()
	clock, err := ParseClock(req.Clock)
	if err != nil {
		return g, "", apiErr(http.StatusUnprocessableEntity, "bad_clock", "%s", err)
	}
	color := strings.ToLower(strings.TrimSpace(req.Color))
	switch color {
	case "":
		color = "random"
	case "x", "o", "random":
	default:
		return g, "", apiErr(http.StatusUnprocessableEntity, "bad_color", "color is x (Black, first), o or random")
	}
	now := s.now()
	g = store.Game{ID: newID(), Rules: rs.String(), Preset: rs.Preset, Size: rs.SizeString(), Color: color, Clock: clock.String(),
		State: store.StateWaiting, Version: 1, WarnedEntry: -1, Created: now, Updated: now}
	if req.Position != "" {
		text, err := game.Start().MarshalText()
		if err != nil {
			return g, "", err
		}
		g.Start = string(text)
	}
	if clock.Kind == "live" {
		g.BlackLeft, g.WhiteLeft = clock.Initial, clock.Initial
	}
	life := s.cfg.ChallengeLife
	if clock.Kind == "days" {
		life = 7 * 24 * time.Hour
	}
	opp := strings.TrimSpace(req.Opponent)
	var secret string
	switch {
	case opp == "open":
		g.Kind, g.Expires = store.KindOpen, now.Add(life)
	case opp == "link" || opp == "":
		var hash string
		secret, hash = newSecret()
		g.Kind, g.InviteHash, g.Expires = store.KindLink, hash, now.Add(life)
	case strings.HasPrefix(opp, "computer"):
		bot := strings.TrimPrefix(strings.TrimPrefix(opp, "computer"), ":")
		if bot == "" {
			bot = "level:5"
		}
		p, err := player.NewUntrusted(bot, 1)
		if err != nil {
			return g, "", apiErr(http.StatusUnprocessableEntity, "bad_computer", "%s (write computer:level:N, N from 1 to %d, or computer:NAME)", err, player.Levels())
		}
		// Stored as the player package built it (its canonical spec: the
		// name in lower case, the options in a fixed order, the bounds
		// added), never as typed.
		bot = p.Name()
		p.Close()
		g.Kind = store.KindComputer
		g.Black.Bot = bot // set aside; seatCreator puts it on the other seat
	default:
		if checkName(opp) != nil {
			return g, "", apiErr(http.StatusUnprocessableEntity, "bad_opponent", "%q is not a player's name: write the name of the player you challenge (2 to 24 letters, digits, _ and -), or choose the lobby, a link or the computer", clip.Text(opp))
		}
		a, err := s.store.AccountByName(r.Context(), opp)
		if err != nil {
			return g, "", apiErr(http.StatusNotFound, "no_player", "no player is called %s", opp)
		}
		g.Kind, g.Opponent, g.Expires = store.KindNamed, a.ID, now.Add(life)
	}
	return g, secret, nil
}

// seatCreator seats the creator by the colour asked for, and the computer
// opposite; a game against the computer starts at once.
func (s *Server) seatCreator(ctx context.Context, g *store.Game, a *store.Account) error {
	if g.Kind == store.KindNamed && g.Opponent == a.ID {
		return apiErr(http.StatusUnprocessableEntity, "bad_opponent", "you cannot challenge yourself")
	}
	g.Creator = a.ID
	color := g.Color
	if color == "random" {
		n, err := rand.Int(rand.Reader, big.NewInt(2))
		if err != nil {
			return err
		}
		color = []string{"x", "o"}[n.Int64()]
	}
	bot := g.Black.Bot
	g.Black = store.Seat{}
	me := store.Seat{AccountID: a.ID}
	if color == "x" {
		g.Black = me
	} else {
		g.White = me
	}
	if g.Kind == store.KindComputer {
		if color == "x" {
			g.White.Bot = bot
		} else {
			g.Black.Bot = bot
		}
		g.State = store.StateActive
		st, err := s.rebuild(*g, nil)
		if err != nil {
			return err
		}
		st.startTurn(s.now())
		g.TurnStart, g.Deadline = st.row.TurnStart, st.row.Deadline
	}
	return nil
}

func (s *Server) handleGame(w http.ResponseWriter, r *http.Request) {
	st, err := s.loadGame(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.view(r.Context(), st))
}

func (s *Server) handleSGF(w http.ResponseWriter, r *http.Request) {
	st, err := s.loadGame(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rec := st.sess.Record()
	v := s.view(r.Context(), st)
	rec.Black, rec.White = v.Players["x"].Name, v.Players["o"].Name
	rec.Date = st.row.Created.UTC().Format("2006-01-02")
	rec.Comments = map[int]string{0: fmt.Sprintf("alak game %s, %s, %s", st.row.ID, st.row.Rules, st.clock.Words())}
	var buf bytes.Buffer
	if err := notation.WriteSGF(&buf, rec); err != nil {
		s.writeError(w, r, apiErr(http.StatusUnprocessableEntity, "no_sgf", "this game cannot be written as SGF: %s", err))
		return
	}
	w.Header().Set("Content-Type", "application/x-go-sgf; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="alak-`+st.row.ID+`.sgf"`)
	w.Write(buf.Bytes())
}

// handleJoin is POST /api/games/{id}/join {"invite": SECRET}: take the
// empty seat of an open challenge, a challenge to you, or an invitation.
func (s *Server) handleJoin(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Invite string `json:"invite"`
	}
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	id := r.PathValue("id")
	// A guest may join by link only; check before making one.
	pre, err := s.loadGame(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if account(r) == nil && pre.row.Kind != store.KindLink {
		s.writeError(w, r, apiErr(http.StatusUnauthorized, "account_needed", "sign in to take this challenge"))
		return
	}
	// Wrong invitations to a waiting link game (by anyone but its creator)
	// are limited by address and by account; a wrong one makes no guest.
	if me := account(r); pre.row.Kind == store.KindLink && pre.row.State == store.StateWaiting && (me == nil || me.ID != pre.row.Creator) {
		limits := []limit{{s.invites, "ip " + clientAddr(r)}}
		if me != nil {
			limits = append(limits, limit{s.invites, "a " + strconv.FormatInt(me.ID, 10)})
		}
		var wait time.Duration
		for _, l := range limits {
			wait = max(wait, l.l.wait(l.key, s.now()))
		}
		if wait > 0 {
			s.writeError(w, r, tooMany(wait, "too many wrong invitations: wait %s", waitWords(wait)))
			return
		}
		if len(req.Invite) > 100 || hashSecret(req.Invite) != pre.row.InviteHash {
			for _, l := range limits {
				l.l.take(l.key, s.now())
			}
			s.writeError(w, r, apiErr(http.StatusForbidden, "bad_invite", "the invitation is not valid: use the whole link you were sent"))
			return
		}
	}
	a, err := s.accountOrGuest(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ev, err := s.act(r.Context(), id, func(st *gameState, now time.Time) (*change, error) {
		row := &st.row
		if row.State != store.StateWaiting {
			return nil, apiErr(http.StatusConflict, "not_waiting", "the game is %s: it is no longer waiting for an opponent", row.State)
		}
		if row.Creator == a.ID {
			return nil, apiErr(http.StatusConflict, "own_game", "this is your own challenge: wait for an opponent")
		}
		switch row.Kind {
		case store.KindNamed:
			if row.Opponent != a.ID {
				return nil, apiErr(http.StatusForbidden, "not_for_you", "this challenge is for another player")
			}
		case store.KindLink:
			if len(req.Invite) > 100 || hashSecret(req.Invite) != row.InviteHash {
				return nil, apiErr(http.StatusForbidden, "bad_invite", "the invitation is not valid: use the whole link you were sent")
			}
		case store.KindOpen:
			if a.Guest() {
				return nil, apiErr(http.StatusForbidden, "account_needed", "sign in to take an open challenge")
			}
		default:
			return nil, apiErr(http.StatusConflict, "not_joinable", "this game takes no opponent")
		}
		if strings.HasPrefix(row.Clock, "days:") && a.Guest() {
			return nil, apiErr(http.StatusForbidden, "account_needed", "correspondence games need an account")
		}
		if row.Black.Empty() {
			row.Black = store.Seat{AccountID: a.ID}
		} else {
			row.White = store.Seat{AccountID: a.ID}
		}
		row.State, row.Expires = store.StateActive, time.Time{}
		st.startTurn(now)
		return &change{after: func() {
			// The creator may be the one to move: tell them the game began.
			if st.clock.Kind == "days" && st.toMoveAccount() != a.ID {
				s.mailYourTurn(st, st.toMoveAccount())
			}
		}}, nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeEvent(w, ev)
}

// handleDecline is POST /api/games/{id}/decline: the named opponent
// refuses a challenge, or the creator withdraws one.
func (s *Server) handleDecline(w http.ResponseWriter, r *http.Request) {
	a, err := requireAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ev, err := s.act(r.Context(), r.PathValue("id"), func(st *gameState, now time.Time) (*change, error) {
		row := &st.row
		if row.State != store.StateWaiting {
			return nil, apiErr(http.StatusConflict, "not_waiting", "the game is %s: there is no challenge to decline", row.State)
		}
		if row.Creator != a.ID && !(row.Kind == store.KindNamed && row.Opponent == a.ID) {
			return nil, apiErr(http.StatusForbidden, "not_yours", "only the challenged player or the challenger can call it off")
		}
		row.State, row.Reason, row.Ended = store.StateExpired, "declined", now
		return &change{}, nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeEvent(w, ev)
}

// player checks that a is a player of an active game and returns its colour.
func (st *gameState) player(a *store.Account) (rules.Color, error) {
	c, ok := st.seatOf(a)
	if !ok {
		return rules.None, apiErr(http.StatusForbidden, "not_your_game", "you are not a player of this game")
	}
	if st.row.State != store.StateActive {
		if st.row.State == store.StateWaiting {
			return c, apiErr(http.StatusConflict, "not_started", "the game has not started: it waits for an opponent")
		}
		return c, apiErr(http.StatusConflict, "game_over", "the game is over (%s)", st.row.Reason)
	}
	return c, nil
}

// moveRequest is POST /api/games/{id}/moves.
type moveRequest struct {
	Move string `json:"move"` // in any notation alak reads: 3, c, C1, 1-4, pass, resign
	Ply  *int   `json:"ply"`  // the moves already played, as the snapshot the client saw says
}

// handleMove plays a move: only the player to move, only at the ply the
// client saw (a stale or repeated request is refused with 409), only if the
// kernel finds it legal (422), and acknowledged once stored.
func (s *Server) handleMove(w http.ResponseWriter, r *http.Request) {
	a, err := requireAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req moveRequest
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Ply == nil {
		s.writeError(w, r, apiErr(http.StatusBadRequest, "no_ply", `a move names the ply it follows: {"move": "3", "ply": N}, N the moves already played`))
		return
	}
	start := time.Now()
	ev, err := s.act(r.Context(), r.PathValue("id"), func(st *gameState, now time.Time) (*change, error) {
		c, err := st.player(a)
		if err != nil {
			return nil, err
		}
		if *req.Ply != st.sess.Ply() {
			return nil, apiErr(http.StatusConflict, "stale_ply", "the game has moved on (it is at ply %d, not %d): the move was chosen on an older board, or sent twice; look at the board again", st.sess.Ply(), *req.Ply)
		}
		if tm := st.sess.ToMove(); c != tm {
			return nil, apiErr(http.StatusForbidden, "not_your_turn", "it is %s's turn", colorWord(tm))
		}
		// The text is judged last: who may move, and at which ply, first.
		if len(req.Move) > 20 {
			return nil, apiErr(http.StatusUnprocessableEntity, "bad_move", "a move is a point (3, c, C1), a slide (1-4), pass or resign")
		}
		m, err := notation.ParseMove(st.r, req.Move)
		if err != nil {
			var pe *notation.ParseError
			if errors.As(err, &pe) {
				return nil, apiErr(http.StatusUnprocessableEntity, "bad_move", "cannot read %q: %s", pe.Input, pe.Msg)
			}
			return nil, apiErr(http.StatusUnprocessableEntity, "bad_move", "%s", err)
		}
		if m == rules.Resign {
			if err := st.sess.Resign(c); err != nil {
				return nil, err
			}
			return &change{}, nil
		}
		return s.playMove(st, c, m, a.ID, now)
	})
	s.metrics.observeMove(time.Since(start), err == nil)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeEvent(w, ev)
}

// simpleAction is an action by a player that takes no argument but the
// optional answer.
func (s *Server) simpleAction(w http.ResponseWriter, r *http.Request, f func(st *gameState, c rules.Color, accept *bool, now time.Time) (*change, error)) {
	a, err := requireAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req struct {
		Accept *bool `json:"accept"`
		Ply    *int  `json:"ply"`
	}
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	ev, err := s.act(r.Context(), r.PathValue("id"), func(st *gameState, now time.Time) (*change, error) {
		c, err := st.player(a)
		if err != nil {
			return nil, err
		}
		if req.Ply != nil && *req.Ply != st.sess.Ply() {
			return nil, apiErr(http.StatusConflict, "stale_ply", "the game has moved on (it is at ply %d, not %d): look at the board again", st.sess.Ply(), *req.Ply)
		}
		return f(st, c, req.Accept, now)
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeEvent(w, ev)
}

func (s *Server) handleResign(w http.ResponseWriter, r *http.Request) {
	s.simpleAction(w, r, func(st *gameState, c rules.Color, _ *bool, now time.Time) (*change, error) {
		return &change{}, st.sess.Resign(c)
	})
}

func (s *Server) handleAbort(w http.ResponseWriter, r *http.Request) {
	s.simpleAction(w, r, func(st *gameState, c rules.Color, _ *bool, now time.Time) (*change, error) {
		return &change{}, st.sess.Abort(c)
	})
}

// handleDraw: no "accept", an offer (accepted at once when the opponent
// offered too); "accept": true or false answers the opponent's offer. The
// computer answers an offer at once: it accepts where the server's table
// for the rules shows the position drawn (session.OfferDraw), and
// otherwise declines, which is answered 409 draw_declined.
func (s *Server) handleDraw(w http.ResponseWriter, r *http.Request) {
	s.simpleAction(w, r, func(st *gameState, c rules.Color, accept *bool, now time.Time) (*change, error) {
		if accept != nil {
			return &change{}, st.sess.AnswerDraw(c, *accept)
		}
		computer := !st.sess.Seat(c.Opp()).Human()
		if computer && !st.sess.Over() && st.sess.DrawOffer() == rules.None {
			st.sess.SetHintTables(s.tables.solver) // frozen: read only, shared
		}
		agreed, err := st.sess.OfferDraw(c)
		if err == nil && computer && !agreed {
			return nil, errDrawDeclined
		}
		return &change{}, err
	})
}

// handleTakeback: no "accept", a request to take back your last move (a
// computer grants it at once); "accept" answers the opponent's request.
func (s *Server) handleTakeback(w http.ResponseWriter, r *http.Request) {
	s.simpleAction(w, r, func(st *gameState, c rules.Color, accept *bool, now time.Time) (*change, error) {
		before := st.sess.Ply()
		var err error
		by := c
		if accept != nil {
			by = c.Opp()
			err = st.sess.AnswerTakeback(c, *accept)
		} else {
			_, err = st.sess.RequestTakeback(c)
		}
		if err != nil {
			return nil, err
		}
		undone := before - st.sess.Ply()
		if undone == 0 {
			return &change{}, nil
		}
		st.startTurn(now)
		acct := st.row.Black.AccountID
		if by == rules.White {
			acct = st.row.White.AccountID
		}
		return &change{entries: []store.Entry{st.entry("", undone, acct, now)}}, nil
	})
}
