package server

import (
	"context"
	"net/http"
	"strings"
	"time"

	"alak/server/internal/accounts"
	"alak/server/internal/computer"
	"alak/server/store"
	"alak/wire"
)

// The accounts are package accounts (server/internal/accounts); here is
// their wiring.

// defaultCost is the password hashes' cost New gives a server when
// Config.hashCost is zero: accounts.RealCost, which only this package's
// tests lower (hashcost_test.go), for the tests that are not about the
// hash; those that are set Config.hashCost back to accounts.RealCost.
var defaultCost = accounts.RealCost

// newAccounts builds the server's accounts from its configuration, with
// what the other features give them.
func (s *Server) newAccounts() (*accounts.Accounts, error) {
	return accounts.New(accounts.Config{Store: s.store, Core: s.core, Log: s.log, Now: s.now, Done: s.done,
		SecureCookies: strings.HasPrefix(s.cfg.BaseURL, "https://"), HashCost: s.cfg.hashCost,
		LoginRate: s.cfg.LoginRate, SignupRate: s.cfg.SignupRate, StreamKeepAlive: s.cfg.StreamKeepAlive,
		WriteError:   s.writeError,
		Unavailable:  func(w http.ResponseWriter, r *http.Request, err error) { s.pages.Unavailable(w, r, err) },
		HouseBotName: computer.IsHouseBotName,
		Me:           s.meWithVacation,
		SetVacation:  s.vacation.Set,
		Schedule:     s.bots.Schedule,
		Summary:      s.summary,
		Tournament:   s.tourneys.GameTournament,
	})
}

// withAccount resolves the request's credentials (accounts.WithAccount).
func (s *Server) withAccount(next http.Handler) http.Handler { return s.accounts.WithAccount(next) }

// gameCreated is the hook of a new game (POST /api/games, a rematch, a
// tournament's pairing): the streams of the challenged account, or of a
// tournament game's two players, look, here and (told by the Notifier) in
// the other processes, and a house bot takes a challenge addressed to it
// (package computer).
func (s *Server) gameCreated(g store.Game) {
	s.accounts.Wake(g.Creator, g.Opponent, g.Black.AccountID, g.White.AccountID)
	if s.cfg.Notifier != nil && (g.Kind == store.KindNamed || g.Kind == store.KindTournament) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := s.cfg.Notifier.Notify(ctx, g.ID, g.Ply, g.Version); err != nil {
			s.log.Warn("notifying the other processes of a new game", "game", g.ID, "err", err)
		}
		cancel()
	}
	if g.Kind == store.KindNamed && g.State == store.StateWaiting {
		s.bots.Challenged(g)
	}
}

// meWithVacation is /api/me's answer: the account and its vacation
// (package vacation).
func (s *Server) meWithVacation(ctx context.Context, a store.Account) (wire.MeVacation, error) {
	v, err := s.vacation.View(ctx, a)
	return wire.MeVacation{Me: accounts.MeView(a), VacationStatus: v}, err
}
