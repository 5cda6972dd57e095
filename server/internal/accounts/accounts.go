package accounts

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"golang.org/x/time/rate"

	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// Store is what the accounts read and keep: the accounts and their tokens,
// the sign-in limits' buckets and marks, and the games (a guest's games
// claimed, an account stream's lists).
type Store interface {
	store.AccountStore
	store.LimitStore
	store.GameStore
}

// Config is what the accounts take of the server.
type Config struct {
	Store Store
	// Core reloads and publishes a claimed guest's games, and opens the
	// account streams.
	Core *game.Core
	Log  *slog.Logger
	// Now is the server's clock: tokens' lives, rates, the streams' ids.
	Now func() time.Time
	// Done is closed when the server stops: the account streams end.
	Done <-chan struct{}
	// SecureCookies makes the session cookie Secure (an https BaseURL).
	SecureCookies bool
	// HashCost is the cost of new password hashes (RealCost in a server).
	HashCost Cost
	// LoginRate is the sign-in attempts one address may make per minute
	// on one name (signInLimits). SignupRate, when above 0, replaces the
	// new accounts (5) and guests (30) one address may make per minute.
	LoginRate, SignupRate int
	// StreamKeepAlive is how often an idle account stream sends a comment.
	StreamKeepAlive time.Duration

	// WriteError answers a refusal or a failure of the API.
	WriteError func(w http.ResponseWriter, r *http.Request, err error)
	// Unavailable answers a page request when the store cannot say whose
	// its cookie is.
	Unavailable func(w http.ResponseWriter, r *http.Request, err error)
	// HouseBotName reports whether a name (in lower case) is a house
	// bot's, which no account may take.
	HouseBotName func(lower string) bool
	// Me is the account as GET and PUT /api/me show it, with its
	// vacation; SetVacation starts or ends the account's vacation.
	Me          func(ctx context.Context, a store.Account) (wire.MeVacation, error)
	SetVacation func(ctx context.Context, a store.Account, on bool) error
	// Schedule asks the computer to move in a game (a claimed game where
	// it is to move).
	Schedule func(id string, version int)
	// Summary is a game as a list shows it to the account me (names
	// caches the players' names over one look); Tournament names a
	// tournament game's tournament and round.
	Summary    func(ctx context.Context, g store.Game, me int64, names map[int64]wire.Seat) wire.Summary
	Tournament func(ctx context.Context, g store.Game) (*wire.TournamentRef, error)
}

// Accounts is the server's accounts: sign-up, sign-in, sessions and tokens,
// a request's account (WithAccount), the claim of a guest's games, and the
// account streams. Its methods are safe for concurrent use.
type Accounts struct {
	c         Config
	dummyHash string // checked against when a name is unknown (New)
	tokens    tokenCache
	logins    *signInLimits   // password checks
	signup    *httpx.Limiters // new accounts by address
	guests    *httpx.Limiters // new guests by address
	streams   accountHub      // the open account streams (events.go)
}

// New returns the accounts of c.
func New(c Config) (*Accounts, error) {
	a := &Accounts{c: c,
		logins: newSignInLimits(c.Store, c.LoginRate),
		signup: httpx.NewLimiters(rate.Limit(5.0/60), 5),
		guests: httpx.NewLimiters(rate.Limit(30.0/60), 30)}
	if c.SignupRate > 0 {
		a.signup = httpx.NewLimiters(rate.Limit(float64(c.SignupRate)/60), c.SignupRate)
		a.guests = httpx.NewLimiters(rate.Limit(float64(c.SignupRate)/60), c.SignupRate)
	}
	// The hash checked against when a name is unknown, at the server's
	// cost (dummyHash).
	dummy, err := dummyHash(c.HashCost)
	if err != nil {
		return nil, err
	}
	a.dummyHash = dummy
	return a, nil
}
