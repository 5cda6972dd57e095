package accounts

import (
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

// HandleCreateAccount is POST /api/accounts {"name", "password", "email",
// "bot"}: a new account, signed in by a session cookie (a bot's by token
// only); from a guest's session, the guest's games move to it.
func (s *Accounts) HandleCreateAccount(w http.ResponseWriter, r *http.Request) {
	var c wire.Credentials
	if err := httpx.Decode(w, r, &c); err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	if err := CheckName(c.Name); err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	if s.c.HouseBotName(strings.ToLower(c.Name)) {
		s.c.WriteError(w, r, httpx.Errf(wire.BadInput, "bad_name", "the names alak-LEVEL (alak-beginner ... alak-perfect) are the house bots'"))
		return
	}
	if err := checkPasswordRules(c.Password); err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	if err := checkEmail(c.Email); err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	if wait, ok := s.signup.Allow(httpx.ClientAddr(r), s.c.Now()); !ok {
		s.c.WriteError(w, r, httpx.TooMany(wait, "too many new accounts from this address: wait %s", httpx.WaitWords(wait)))
		return
	}
	hash, err := hashPassword(c.Password, s.c.HashCost)
	if err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	guest := guestOf(r) // checked before the new account's cookie replaces the guest's
	a, err := s.c.Store.CreateAccount(r.Context(), store.Account{Name: c.Name, PassHash: hash, Email: c.Email, Created: s.c.Now(), Bot: c.Bot})
	if errors.Is(err, store.ErrDuplicate) {
		s.c.WriteError(w, r, httpx.Errf(wire.Conflict, "name_taken", "the name %s is taken: choose another", c.Name))
		return
	}
	if err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	s.c.Log.InfoContext(r.Context(), "account created", "account", a.ID, "bot", a.Bot)
	if a.Bot { // a bot signs in by token only: no session, no guest's games
		httpx.WriteJSON(w, http.StatusCreated, wire.Account{Me: MeView(a)})
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
func (s *Accounts) answerSignedIn(w http.ResponseWriter, r *http.Request, a store.Account, guest *store.Account, claim bool, status int) {
	out := wire.Account{Me: MeView(a)}
	if claim {
		var err error
		if out.Claimed, err = s.claimGuestGames(r, guest, a); err != nil {
			s.c.WriteError(w, r, err)
			return
		}
	}
	if err := s.startSession(w, r, a); err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, status, out)
}

// errBotSession refuses a page session to a bot account.
var errBotSession = httpx.Errf(wire.Forbidden, "bot_account",
	"a bot account plays through the API only: get a bearer token from POST /api/tokens")

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
func (s *Accounts) checkSignInLimits(r *http.Request, name string) error {
	wait, err := s.logins.attempt(r.Context(), name, httpx.ClientAddr(r), s.c.Now())
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
func (s *Accounts) signInFailed(r *http.Request, name string) {
	if err := s.logins.fail(r.Context(), name, httpx.ClientAddr(r), s.c.Now()); err != nil {
		s.c.Log.ErrorContext(r.Context(), "recording a wrong password", "err", err)
	}
}

func (s *Accounts) signInSucceeded(r *http.Request, name string) {
	if err := s.logins.succeed(r.Context(), name, httpx.ClientAddr(r), s.c.Now()); err != nil {
		s.c.Log.ErrorContext(r.Context(), "recording a sign-in", "err", err)
	}
}

// signIn checks a name and password under the rate limits.
func (s *Accounts) signIn(r *http.Request, c wire.Credentials) (store.Account, error) {
	if err := s.checkSignInLimits(r, c.Name); err != nil {
		return store.Account{}, err
	}
	bad := httpx.Errf(wire.Unauthenticated, "bad_credentials", "the name or the password is wrong")
	if c.Name == "" || len(c.Name) > 24 || len(c.Password) > 200 {
		s.signInFailed(r, c.Name)
		return store.Account{}, bad
	}
	a, err := s.c.Store.AccountByName(r.Context(), c.Name)
	if errors.Is(err, store.ErrNotFound) {
		CheckPassword(s.dummyHash, c.Password) // the same time whether or not the name exists
		s.signInFailed(r, c.Name)
		return store.Account{}, bad
	}
	if err != nil {
		return store.Account{}, err
	}
	if !CheckPassword(a.PassHash, c.Password) {
		s.signInFailed(r, c.Name)
		return store.Account{}, bad
	}
	s.signInSucceeded(r, c.Name)
	return a, nil
}

// HandleLogin is POST /api/login {"name", "password", "claim_guest_games"}:
// a session cookie; from a guest's session, with claim_guest_games, the
// guest's games move to the account.
func (s *Accounts) HandleLogin(w http.ResponseWriter, r *http.Request) {
	var req wire.LoginRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	guest := guestOf(r)
	if req.ClaimGuestGames && guest == nil {
		s.c.WriteError(w, r, httpx.Errf(wire.BadInput, "not_a_guest",
			"claim_guest_games takes over the games of the guest session this browser plays in, and this request has none"))
		return
	}
	a, err := s.signIn(r, req.Credentials)
	if err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	if a.Bot {
		s.c.WriteError(w, r, errBotSession)
		return
	}
	s.answerSignedIn(w, r, a, guest, req.ClaimGuestGames, http.StatusOK)
}

// HandleLogout is POST /api/logout: it ends the request's credential, the
// session cookie's session or the bearer token (revoked), and clears the
// cookie.
func (s *Accounts) HandleLogout(w http.ResponseWriter, r *http.Request) {
	if cred, ok := httpx.RequestCredential(r); ok {
		if err := s.deleteToken(r.Context(), cred.Hash); err != nil {
			s.c.WriteError(w, r, err)
			return
		}
	} else if c, err := r.Cookie(SessionCookie); err == nil {
		s.deleteToken(r.Context(), HashSecret(c.Value)) // a stale cookie: nothing to end, most likely
	}
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.c.SecureCookies, MaxAge: -1})
	httpx.WriteJSON(w, http.StatusOK, wire.Status{Status: "signed out"})
}

// HandleToken is POST /api/tokens {"name","password"} → {"token"}: a
// bearer token for scripts and bots.
func (s *Accounts) HandleToken(w http.ResponseWriter, r *http.Request) {
	var c wire.Credentials
	if err := httpx.Decode(w, r, &c); err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	a, err := s.signIn(r, c)
	if err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	secret, hash := NewSecret()
	now := s.c.Now()
	if err := s.c.Store.CreateToken(r.Context(), store.Token{Hash: hash, AccountID: a.ID, Kind: store.TokenAPI, Created: now, Expires: now.Add(APITokenLife)}); err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, wire.Token{Token: secret, Expires: now.Add(APITokenLife)})
}

// HandleRevokeToken is DELETE /api/tokens/current: the bearer token the
// request carries is revoked at once (in every process within TokenTTL).
func (s *Accounts) HandleRevokeToken(w http.ResponseWriter, r *http.Request) {
	cred, ok := httpx.RequestCredential(r)
	if !ok || !cred.Bearer {
		s.c.WriteError(w, r, httpx.Errf(wire.Unauthenticated, "no_token", "send the token to revoke as Authorization: Bearer TOKEN (a browser signs out with POST /api/logout)"))
		return
	}
	if err := s.deleteToken(r.Context(), cred.Hash); err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, wire.Status{Status: "revoked"})
}

// MeView is an account as it sees itself (GET /api/me, the pages).
func MeView(a store.Account) wire.Me {
	return wire.Me{ID: a.ID, Name: DisplayName(a), Guest: a.Guest(), Email: a.Email, ConfirmMoves: a.ConfirmMoves, Bot: a.Bot}
}

// HandleMe is GET /api/me: the signed-in account, with its vacation.
func (s *Accounts) HandleMe(w http.ResponseWriter, r *http.Request) {
	a, err := httpx.RequireAccount(r)
	if err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	me, err := s.c.Me(r.Context(), *a)
	if err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, me)
}

// HandleUpdateMe is PUT /api/me: the account's email, move confirmation,
// password (with the current one) and vacation.
func (s *Accounts) HandleUpdateMe(w http.ResponseWriter, r *http.Request) {
	a, err := httpx.RequireAccount(r)
	if err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	var req wire.UpdateMeRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	if a.Guest() {
		s.c.WriteError(w, r, httpx.Errf(wire.Forbidden, "guest", "a guest has no settings: create an account"))
		return
	}
	// The account as stored, not as a token's cached copy holds it: a change
	// made meanwhile (in another process) is not undone.
	acc, err := s.c.Store.AccountByID(r.Context(), a.ID)
	if err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	if req.Email != nil {
		if err := checkEmail(*req.Email); err != nil {
			s.c.WriteError(w, r, err)
			return
		}
		acc.Email = *req.Email
	}
	if req.ConfirmMoves != nil {
		acc.ConfirmMoves = *req.ConfirmMoves
	}
	if req.Password != nil {
		if err := checkPasswordRules(*req.Password); err != nil {
			s.c.WriteError(w, r, err)
			return
		}
		// The current password is checked as a sign-in is, under the same
		// limits, so that a stolen cookie cannot guess it faster.
		if err := s.checkSignInLimits(r, acc.Name); err != nil {
			s.c.WriteError(w, r, err)
			return
		}
		if len(req.CurrentPassword) > 200 || !CheckPassword(acc.PassHash, req.CurrentPassword) {
			s.signInFailed(r, acc.Name)
			s.c.WriteError(w, r, httpx.Errf(wire.Forbidden, "wrong_password", "changing the password takes the current one too: current_password is missing or wrong"))
			return
		}
		s.signInSucceeded(r, acc.Name)
		hash, err := hashPassword(*req.Password, s.c.HashCost)
		if err != nil {
			s.c.WriteError(w, r, err)
			return
		}
		// Every other session and every token ends: whoever stole one is
		// signed out. The request's own credential stays.
		cred, _ := httpx.RequestCredential(r)
		if err := s.changePassword(r.Context(), acc.ID, hash, cred.Hash); err != nil {
			s.c.WriteError(w, r, err)
			return
		}
		acc.PassHash = hash
		s.c.Log.InfoContext(r.Context(), "password changed", "account", acc.ID)
	}
	if err := s.updateAccount(r.Context(), acc); err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	if req.Vacation != nil {
		if err := s.c.SetVacation(r.Context(), acc, *req.Vacation); err != nil {
			s.c.WriteError(w, r, err)
			return
		}
	}
	me, err := s.c.Me(r.Context(), acc)
	if err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, me)
}
