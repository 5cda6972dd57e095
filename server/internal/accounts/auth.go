package accounts

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

// Cost is the cost of a new password hash: Time passes over Memory KiB.
type Cost struct{ Time, Memory uint32 }

// RealCost is the cost of every hash alak serve makes: the server's
// Config field for the cost is unexported, and its New starts from
// RealCost, which only the server's tests lower.
var RealCost = Cost{argonTime, argonMemory}

// Cookie and token lifetimes.
const (
	SessionCookie = "alak_session"
	sessionLife   = 30 * 24 * time.Hour
	APITokenLife  = 365 * 24 * time.Hour
)

// hashSlots bounds the password hashes computed at once: each takes
// argonMemory (64 MiB), so a burst of sign-ups or sign-ins from many
// addresses (each within its rate limit) waits here instead of taking
// gigabytes. One a core: more would only share the cores.
var hashSlots = make(chan struct{}, max(2, runtime.NumCPU()))

// hashesAtOnce counts the hashes under way, and HashesMost the most seen
// at once (the tests of the bound read and reset it).
var hashesAtOnce, HashesMost atomic.Int64

// argonKey is argon2.IDKey within one of the hashSlots.
func argonKey(password, salt []byte, t, m uint32, p uint8, n uint32) []byte {
	hashSlots <- struct{}{}
	defer func() { <-hashSlots }()
	now := hashesAtOnce.Add(1)
	defer hashesAtOnce.Add(-1)
	for most := HashesMost.Load(); now > most && !HashesMost.CompareAndSwap(most, now); most = HashesMost.Load() {
	}
	return argon2.IDKey(password, salt, t, m, p, n)
}

// hashPassword returns the argon2id hash of password at the cost c, in
// the PHC string form (which names the cost, for CheckPassword).
func hashPassword(password string, c Cost) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	return phcString(c, salt, argonKey([]byte(password), salt, c.Time, c.Memory, argonThreads, argonKeyLen)), nil
}

// phcString writes an argon2id hash in the PHC string form.
func phcString(c Cost, salt, key []byte) string {
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, c.Memory, c.Time, argonThreads,
		enc.EncodeToString(salt), enc.EncodeToString(key))
}

// dummyHash returns a hash at the cost c that no password matches: a
// random salt and a random key, which no hash computes (2^-256). Checking
// a password against it costs what checking against a real hash of that
// cost does, so a sign-in under an unknown name takes as long as one under
// a known name; and making it costs nothing (New once hashed a password
// for it, seconds of CPU at each start under the race detector).
func dummyHash(c Cost) (string, error) {
	b := make([]byte, 16+argonKeyLen)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return phcString(c, b[:16], b[16:]), nil
}

// CheckPassword reports whether password matches a hash of hashPassword.
func CheckPassword(hash, password string) bool {
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

// NewSecret returns a random secret for a token or an invitation, and the
// hash under which it is stored.
func NewSecret() (secret, hash string) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	secret = base64.RawURLEncoding.EncodeToString(b)
	return secret, HashSecret(secret)
}

// HashSecret is the stored form of a secret: hex SHA-256.
func HashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// Account names: 2 to 24 letters, digits, _ and -, starting with a letter.
var nameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{1,23}$`)

// reservedNames cannot be taken: they read as something else.
var reservedNames = map[string]bool{"open": true, "link": true, "computer": true, "guest": true, "admin": true, "me": true, "none": true}

// CheckName refuses a name an account cannot take, saying what names are.
func CheckName(name string) error {
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
	st               store.LimitStore
	pair, addr, name store.Bucket // the rates; each attempt's keys are its own
}

// signInMark is how long an address that guessed a name's password wrong
// stays under the name's limit of failures.
const signInMark = time.Hour

func newSignInLimits(st store.LimitStore, perMinute int) *signInLimits {
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

// WithAccount resolves the request's credentials: a bearer token, else the
// session cookie. A bad bearer token is refused at once; a stale cookie is
// ignored (the request is then anonymous). When the store cannot say
// whose a credential is (the database is away), the request is answered
// 503 with Retry-After: never as not signed in, nor as anonymous, which
// would show a player a spectator's view or make their browser a new
// guest in place of their session. Only the requests that never look at
// the account (static files, health, metrics) go on without it.
func (s *Accounts) WithAccount(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := r.Header.Get("Authorization"); h != "" {
			secret, ok := strings.CutPrefix(h, "Bearer ")
			if !ok || len(secret) > 200 {
				s.c.WriteError(w, r, httpx.Errf(wire.Unauthenticated, "bad_token", "the Authorization header is Bearer TOKEN, a token from POST /api/tokens"))
				return
			}
			hash := HashSecret(strings.TrimSpace(secret))
			a, err := s.tokenAccount(r.Context(), hash)
			switch {
			case errors.Is(err, store.ErrNotFound):
				s.c.WriteError(w, r, httpx.Errf(wire.Unauthenticated, "bad_token", "the token is unknown, expired or revoked: get one from POST /api/tokens"))
				return
			case err != nil && accountless(r):
				next.ServeHTTP(w, r)
				return
			case err != nil:
				s.c.WriteError(w, r, httpx.Unavailable(err))
				return
			}
			next.ServeHTTP(w, r.WithContext(httpx.SignedIn(r.Context(), &a, httpx.Credential{Hash: hash, Bearer: true})))
			return
		}
		if c, err := r.Cookie(SessionCookie); err == nil && len(c.Value) <= 200 {
			hash := HashSecret(c.Value)
			a, err := s.tokenAccount(r.Context(), hash)
			switch {
			case err == nil:
				r = r.WithContext(httpx.SignedIn(r.Context(), &a, httpx.Credential{Hash: hash}))
			case errors.Is(err, store.ErrNotFound), accountless(r):
			case strings.HasPrefix(r.URL.Path, "/api/"):
				s.c.WriteError(w, r, httpx.Unavailable(err))
				return
			default:
				s.c.Unavailable(w, r, err)
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
// the cache when the token was seen less than TokenTTL ago, else from the
// store.
func (s *Accounts) tokenAccount(ctx context.Context, hash string) (store.Account, error) {
	now := s.c.Now()
	if a, ok := s.tokens.get(hash, now); ok {
		return a, nil
	}
	a, t, err := s.c.Store.TokenAccount(ctx, hash, now)
	if err != nil {
		return a, err
	}
	s.tokens.put(hash, a, t.Expires, now)
	return a, nil
}

// deleteToken ends a token (signing out): in the store, and at once in
// this process's cache. Another process may honour it until its own cache
// entry is TokenTTL old.
func (s *Accounts) deleteToken(ctx context.Context, hash string) error {
	s.tokens.forget(hash)
	err := s.c.Store.DeleteToken(ctx, hash)
	s.tokens.forget(hash) // a request that read it meanwhile
	return err
}

// changePassword sets an account's password hash and revokes every token
// of the account but keep (the request's own), in one transaction of the
// store; this process forgets the account's cached tokens at once, others
// within TokenTTL.
func (s *Accounts) changePassword(ctx context.Context, id int64, hash, keep string) error {
	s.tokens.forgetAccount(id)
	err := s.c.Store.ChangePassword(ctx, id, hash, keep)
	s.tokens.forgetAccount(id) // a request that read a token meanwhile
	return err
}

// updateAccount writes an account's settings, and forgets the cached
// copies of it that its tokens hold.
func (s *Accounts) updateAccount(ctx context.Context, a store.Account) error {
	err := s.c.Store.UpdateAccount(ctx, a)
	s.tokens.forgetAccount(a.ID)
	return err
}

// AccountOrGuest returns the signed-in account, or makes the browser a
// guest account with a session cookie: people play by link and against the
// computer without signing up.
func (s *Accounts) AccountOrGuest(w http.ResponseWriter, r *http.Request) (*store.Account, error) {
	if a := httpx.Account(r); a != nil {
		return a, nil
	}
	if wait, ok := s.guests.Allow(httpx.ClientAddr(r), s.c.Now()); !ok {
		return nil, httpx.TooMany(wait, "too many new guests from this address: wait %s, or sign in", httpx.WaitWords(wait))
	}
	a, err := s.c.Store.CreateAccount(r.Context(), store.Account{Created: s.c.Now()})
	if err != nil {
		return nil, err
	}
	if err := s.startSession(w, r, a); err != nil {
		return nil, err
	}
	return &a, nil
}

// startSession gives the browser a session cookie for account a.
func (s *Accounts) startSession(w http.ResponseWriter, r *http.Request, a store.Account) error {
	secret, hash := NewSecret()
	now := s.c.Now()
	if err := s.c.Store.CreateToken(r.Context(), store.Token{Hash: hash, AccountID: a.ID, Kind: store.TokenSession, Created: now, Expires: now.Add(sessionLife)}); err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: secret, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: s.c.SecureCookies, MaxAge: int(sessionLife / time.Second)})
	return nil
}

// DisplayName names an account for others: its name, or guest-ID.
func DisplayName(a store.Account) string {
	if a.Name != "" {
		return a.Name
	}
	return fmt.Sprintf("guest-%d", a.ID)
}
