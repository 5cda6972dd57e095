package vacation

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"time"

	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// Store is what the vacations read and write: the vacations (kept by the
// store's conditional moves role), an account's creation (its first
// allowance counts from it) and a player's active games.
type Store interface {
	store.ConditionalStore
	store.AccountStore
	store.GameStore
}

// Config is what the vacations take from the rest of the server.
type Config struct {
	Store Store
	// Core is the game core: a vacation's games are paused and resumed
	// each by a change of its own.
	Core *game.Core
	// YourTurn tells the player to move of a game that resumes (the
	// your-move mail).
	YourTurn func(st *game.State, to int64)
	Log      *slog.Logger
	Now      func() time.Time
}

// Service is the vacations as the server uses them. It holds no state of
// its own.
type Service struct {
	cfg Config
}

// New returns the vacations over what cfg gives them.
func New(cfg Config) *Service { return &Service{cfg: cfg} }

const (
	vacationStart    = 7 * 24 * time.Hour  // a new account's allowance
	vacationPerMonth = 60 * time.Hour      // 2.5 days: 30 days a year
	vacationMaxBank  = 60 * 24 * time.Hour // at most 60 days banked
)

// rule says the rule in a sentence, for the errors and the docs.
const rule = "every account starts with 7 days of vacation and earns 2.5 more at the end of each month since it was made (30 a year), at most 60 banked"

// accrue credits the months completed since v.Accrued, at most
// vacationMaxBank banked at any month's end.
func accrue(v store.Vacation, now time.Time) store.Vacation {
	for next := v.Accrued.AddDate(0, 1, 0); !next.After(now); next = v.Accrued.AddDate(0, 1, 0) {
		v.Accrued = next
		v.Bank = min(v.Bank+vacationPerMonth, vacationMaxBank)
	}
	return v
}

// vacationLeft is the vacation time v has left at now (the part of the
// current vacation used already taken off).
func vacationLeft(v store.Vacation, now time.Time) time.Duration {
	left := v.Bank
	if !v.Since.IsZero() {
		left -= now.Sub(v.Since)
	}
	return max(left, 0)
}

// vacationEnd is when the current vacation ends at the latest: when its
// days banked are used up.
func vacationEnd(v store.Vacation) time.Time { return v.Since.Add(v.Bank) }

// endVacation is v ended at now: the time used is taken from the bank.
func endVacation(v store.Vacation, now time.Time) store.Vacation {
	v.Bank = vacationLeft(v, now)
	v.Since = time.Time{}
	return v
}

// vacationOf reads an account's vacation, accrued to now, and the stored
// since (the optimistic check of SetVacation). An account with none
// stored has its starting allowance and has earned from its creation.
func (vs *Service) vacationOf(ctx context.Context, account int64, now time.Time) (store.Vacation, time.Time, error) {
	v, err := vs.cfg.Store.Vacation(ctx, account)
	if errors.Is(err, store.ErrNotFound) {
		a, err := vs.cfg.Store.AccountByID(ctx, account)
		if err != nil {
			return v, time.Time{}, err
		}
		v = store.Vacation{Account: account, Accrued: a.Created, Bank: vacationStart}
		if v.Accrued.IsZero() || v.Accrued.After(now) {
			v.Accrued = now
		}
	} else if err != nil {
		return v, time.Time{}, err
	}
	return accrue(v, now), v.Since, nil
}

// onVacation reports whether the account is on vacation at now.
func (vs *Service) onVacation(ctx context.Context, account int64, now time.Time) (store.Vacation, bool) {
	if account == 0 {
		return store.Vacation{}, false
	}
	v, err := vs.cfg.Store.Vacation(ctx, account)
	if err != nil || v.Since.IsZero() {
		return v, false
	}
	v = accrue(v, now)
	return v, now.Before(vacationEnd(v))
}

// PauseIfAway pauses a correspondence game that starts while one of its
// players is on vacation.
func (vs *Service) PauseIfAway(ctx context.Context, st *game.State, now time.Time) {
	if st.Clock.Kind != game.ClockDays || st.Row.State != store.StateActive {
		return
	}
	for _, seat := range []store.Seat{st.Row.Black, st.Row.White} {
		if _, away := vs.onVacation(ctx, seat.AccountID, now); away {
			st.Pause(now)
			return
		}
	}
}

// Until (the view's Vacation part) gives, for the view of a paused game, each seat whose
// player is on vacation and until when at the latest.
func (vs *Service) Until(ctx context.Context, st *game.State) wire.SeatTimes {
	now := vs.cfg.Now()
	var out wire.SeatTimes
	for _, seat := range []struct {
		id  int64
		out **time.Time
	}{{st.Row.Black.AccountID, &out.X}, {st.Row.White.AccountID, &out.O}} {
		if v, away := vs.onVacation(ctx, seat.id, now); away {
			until := vacationEnd(v).UTC()
			*seat.out = &until
		}
	}
	return out
}

// View is the account's vacation for /api/me.
func (vs *Service) View(ctx context.Context, a store.Account) (wire.VacationStatus, error) {
	if a.Guest() {
		return wire.VacationStatus{}, nil
	}
	now := vs.cfg.Now()
	v, _, err := vs.vacationOf(ctx, a.ID, now)
	if err != nil {
		return wire.VacationStatus{}, err
	}
	next := v.Accrued.AddDate(0, 1, 0).UTC()
	out := wire.VacationStatus{DaysLeft: math.Floor(vacationLeft(v, now).Hours()/24*10) / 10, Next: &next}
	if !v.Since.IsZero() && now.Before(vacationEnd(v)) {
		out.Vacation = true
		until := vacationEnd(v).UTC()
		out.Until = &until
	}
	return out, nil
}

// Set starts or ends the account's vacation (PUT /api/me
// {"vacation": ...}) and pauses or resumes its correspondence games.
// Starting it again while on vacation pauses the games again (a game an
// interrupted request left running); ending it when not on vacation
// resumes any game still paused for it.
func (vs *Service) Set(ctx context.Context, a store.Account, on bool) error {
	now := vs.cfg.Now()
	v, prev, err := vs.vacationOf(ctx, a.ID, now)
	if err != nil {
		return err
	}
	away := !v.Since.IsZero() && now.Before(vacationEnd(v))
	if !v.Since.IsZero() && !away {
		v = endVacation(v, now) // used up; the sweep has not yet ended it
	}
	switch {
	case on && !away && v.Bank <= 0:
		if v.Since != prev {
			if err := vs.cfg.Store.SetVacation(ctx, v, prev); err != nil && !errors.Is(err, store.ErrConflict) {
				return err
			}
		}
		return httpx.Errf(wire.Conflict, "no_vacation_left", "you have no vacation days left: %s; the next 2.5 days come on %s", rule, v.Accrued.AddDate(0, 1, 0).UTC().Format("2 January 2006"))
	case on && !away:
		v.Since = now
	case !on && away:
		v = endVacation(v, now)
	}
	if v.Since != prev {
		if err := vs.cfg.Store.SetVacation(ctx, v, prev); err != nil {
			if errors.Is(err, store.ErrConflict) {
				return httpx.Errf(wire.Conflict, "conflict", "your vacation changed meanwhile (another request); look at /api/me and try again")
			}
			return err
		}
	}
	vs.games(ctx, a.ID, on, now)
	return nil
}

// games pauses (on) or resumes the account's active
// correspondence games, each a change of its own (published to both
// players). A game whose other player is on vacation stays paused.
func (vs *Service) games(ctx context.Context, account int64, on bool, now time.Time) {
	games, err := vs.cfg.Store.Games(ctx, store.Filter{Player: account, States: []string{store.StateActive}, Limit: 200})
	if err != nil {
		vs.cfg.Log.Error("listing a vacation's games", "account", account, "err", err)
		return
	}
	for _, g := range games {
		if !game.ByDays(g.Clock) || g.Deadline.IsZero() != !on {
			continue
		}
		_, err := vs.cfg.Core.Act(ctx, g.ID, func(st *game.State, now time.Time) (*game.Change, error) {
			if st.Paused() == on || st.Clock.Kind != game.ClockDays || st.Row.State != store.StateActive {
				return nil, errNothingToDo
			}
			if on {
				st.Pause(now)
				return &game.Change{}, nil
			}
			other := st.Row.Black.AccountID
			if other == account {
				other = st.Row.White.AccountID
			}
			if _, away := vs.onVacation(ctx, other, now); away {
				return nil, errNothingToDo
			}
			st.Resume(now)
			return &game.Change{After: func() { vs.cfg.YourTurn(st, st.ToMoveAccount()) }}, nil
		})
		if err != nil && !errors.Is(err, errNothingToDo) {
			vs.cfg.Log.Info("a vacation's game left as it was", "game", g.ID, "err", err)
		}
	}
}

// errNothingToDo: a vacation's game is already as asked.
var errNothingToDo = errors.New("nothing to do")

// Sweep ends the vacations whose days are used up (the server's sweep).
func (vs *Service) Sweep(ctx context.Context, now time.Time) {
	on, err := vs.cfg.Store.OnVacation(ctx)
	if err != nil {
		vs.cfg.Log.Error("listing the vacations", "err", err)
		return
	}
	for _, v := range on {
		v = accrue(v, now)
		if now.Before(vacationEnd(v)) {
			continue
		}
		prev := v.Since
		if err := vs.cfg.Store.SetVacation(ctx, endVacation(v, now), prev); err != nil {
			if !errors.Is(err, store.ErrConflict) {
				vs.cfg.Log.Error("ending a vacation", "account", v.Account, "err", err)
			}
			continue
		}
		vs.games(ctx, v.Account, false, now)
	}
}
