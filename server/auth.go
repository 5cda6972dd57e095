package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/argon2"

	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// The argon2id parameters of new password hashes (RFC 9106's second
// recommended option, with 64 MiB): a guess costs about 50 ms of a core.
const (
	argonTime    = 3
	argonMemory  = 64 * 1024
	argonThreads = 2
	argonKeyLen  = 32
)

// argonCost is the cost of a new password hash: time passes over memory
// KiB.
type argonCost struct{ time, memory uint32 }

// realCost is the cost of every hash alak serve makes: Config's field
// for the cost is unexported, and New starts from defaultCost.
var realCost = argonCost{argonTime, argonMemory}

// defaultCost is the cost New gives a server: realCost, which only this
// package's tests lower (hashcost_test.go), for the tests that are not
// about the hash; those that are set Config.hashCost back to realCost.
var defaultCost = realCost

// Cookie and token lifetimes.
const (
	sessionCookie = "alak_session"
	sessionLife   = 30 * 24 * time.Hour
	apiTokenLife  = 365 * 24 * time.Hour
)

// hashSlots bounds the password hashes computed at once: each takes
// argonMemory (64 MiB), so a burst of sign-ups or sign-ins from many
// addresses (each within its rate limit) waits here instead of taking
// gigabytes. One a core: more would only share the cores.
var hashSlots = make(chan struct{}, max(2, runtime.NumCPU()))

// hashesAtOnce and hashesMost count the hashes under way and the most
// seen at once (for the test of the bound).
var hashesAtOnce, hashesMost atomic.Int64

// argonKey is argon2.IDKey within one of the hashSlots.
func argonKey(password, salt []byte, t, m uint32, p uint8, n uint32) []byte {
	hashSlots <- struct{}{}
	defer func() { <-hashSlots }()
	now := hashesAtOnce.Add(1)
	defer hashesAtOnce.Add(-1)
	for most := hashesMost.Load(); now > most && !hashesMost.CompareAndSwap(most, now); most = hashesMost.Load() {
	}
	return argon2.IDKey(password, salt, t, m, p, n)
}

// hashPassword returns the argon2id hash of password at the cost c, in
// the PHC string form (which names the cost, for checkPassword).
func hashPassword(password string, c argonCost) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	return phcString(c, salt, argonKey([]byte(password), salt, c.time, c.memory, argonThreads, argonKeyLen)), nil
}

// phcString writes an argon2id hash in the PHC string form.
func phcString(c argonCost, salt, key []byte) string {
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, c.memory, c.time, argonThreads,
		enc.EncodeToString(salt), enc.EncodeToString(key))
}

// dummyHash returns a hash at the cost c that no password matches: a
// random salt and a random key, which no hash computes (2^-256). Checking
// a password against it costs what checking against a real hash of that
// cost does, so a sign-in under an unknown name takes as long as one under
// a known name; and making it costs nothing (New once hashed a password
// for it, seconds of CPU at each start under the race detector).
func dummyHash(c argonCost) (string, error) {
	b := make([]byte, 16+argonKeyLen)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return phcString(c, b[:16], b[16:]), nil
}

// checkPassword reports whether password matches a hash of hashPassword.
func checkPassword(hash, password string) bool {
	var v, m, t int
	var p uint8
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m <= 0 || m > 1<<20 || t <= 0 || t > 16 || p == 0 {
		return false
	}
	enc := base64.RawStdEncoding
	salt, err1 := enc.DecodeString(parts[4])
	want, err2 := enc.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false
	}
	got := argonKey([]byte(password), salt, uint32(t), uint32(m), p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// newSecret returns a random secret for a token or an invitation, and the
// hash under which it is stored.
func newSecret() (secret, hash string) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	secret = base64.RawURLEncoding.EncodeToString(b)
	return secret, hashSecret(secret)
}

func hashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// idAlphabet is the game ids' alphabet: 31 letters and digits, without
// those read alike (i, l, o, 0, 1).
const idAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

// idLength is a game id's length: 10 letters, each a uniform draw from the
// 31 of idAlphabet, 10·log2(31) ≈ 49.5 bits.
const idLength = 10

// newID returns a game id. Each letter is drawn uniformly: a random byte is
// kept only below 248 (8·31), so that its remainder by 31 takes every value
// equally often, and drawn again otherwise (1 byte in 32).
func newID() string {
	const keep = 256 - 256%len(idAlphabet)
	out := make([]byte, 0, idLength)
	buf := make([]byte, idLength+4)
	for len(out) < idLength {
		if _, err := rand.Read(buf); err != nil {
			panic(err) // crypto/rand does not fail on supported systems
		}
		for _, b := range buf {
			if int(b) < keep && len(out) < idLength {
				out = append(out, idAlphabet[int(b)%len(idAlphabet)])
			}
		}
	}
	return string(out)
}

// Account names: 2 to 24 letters, digits, _ and -, starting with a letter.
var nameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{1,23}$`)

// reservedNames cannot be taken: they read as something else.
var reservedNames = map[string]bool{"open": true, "link": true, "computer": true, "guest": true, "admin": true, "me": true, "none": true}

func checkName(name string) error {
	lower := strings.ToLower(name)
	if !nameRE.MatchString(name) || reservedNames[lower] || strings.HasPrefix(lower, "guest-") {
		return httpx.Errf(wire.BadInput, "bad_name", "a name is 2 to 24 letters, digits, _ and -, starting with a letter (and not open, link, computer, guest, admin, me, none, nor guest-N, which names guests)")
	}
	return nil
}

func checkPasswordRules(password string) error {
	if len(password) < 8 || len(password) > 200 {
		return httpx.Errf(wire.BadInput, "bad_password", "a password is 8 to 200 characters")
	}
	return nil
}

// signInLimits are the limits of password checks (sign-in, token, a
// password change's current password), made so that a guesser cannot lock
// an account's owner out:
//
//   - one address on one name: burst attempts, refilled at rate;
//   - one address on all names together: twice that;
//   - one name, from every address together: burst failures, refilled at
//     rate, but it refuses only an address that has failed on that name
//     within the hour (a mark): the owner, from an address that has not
//     guessed wrong, is never refused by another address's guesses.
//
// Every attempt counts against the first two, right password or not.
// The buckets and marks are kept in the store (store.Bucket), so that
// every process on one database counts the same attempts: two processes
// judge the attempts one would, not twice as many.
type signInLimits struct {
	st               store.Store
	pair, addr, name store.Bucket // the rates; each attempt's keys are its own
}

// signInMark is how long an address that guessed a name's password wrong
// stays under the name's limit of failures.
const signInMark = time.Hour

func newSignInLimits(st store.Store, perMinute int) *signInLimits {
	every := max(time.Minute/time.Duration(perMinute), 2*time.Millisecond) // the store counts in milliseconds
	return &signInLimits{st: st,
		pair: store.Bucket{Burst: perMinute, Every: every},
		addr: store.Bucket{Burst: 2 * perMinute, Every: every / 2},
		name: store.Bucket{Burst: perMinute, Every: every}}
}

// signInKeys are the store's keys of an attempt of name from addr: the
// buckets of the pair, the address and the name, and the pair's mark.
// The name is taken without regard to case, and each key is a hash, so
// that any text fits and no guessed name is stored.
type signInKeys struct{ pair, addr, name, mark string }

func keysOf(name, addr string) signInKeys {
	name = strings.ToLower(name)
	h := func(kind string, parts ...string) string {
		sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
		return "signin:" + kind + ":" + hex.EncodeToString(sum[:16])
	}
	return signInKeys{pair: h("pair", name, addr), addr: h("addr", addr), name: h("name", name), mark: h("failed", name, addr)}
}

func (s *signInLimits) bucket(rate store.Bucket, key string) store.Bucket {
	rate.Key = key
	return rate
}

// attempt spends an attempt of name from addr; a wait above 0 refuses it.
func (s *signInLimits) attempt(ctx context.Context, name, addr string, now time.Time) (time.Duration, error) {
	k := keysOf(name, addr)
	failed, err := s.st.Marked(ctx, k.mark, now)
	if err != nil {
		return 0, err
	}
	var need []store.Bucket
	if failed {
		need = append(need, s.bucket(s.name, k.name))
	}
	return s.st.TakeTokens(ctx, now, []store.Bucket{s.bucket(s.addr, k.addr), s.bucket(s.pair, k.pair)}, need)
}

// fail records a wrong password for name from addr: it counts against the
// name's failures (when the name has a token left: the limit only holds
// back the addresses marked), and marks the address as one that failed
// on the name.
func (s *signInLimits) fail(ctx context.Context, name, addr string, now time.Time) error {
	k := keysOf(name, addr)
	if err := s.st.SetMark(ctx, k.mark, now.Add(signInMark)); err != nil {
		return err
	}
	_, err := s.st.TakeTokens(ctx, now, []store.Bucket{s.bucket(s.name, k.name)}, nil)
	return err
}

// succeed clears the mark of a failure of name from addr.
func (s *signInLimits) succeed(ctx context.Context, name, addr string, now time.Time) error {
	return s.st.SetMark(ctx, keysOf(name, addr).mark, time.Time{})
}

// withAccount resolves the request's credentials: a bearer token, else the
// session cookie. A bad bearer token is refused at once; a stale cookie is
// ignored (the request is then anonymous). When the store cannot say
// whose a credential is (the database is away), the request is answered
// 503 with Retry-After: never as not signed in, nor as anonymous, which
// would show a player a spectator's view or make their browser a new
// guest in place of their session. Only the requests that never look at
// the account (static files, health, metrics) go on without it.
func (s *Server) withAccount(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := r.Header.Get("Authorization"); h != "" {
			secret, ok := strings.CutPrefix(h, "Bearer ")
			if !ok || len(secret) > 200 {
				s.writeError(w, r, httpx.Errf(wire.Unauthenticated, "bad_token", "the Authorization header is Bearer TOKEN, a token from POST /api/tokens"))
				return
			}
			hash := hashSecret(strings.TrimSpace(secret))
			a, err := s.tokenAccount(r.Context(), hash)
			switch {
			case errors.Is(err, store.ErrNotFound):
				s.writeError(w, r, httpx.Errf(wire.Unauthenticated, "bad_token", "the token is unknown, expired or revoked: get one from POST /api/tokens"))
				return
			case err != nil && accountless(r):
				next.ServeHTTP(w, r)
				return
			case err != nil:
				s.writeError(w, r, httpx.Unavailable(err))
				return
			}
			next.ServeHTTP(w, r.WithContext(httpx.SignedIn(r.Context(), &a, httpx.Credential{Hash: hash, Bearer: true})))
			return
		}
		if c, err := r.Cookie(sessionCookie); err == nil && len(c.Value) <= 200 {
			hash := hashSecret(c.Value)
			a, err := s.tokenAccount(r.Context(), hash)
			switch {
			case err == nil:
				r = r.WithContext(httpx.SignedIn(r.Context(), &a, httpx.Credential{Hash: hash}))
			case errors.Is(err, store.ErrNotFound), accountless(r):
			case strings.HasPrefix(r.URL.Path, "/api/"):
				s.writeError(w, r, httpx.Unavailable(err))
				return
			default:
				s.pages.Unavailable(w, r, err)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// accountless reports whether the request's answer never depends on who
// sends it: a static file, the health checks, the metrics.
func accountless(r *http.Request) bool {
	p := r.URL.Path
	return strings.HasPrefix(p, "/static/") || p == "/healthz" || p == "/readyz" || p == "/metrics"
}

// tokenAccount returns the account of an unexpired token, by its hash: from
// the cache when the token was seen less than tokenTTL ago, else from the
// store.
func (s *Server) tokenAccount(ctx context.Context, hash string) (store.Account, error) {
	now := s.now()
	if a, ok := s.caches.tokens.get(hash, now); ok {
		return a, nil
	}
	a, t, err := s.store.TokenAccount(ctx, hash, now)
	if err != nil {
		return a, err
	}
	s.caches.tokens.put(hash, a, t.Expires, now)
	return a, nil
}

// deleteToken ends a token (signing out): in the store, and at once in
// this process's cache. Another process may honour it until its own cache
// entry is tokenTTL old.
func (s *Server) deleteToken(ctx context.Context, hash string) error {
	s.caches.tokens.forget(hash)
	err := s.store.DeleteToken(ctx, hash)
	s.caches.tokens.forget(hash) // a request that read it meanwhile
	return err
}

// changePassword sets an account's password hash and revokes every token
// of the account but keep (the request's own), in one transaction of the
// store; this process forgets the account's cached tokens at once, others
// within tokenTTL.
func (s *Server) changePassword(ctx context.Context, id int64, hash, keep string) error {
	s.caches.tokens.forgetAccount(id)
	err := s.store.ChangePassword(ctx, id, hash, keep)
	s.caches.tokens.forgetAccount(id) // a request that read a token meanwhile
	return err
}

// updateAccount writes an account's settings, and forgets the cached
// copies of it that its tokens hold.
func (s *Server) updateAccount(ctx context.Context, a store.Account) error {
	err := s.store.UpdateAccount(ctx, a)
	s.caches.tokens.forgetAccount(a.ID)
	return err
}

// accountOrGuest returns the signed-in account, or makes the browser a
// guest account with a session cookie: people play by link and against the
// computer without signing up.
func (s *Server) accountOrGuest(w http.ResponseWriter, r *http.Request) (*store.Account, error) {
	if a := httpx.Account(r); a != nil {
		return a, nil
	}
	if wait, ok := s.guests.Allow(httpx.ClientAddr(r), s.now()); !ok {
		return nil, httpx.TooMany(wait, "too many new guests from this address: wait %s, or sign in", httpx.WaitWords(wait))
	}
	a, err := s.store.CreateAccount(r.Context(), store.Account{Created: s.now()})
	if err != nil {
		return nil, err
	}
	if err := s.startSession(w, r, a); err != nil {
		return nil, err
	}
	return &a, nil
}

// startSession gives the browser a session cookie for account a.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, a store.Account) error {
	secret, hash := newSecret()
	now := s.now()
	if err := s.store.CreateToken(r.Context(), store.Token{Hash: hash, AccountID: a.ID, Kind: store.TokenSession, Created: now, Expires: now.Add(sessionLife)}); err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: secret, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: s.secureCookies, MaxAge: int(sessionLife / time.Second)})
	return nil
}

// displayName names an account for others: its name, or guest-ID.
func displayName(a store.Account) string {
	if a.Name != "" {
		return a.Name
	}
	return fmt.Sprintf("guest-%d", a.ID)
}
