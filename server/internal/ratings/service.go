package ratings

import (
	"context"
	"log/slog"
	"math"
	"strconv"
	"time"

	"alak/glicko2"
	"alak/server/internal/ratings/update"
	"alak/server/store"
	"alak/wire"
)

// Config is what a Service takes of the server.
type Config struct {
	// Store is the store's ratings role.
	Store store.RatingStore
	// Account finds a player by name for the rating history; its error is
	// already the API's answer (a 404 when there is no such player).
	Account func(ctx context.Context, name string) (store.Account, error)
	// Player is an account as the API shows it: a guest's seat takes no
	// rating, and the leaderboard marks bots.
	Player func(ctx context.Context, id int64) (wire.Seat, error)
	// Now is the server's clock: a rating shown is its rating now (At).
	Now func() time.Time
	// Log records the failures a view reports without failing.
	Log *slog.Logger
}

// Service is the ratings as the server uses them: the seats' ratings as a
// game begins, a game's and a player's ratings for the API, and the API's
// rating calls (api.go). It holds no state of its own.
type Service struct {
	c Config
}

// New returns the ratings' service over what c gives it.
func New(c Config) *Service { return &Service{c: c} }

// Round1 rounds a rating or a deviation to a tenth, as the API shows it.
func Round1(x float64) float64 { return math.Round(x*10) / 10 }

// shown is a rating as a player reads it: "1662", or "1662?" while
// provisional.
func shown(r glicko2.Rating) string {
	s := strconv.Itoa(int(math.Round(r.Rating)))
	if r.Provisional() {
		s += "?"
	}
	return s
}

// NewGame decides whether a new game is rated (as asked, rated by
// default when it can be) and records its creator's rating.
func (s *Service) NewGame(ctx context.Context, g *store.Game, a *store.Account, req wire.CreateRequest) error {
	g.Rated = NotRatable(*g, a.Guest()) == "" && (req.Rated == nil || *req.Rated)
	if g.Kind == store.KindComputer || a.Guest() {
		return nil
	}
	return s.TakeSeats(ctx, g)
}

// Join is the join's part: a game is rated only if both seats are
// accounts (a guest taking an invitation makes it unrated), and each seat's
// rating is recorded as the game begins.
func (s *Service) Join(ctx context.Context, g *store.Game, joiner *store.Account) error {
	if joiner.Guest() {
		g.Rated = false
	}
	return s.TakeSeats(ctx, g)
}

// TakeSeats records the current rating in the game's pool of each seat
// held by an account that is not a guest.
func (s *Service) TakeSeats(ctx context.Context, g *store.Game) error {
	for _, seat := range []struct {
		s  store.Seat
		to *store.SeatRating
	}{{g.Black, &g.BlackRating}, {g.White, &g.WhiteRating}} {
		if seat.s.AccountID == 0 {
			continue
		}
		pv, err := s.c.Player(ctx, seat.s.AccountID)
		if err != nil {
			return err
		}
		if pv.Guest {
			continue
		}
		r, err := s.Pool(ctx, seat.s.AccountID, g.Preset)
		if err != nil {
			return err
		}
		*seat.to = store.SeatRating{Rating: r.Rating, RD: r.RD}
	}
	return nil
}

// Pool is an account's rating in a pool now: a new player's when it has
// none, the deviation grown by the idle weeks.
func (s *Service) Pool(ctx context.Context, account int64, pool string) (glicko2.Rating, error) {
	rs, err := s.c.Store.Ratings(ctx, account)
	if err != nil {
		return glicko2.Rating{}, err
	}
	for _, r := range rs {
		if r.Pool == pool {
			return update.At(r, s.c.Now()), nil
		}
	}
	return glicko2.Default(), nil
}

func seatView(sr store.SeatRating) wire.SeatRating {
	r := glicko2.Rating{Rating: sr.Rating, RD: sr.RD}
	return wire.SeatRating{Rating: Round1(sr.Rating), RD: Round1(sr.RD), Provisional: r.Provisional(), Shown: shown(r)}
}

// Summary is a game's ratings as a list shows them: the seats' ratings
// as stored (no query).
func Summary(g store.Game) wire.GameRatings {
	out := wire.GameRatings{Rated: g.Rated}
	for i, sr := range []store.SeatRating{g.BlackRating, g.WhiteRating} {
		if sr.RD == 0 {
			continue
		}
		if out.Ratings == nil {
			out.Ratings = map[string]wire.SeatRating{}
		}
		out.Ratings[[]string{"x", "o"}[i]] = seatView(sr)
	}
	return out
}

// Game is a game's ratings for its view: the seats' ratings and, once a
// rated game is over, each player's change. A failure to read the changes
// is logged and the view goes without them.
func (s *Service) Game(ctx context.Context, g store.Game) wire.GameRatings {
	out := Summary(g)
	if !g.Rated || g.State != store.StateFinished || out.Ratings == nil {
		return out
	}
	changes, err := s.c.Store.GameRatings(ctx, g.ID)
	if err != nil {
		s.c.Log.ErrorContext(ctx, "reading a game's rating changes", "game", g.ID, "err", err)
		return out
	}
	for _, c := range changes {
		key := "x"
		if c.AccountID == g.White.AccountID {
			key = "o"
		}
		v, ok := out.Ratings[key]
		if !ok {
			continue
		}
		change, after := Round1(c.Change()), Round1(c.After.Rating)
		v.RatingChange, v.RatingAfter = &change, &after
		out.Ratings[key] = v
	}
	return out
}

// Player is a player's ratings now, one per pool played.
func (s *Service) Player(ctx context.Context, account int64) ([]wire.PoolRating, error) {
	rs, err := s.c.Store.Ratings(ctx, account)
	if err != nil {
		return nil, err
	}
	out := []wire.PoolRating{}
	for _, r := range rs {
		g := update.At(r, s.c.Now())
		out = append(out, wire.PoolRating{Pool: r.Pool, Rating: Round1(g.Rating), RD: Round1(g.RD), Volatility: math.Round(g.Volatility*1e6) / 1e6,
			Games: r.Games, Provisional: g.Provisional(), Shown: shown(g)})
	}
	return out, nil
}
