package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

func (s *Server) handleCreateAccount(w http.ResponseWriter, r *http.Request) {
	var c wire.Credentials
	if err := httpx.Decode(w, r, &c); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := checkName(c.Name); err != nil {
		s.writeError(w, r, err)
		return
	}
	if isHouseBotName(strings.ToLower(c.Name)) {
		s.writeError(w, r, httpx.Errf(wire.BadInput, "bad_name", "the names alak-LEVEL (alak-beginner ... alak-perfect) are the house bots'"))
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
	if wait, ok := s.signup.Allow(httpx.ClientAddr(r), s.now()); !ok {
		s.writeError(w, r, httpx.TooMany(wait, "too many new accounts from this address: wait %s", httpx.WaitWords(wait)))
		return
	}
	hash, err := hashPassword(c.Password, s.cfg.hashCost)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	guest := guestOf(r) // checked before the new account's cookie replaces the guest's
	a, err := s.store.CreateAccount(r.Context(), store.Account{Name: c.Name, PassHash: hash, Email: c.Email, Created: s.now(), Bot: c.Bot})
	if errors.Is(err, store.ErrDuplicate) {
		s.writeError(w, r, httpx.Errf(wire.Conflict, "name_taken", "the name %s is taken: choose another", c.Name))
		return
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "account created", "account", a.ID, "bot", a.Bot)
	if a.Bot { // a bot signs in by token only: no session, no guest's games
		httpx.WriteJSON(w, http.StatusCreated, wire.Account{Me: meView(a)})
		return
	}
	// Signing up from a guest's session takes the guest's games over.
	s.answerSignedIn(w, r, a, guest, guest != nil, http.StatusCreated)
}

// answerSignedIn answers a sign-up or a sign-in of a: with claim, it first
// takes the games of guest over, before the guest's cookie is replaced (if
// the claim fails, the browser still holds the guest, and signing in can
// claim again); then it starts a's session and writes the account with
// status.
func (s *Server) answerSignedIn(w http.ResponseWriter, r *http.Request, a store.Account, guest *store.Account, claim bool, status int) {
	out := wire.Account{Me: meView(a)}
	if claim {
		var err error
		if out.Claimed, err = s.claimGuestGames(r, guest, a); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	if err := s.startSession(w, r, a); err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, status, out)
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
		return httpx.Errf(wire.BadInput, "bad_email", "an email address is name@host, at most 200 characters, without spaces, tabs, line breaks, control characters or < > , ; (%s)", why)
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
	wait, err := s.logins.attempt(r.Context(), name, httpx.ClientAddr(r), s.now())
	if err != nil {
		return httpx.Unavailable(err)
	}
	if wait > 0 {
		return httpx.TooMany(wait, "too many sign-in attempts: wait %s", httpx.WaitWords(wait))
	}
	return nil
}

// signInFailed records a wrong password of name from the request's
// address; signInSucceeded the right one. What the store cannot record
// is logged: the attempt itself was counted.
func (s *Server) signInFailed(r *http.Request, name string) {
	if err := s.logins.fail(r.Context(), name, httpx.ClientAddr(r), s.now()); err != nil {
		s.log.ErrorContext(r.Context(), "recording a wrong password", "err", err)
	}
}

func (s *Server) signInSucceeded(r *http.Request, name string) {
	if err := s.logins.succeed(r.Context(), name, httpx.ClientAddr(r), s.now()); err != nil {
		s.log.ErrorContext(r.Context(), "recording a sign-in", "err", err)
	}
}

// signIn checks a name and password under the rate limits.
func (s *Server) signIn(r *http.Request, c wire.Credentials) (store.Account, error) {
	if err := s.checkSignInLimits(r, c.Name); err != nil {
		return store.Account{}, err
	}
	bad := httpx.Errf(wire.Unauthenticated, "bad_credentials", "the name or the password is wrong")
	if c.Name == "" || len(c.Name) > 24 || len(c.Password) > 200 {
		s.signInFailed(r, c.Name)
		return store.Account{}, bad
	}
	a, err := s.store.AccountByName(r.Context(), c.Name)
	if errors.Is(err, store.ErrNotFound) {
		checkPassword(s.dummyHash, c.Password) // the same time whether or not the name exists
		s.signInFailed(r, c.Name)
		return store.Account{}, bad
	}
	if err != nil {
		return store.Account{}, err
	}
	if !checkPassword(a.PassHash, c.Password) {
		s.signInFailed(r, c.Name)
		return store.Account{}, bad
	}
	s.signInSucceeded(r, c.Name)
	return a, nil
}

// handleLogin is POST /api/login {"name", "password", "claim_guest_games"}:
// a session cookie; from a guest's session, with claim_guest_games, the
// guest's games move to the account.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	var req wire.LoginRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	guest := guestOf(r)
	if req.ClaimGuestGames && guest == nil {
		s.writeError(w, r, httpx.Errf(wire.BadInput, "not_a_guest",
			"claim_guest_games takes over the games of the guest session this browser plays in, and this request has none"))
		return
	}
	a, err := s.signIn(r, req.Credentials)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if a.Bot {
		s.writeError(w, r, errBotSession)
		return
	}
	s.answerSignedIn(w, r, a, guest, req.ClaimGuestGames, http.StatusOK)
}

// handleLogout is POST /api/logout: it ends the request's credential, the
// session cookie's session or the bearer token (revoked), and clears the
// cookie.
func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	if cred, ok := httpx.RequestCredential(r); ok {
		if err := s.deleteToken(r.Context(), cred.Hash); err != nil {
			s.writeError(w, r, err)
			return
		}
	} else if c, err := r.Cookie(sessionCookie); err == nil {
		s.deleteToken(r.Context(), hashSecret(c.Value)) // a stale cookie: nothing to end, most likely
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookies, MaxAge: -1})
	httpx.WriteJSON(w, http.StatusOK, wire.Status{Status: "signed out"})
}

// handleToken is POST /api/tokens {"name","password"} → {"token"}: a
// bearer token for scripts and bots.
func (s *Server) handleToken(w http.ResponseWriter, r *http.Request) {
	var c wire.Credentials
	if err := httpx.Decode(w, r, &c); err != nil {
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
	httpx.WriteJSON(w, http.StatusCreated, wire.Token{Token: secret, Expires: now.Add(apiTokenLife)})
}

// handleRevokeToken is DELETE /api/tokens/current: the bearer token the
// request carries is revoked at once (in every process within tokenTTL).
func (s *Server) handleRevokeToken(w http.ResponseWriter, r *http.Request) {
	cred, ok := httpx.RequestCredential(r)
	if !ok || !cred.Bearer {
		s.writeError(w, r, httpx.Errf(wire.Unauthenticated, "no_token", "send the token to revoke as Authorization: Bearer TOKEN (a browser signs out with POST /api/logout)"))
		return
	}
	if err := s.deleteToken(r.Context(), cred.Hash); err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, wire.Status{Status: "revoked"})
}

func meView(a store.Account) wire.Me {
	return wire.Me{ID: a.ID, Name: displayName(a), Guest: a.Guest(), Email: a.Email, ConfirmMoves: a.ConfirmMoves, Bot: a.Bot}
}

// meWithVacation is /api/me's answer: the account and its vacation.
func (s *Server) meWithVacation(ctx context.Context, a store.Account) (wire.MeVacation, error) {
	v, err := s.vacation.View(ctx, a)
	return wire.MeVacation{Me: meView(a), VacationStatus: v}, err
}

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request) {
	a, err := httpx.RequireAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	me, err := s.meWithVacation(r.Context(), *a)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, me)
}

func (s *Server) handleUpdateMe(w http.ResponseWriter, r *http.Request) {
	a, err := httpx.RequireAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req wire.UpdateMeRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if a.Guest() {
		s.writeError(w, r, httpx.Errf(wire.Forbidden, "guest", "a guest has no settings: create an account"))
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
			s.signInFailed(r, acc.Name)
			s.writeError(w, r, httpx.Errf(wire.Forbidden, "wrong_password", "changing the password takes the current one too: current_password is missing or wrong"))
			return
		}
		s.signInSucceeded(r, acc.Name)
		hash, err := hashPassword(*req.Password, s.cfg.hashCost)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		// Every other session and every token ends: whoever stole one is
		// signed out. The request's own credential stays.
		cred, _ := httpx.RequestCredential(r)
		if err := s.changePassword(r.Context(), acc.ID, hash, cred.Hash); err != nil {
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
	if req.Vacation != nil {
		if err := s.vacation.Set(r.Context(), acc, *req.Vacation); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	me, err := s.meWithVacation(r.Context(), acc)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, me)
}
