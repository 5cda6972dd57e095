package tournaments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"

	"alak/internal/clip"
	"alak/rules"
	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/server/internal/pages"
	"alak/server/store"
	"alak/tournament"
	"alak/wire"
)

// The tournaments' API (docs/api.md): create, join, leave,
// start, withdraw, one tournament, the list by state, and a tournament's
// event stream.

// Routes registers the tournaments' API and pages on mux.
func (s *Service) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/tournaments", s.handleCreateTournament)
	mux.HandleFunc("GET /api/tournaments", s.handleListTournaments)
	mux.HandleFunc("GET /api/tournaments/{id}", s.handleTournament)
	mux.HandleFunc("GET /api/tournaments/{id}/events", s.handleTournamentEvents)
	mux.HandleFunc("POST /api/tournaments/{id}/join", s.handleJoinTournament)
	mux.HandleFunc("POST /api/tournaments/{id}/leave", s.handleLeaveTournament)
	mux.HandleFunc("POST /api/tournaments/{id}/start", s.handleStartTournament)
	mux.HandleFunc("POST /api/tournaments/{id}/withdraw", s.handleWithdrawTournament)
	mux.HandleFunc("GET /tournaments", func(w http.ResponseWriter, r *http.Request) {
		s.cfg.Pages.Render(w, r, "tournaments", pages.Page{Title: "tournaments", Page: "tournaments", Forms: s.cfg.Pages.Forms})
	})
	mux.HandleFunc("GET /t/{id}", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		t, _, _, err := s.loadTournament(r.Context(), id)
		if errors.Is(err, errNoTournament) {
			s.cfg.Pages.NotFound(w, r, "There is no tournament "+clip.Text(id)+".")
			return
		}
		if err != nil {
			s.cfg.Pages.Unavailable(w, r, err)
			return
		}
		s.cfg.Pages.Render(w, r, "tournament", pages.Page{Title: t.Name, Page: "tournament", Tournament: t.ID})
	})
}

// Bounds of a tournament.
const (
	maxTournamentName    = 60
	maxTournamentPlayers = 128
)

var errNoTournament = httpx.Errf(wire.NotFound, "not_found", "no such tournament")

func (s *Service) tournamentURL(id string) string { return s.cfg.BaseURL() + "/t/" + id }

// member requires a signed-in account that is not a guest.
func member(r *http.Request) (*store.Account, error) {
	a, err := httpx.RequireAccount(r)
	if err != nil {
		return nil, err
	}
	if a.Guest() {
		return nil, httpx.Errf(wire.Forbidden, "account_needed", "tournaments are for accounts: create one (a guest cannot take part)")
	}
	return a, nil
}

func (s *Service) handleCreateTournament(w http.ResponseWriter, r *http.Request) {
	a, err := member(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req wire.TournamentRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	t, err := s.newTournament(req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	now := s.cfg.Now()
	if wait, ok := httpx.AllowAll(now, httpx.Limit{L: s.cfg.GamesAt, Key: httpx.ClientAddr(r)}, httpx.Limit{L: s.cfg.Games, Key: strconv.FormatInt(a.ID, 10)}); !ok {
		s.writeError(w, r, httpx.TooMany(wait, "too many new games and tournaments: wait %s", httpx.WaitWords(wait)))
		return
	}
	t.ID, t.Organiser, t.State, t.Version, t.Created = s.cfg.NewID(), a.ID, store.TournamentOpen, 1, now
	if err := s.cfg.Store.CreateTournament(r.Context(), t); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.cfg.Log.InfoContext(r.Context(), "tournament created", "tournament", t.ID, "format", t.Format, "rules", t.Rules, "clock", t.Clock)
	if req.Play {
		// The organiser plays: joined as any player would be, the
		// tournament fresh (open, empty). Should the join fail, the
		// tournament stands and its page offers the join.
		err := s.changeTournament(r.Context(), t.ID, func(t store.Tournament, players []store.TournamentPlayer, ch *store.TournamentChange) error {
			rating, err := s.seedRating(r.Context(), t, a.ID)
			if err != nil {
				return err
			}
			ch.Join = []store.TournamentPlayer{{AccountID: a.ID, Rating: rating, Joined: s.cfg.Now()}}
			return nil
		})
		if err != nil {
			s.cfg.Log.ErrorContext(r.Context(), "the organiser joining the tournament", "tournament", t.ID, "err", err)
		}
	}
	httpx.WriteJSON(w, http.StatusCreated, wire.Created{ID: t.ID, URL: s.tournamentURL(t.ID)})
}

// newTournament checks a create request and builds the tournament.
func (s *Service) newTournament(req wire.TournamentRequest) (store.Tournament, error) {
	var t store.Tournament
	name := strings.TrimSpace(req.Name)
	if name == "" || len([]rune(name)) > maxTournamentName || strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return t, httpx.Errf(wire.BadInput, "bad_name", "a tournament's name is 1 to %d characters, without control characters", maxTournamentName)
	}
	if len(req.Rules) > 200 {
		return t, httpx.Errf(wire.BadInput, "too_long", "rules are at most 200 characters")
	}
	spec := req.Rules
	if strings.TrimSpace(spec) == "" {
		spec = "alak"
	}
	rs, err := rules.Parse(spec)
	if err != nil {
		return t, httpx.Errf(wire.BadInput, "bad_rules", "%s (the rules are a preset and its options, such as alak size=11 edge=off)", err)
	}
	clock, err := game.ParseClock(req.Clock)
	if err != nil {
		return t, httpx.Errf(wire.BadInput, "bad_clock", "%s", err)
	}
	if clock.Kind == game.ClockNone {
		return t, httpx.Errf(wire.BadInput, "bad_clock", "a tournament needs a clock, so that every round ends: live:5m+3s or days:3")
	}
	format, err := tournament.ParseFormat(strings.TrimSpace(req.Format))
	if err != nil {
		return t, httpx.Errf(wire.BadInput, "bad_format", "the format is round-robin, double-round-robin, swiss or knockout")
	}
	switch {
	case format == tournament.FormatSwiss && (req.Rounds < 0 || req.Rounds > tournament.MaxSwissRounds):
		return t, httpx.Errf(wire.BadInput, "bad_rounds", "a Swiss tournament plays 1 to %d rounds (0 or none: enough for the players, ceil(log2 n))", tournament.MaxSwissRounds)
	case format != tournament.FormatSwiss && req.Rounds != 0:
		return t, httpx.Errf(wire.BadInput, "bad_rounds", "only a Swiss tournament takes rounds: the %s format decides its own", format)
	}
	if req.MaxPlayers != 0 && (req.MaxPlayers < 2 || req.MaxPlayers > maxTournamentPlayers) {
		return t, httpx.Errf(wire.BadInput, "bad_max_players", "max_players is 2 to %d (or none: %d)", maxTournamentPlayers, maxTournamentPlayers)
	}
	var starts time.Time
	if req.Starts != "" {
		starts, err = time.Parse(time.RFC3339, req.Starts)
		now := s.cfg.Now()
		if err != nil || starts.Before(now) || starts.After(now.Add(366*24*time.Hour)) {
			return t, httpx.Errf(wire.BadInput, "bad_starts", "starts is a time in RFC 3339 (2026-12-01T18:00:00Z) within the next year, or none: the organiser starts it")
		}
	}
	rated := s.cfg.Ratable(rs.String())
	if req.Rated != nil && *req.Rated {
		if !rated {
			return t, httpx.Errf(wire.BadRequest, "not_rated", "this tournament cannot be rated: only a preset's own rules are rated (at any size): %q changes other options (send \"rated\": false or leave it out)", rs.String())
		}
	} else if req.Rated != nil {
		rated = false
	}
	t = store.Tournament{Name: name, Rules: rs.String(), Clock: clock.String(), Format: string(format), Rated: rated,
		Rounds: req.Rounds, MaxPlayers: req.MaxPlayers, Starts: starts.UTC()}
	if t.MaxPlayers == 0 {
		t.MaxPlayers = maxTournamentPlayers
	}
	return t, nil
}

// loadTournament reads a tournament for a request.
func (s *Service) loadTournament(ctx context.Context, id string) (store.Tournament, []store.TournamentPlayer, []store.TournamentGame, error) {
	if len(id) > 40 {
		return store.Tournament{}, nil, nil, errNoTournament
	}
	t, players, slots, err := s.cfg.Store.Tournament(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		err = errNoTournament
	}
	return t, players, slots, err
}

// changeTournament applies f to the tournament read now and stores its
// change at the version read, reading again when another request changed
// it meanwhile.
func (s *Service) changeTournament(ctx context.Context, id string, f func(t store.Tournament, players []store.TournamentPlayer, ch *store.TournamentChange) error) error {
	unlock := s.lock(id)
	defer unlock()
	for range 5 {
		t, players, _, err := s.loadTournament(ctx, id)
		if err != nil {
			return err
		}
		ch := &store.TournamentChange{T: t, Expect: t.Version}
		ch.T.Version++
		if err := f(t, players, ch); err != nil {
			return err
		}
		err = s.cfg.Store.UpdateTournament(ctx, *ch)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err == nil {
			s.changed(id)
		}
		return err
	}
	return httpx.AsError(store.ErrConflict)
}

func playerIn(players []store.TournamentPlayer, id int64) (store.TournamentPlayer, bool) {
	for _, p := range players {
		if p.AccountID == id {
			return p, true
		}
	}
	return store.TournamentPlayer{}, false
}

// toggleTournament spends one of the account's joins and leaves, or
// returns the 429 to answer: each is sent to every watcher of the
// tournament, so one account toggling as fast as it can would flood them.
func (s *Service) toggleTournament(a *store.Account) error {
	if wait, ok := s.toggles.Allow(strconv.FormatInt(a.ID, 10), s.cfg.Now()); !ok {
		return httpx.TooMany(wait, "too many joins and leaves of tournaments (%d, then one every %d s): wait %s", ToggleBurst, int(ToggleEvery/time.Second), httpx.WaitWords(wait))
	}
	return nil
}

func (s *Service) handleJoinTournament(w http.ResponseWriter, r *http.Request) {
	a, err := member(r)
	if err == nil {
		err = s.toggleTournament(a)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	id := r.PathValue("id")
	err = s.changeTournament(r.Context(), id, func(t store.Tournament, players []store.TournamentPlayer, ch *store.TournamentChange) error {
		if t.State != store.TournamentOpen {
			return httpx.Errf(wire.Conflict, "not_open", "the tournament is %s: players join only until it starts", t.State)
		}
		if _, ok := playerIn(players, a.ID); ok {
			return httpx.Errf(wire.Conflict, "joined", "you are in this tournament already")
		}
		if len(players) >= t.MaxPlayers {
			return httpx.Errf(wire.Conflict, "full", "the tournament is full (%d players)", t.MaxPlayers)
		}
		rating, err := s.seedRating(r.Context(), t, a.ID)
		if err != nil {
			return err
		}
		ch.Join = []store.TournamentPlayer{{AccountID: a.ID, Rating: rating, Joined: s.cfg.Now()}}
		return nil
	})
	s.answerTournament(w, r, id, err)
}

func (s *Service) handleLeaveTournament(w http.ResponseWriter, r *http.Request) {
	a, err := member(r)
	if err == nil {
		err = s.toggleTournament(a)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	id := r.PathValue("id")
	err = s.changeTournament(r.Context(), id, func(t store.Tournament, players []store.TournamentPlayer, ch *store.TournamentChange) error {
		if t.State != store.TournamentOpen {
			return httpx.Errf(wire.Conflict, "not_open", "the tournament is %s: after the start, withdraw instead", t.State)
		}
		if _, ok := playerIn(players, a.ID); !ok {
			return httpx.Errf(wire.Conflict, "not_joined", "you are not in this tournament")
		}
		ch.Leave = []int64{a.ID}
		return nil
	})
	s.answerTournament(w, r, id, err)
}

func (s *Service) handleStartTournament(w http.ResponseWriter, r *http.Request) {
	a, err := member(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	id := r.PathValue("id")
	s.answerTournament(w, r, id, s.startTournament(r.Context(), id, a.ID))
}

// startTournament starts an open tournament, by its organiser (by) or at
// its time (by 0), and pairs its first round. Every player's seeding
// rating is taken again at the start.
func (s *Service) startTournament(ctx context.Context, id string, by int64) error {
	err := s.changeTournament(ctx, id, func(t store.Tournament, players []store.TournamentPlayer, ch *store.TournamentChange) error {
		if by != 0 && t.Organiser != by {
			return httpx.Errf(wire.Forbidden, "not_organiser", "only the tournament's organiser starts it")
		}
		if t.State != store.TournamentOpen {
			return httpx.Errf(wire.Conflict, "not_open", "the tournament is %s already", t.State)
		}
		if len(players) < tournament.MinPlayers {
			return httpx.Errf(wire.Conflict, "too_few", "a tournament needs at least %d players to start; it has %d", tournament.MinPlayers, len(players))
		}
		for _, p := range players {
			rating, err := s.seedRating(ctx, t, p.AccountID)
			if err != nil {
				return err
			}
			p.Rating = rating
			ch.Players = append(ch.Players, p)
		}
		ch.T.State, ch.T.Started = store.TournamentRunning, s.cfg.Now()
		return nil
	})
	if err != nil {
		return err
	}
	s.cfg.Log.Info("tournament started", "tournament", id)
	return s.runTournament(ctx, id)
}

// seedRating is a player's rating in the pool of the tournament's preset.
func (s *Service) seedRating(ctx context.Context, t store.Tournament, account int64) (float64, error) {
	r, err := rules.Parse(t.Rules)
	if err != nil {
		return 0, err
	}
	return s.cfg.Seed(ctx, account, r.Preset)
}

func (s *Service) handleWithdrawTournament(w http.ResponseWriter, r *http.Request) {
	a, err := member(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	id := r.PathValue("id")
	err = s.changeTournament(r.Context(), id, func(t store.Tournament, players []store.TournamentPlayer, ch *store.TournamentChange) error {
		if t.State != store.TournamentRunning {
			return httpx.Errf(wire.Conflict, "not_running", "the tournament is %s: withdraw while it runs (before the start, leave)", t.State)
		}
		p, ok := playerIn(players, a.ID)
		if !ok {
			return httpx.Errf(wire.Conflict, "not_joined", "you are not in this tournament")
		}
		if p.Withdrawn {
			return httpx.Errf(wire.Conflict, "withdrawn", "you have withdrawn already")
		}
		p.Withdrawn = true
		ch.Players = []store.TournamentPlayer{p}
		return nil
	})
	if err == nil {
		s.cfg.Log.InfoContext(r.Context(), "tournament withdrawal", "tournament", id, "account", a.ID)
		err = s.runTournament(r.Context(), id)
	}
	s.answerTournament(w, r, id, err)
}

// answerTournament answers a change with the tournament's view, or the
// error.
func (s *Service) answerTournament(w http.ResponseWriter, r *http.Request, id string, err error) {
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v, err := s.tournamentView(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, v)
}

func (s *Service) handleTournament(w http.ResponseWriter, r *http.Request) {
	s.answerTournament(w, r, r.PathValue("id"), nil)
}

// tournamentView builds a tournament's view: players, games, standings,
// and the crosstable (round robins) or bracket (knockouts).
func (s *Service) tournamentView(ctx context.Context, id string) (wire.Tournament, error) {
	t, players, slots, err := s.loadTournament(ctx, id)
	if err != nil {
		return wire.Tournament{}, err
	}
	v := wire.Tournament{ID: t.ID, URL: s.tournamentURL(t.ID), Name: t.Name, Format: t.Format, Rules: t.Rules, Clock: t.Clock,
		Rated: t.Rated, Rounds: t.Rounds, MaxPlayers: t.MaxPlayers, State: t.State, Round: t.Round, Version: t.Version, Winner: t.Winner,
		Players: []wire.TournamentPlayer{}, Games: []wire.TournamentGame{}, Standings: []tournament.Standing{}}
	if !t.Starts.IsZero() {
		st := t.Starts
		v.Starts = &st
	}
	if pv, err := s.cfg.Core.PlayerView(ctx, t.Organiser); err == nil {
		v.Organiser = pv.Name
	}
	ps := newPairingState(t, players, slots)
	for _, p := range players {
		v.Players = append(v.Players, wire.TournamentPlayer{Name: p.Name, Rating: p.Rating, Withdrawn: p.Withdrawn})
	}
	for i, sl := range slots {
		g := ps.state.Games[i]
		gv := wire.TournamentGame{ID: sl.GameID, Round: sl.Round, Slot: sl.Slot, X: g.X, O: g.O, State: sl.State,
			Result: g.Outcome.String(), Forfeit: g.Forfeit}
		switch {
		case sl.O == 0:
			gv.State = "bye"
		case sl.GameID == "":
			gv.State = "forfeit"
		}
		v.Games = append(v.Games, gv)
	}
	if t.State == store.TournamentOpen || len(players) < tournament.MinPlayers {
		return v, nil
	}
	if t.Format == string(tournament.FormatSwiss) && t.Rounds == 0 {
		v.Rounds = tournament.SwissRounds(len(players)) // the default the pairing takes
	}
	v.Standings = append(v.Standings, tournament.Standings(ps.state)...)
	switch tournament.Format(t.Format) {
	case tournament.FormatKnockout:
		for _, br := range tournament.Bracket(ps.state).Rounds {
			rv := wire.BracketRound{Round: br.Round}
			for _, m := range br.Matches {
				rv.Matches = append(rv.Matches, wire.Match{Players: m.Players, Seeds: m.Seeds, Points: m.Points, Winner: m.Winner,
					Bye: m.Bye, ByHigherSeed: m.ByHigherSeed})
			}
			v.Bracket = append(v.Bracket, rv)
		}
	case tournament.FormatRoundRobin, tournament.FormatDoubleRoundRobin:
		ct := tournament.Crosstable(ps.state)
		cv := &wire.Crosstable{Names: ct.Names, Scores: ct.Scores}
		for _, row := range ct.Cells {
			cells := make([]string, len(row))
			for j, c := range row {
				cells[j] = c.String()
			}
			cv.Cells = append(cv.Cells, cells)
		}
		v.Crosstable = cv
	}
	return v, nil
}

// handleListTournaments is GET /api/tournaments?state=open|running|finished.
func (s *Service) handleListTournaments(w http.ResponseWriter, r *http.Request) {
	state := r.URL.Query().Get("state")
	switch state {
	case "", store.TournamentOpen, store.TournamentRunning, store.TournamentFinished:
	default:
		s.writeError(w, r, httpx.Errf(wire.BadRequest, "bad_state", "state is open, running or finished (or none: all), not %q", clip.Text(state)))
		return
	}
	list, err := s.cfg.Store.Tournaments(r.Context(), state, 100)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := []wire.TournamentSummary{}
	for _, t := range list {
		out = append(out, wire.TournamentSummary{ID: t.ID, URL: s.tournamentURL(t.ID), Name: t.Name, Format: t.Format, Rules: t.Rules,
			Clock: t.Clock, State: t.State, Round: t.Round, Players: t.Players, Winner: t.Winner})
	}
	httpx.WriteJSON(w, http.StatusOK, wire.Tournaments{Tournaments: out})
}

// handleTournamentEvents is GET /api/tournaments/{id}/events: an event
// stream of the tournament's view, sent whenever it changes ("event:
// tournament", the view as data). A change this process makes (a game
// ended, a round paired, a join) wakes it at once; every 5 s (or
// Config.SweepEvery, if longer) it also reads the view again, which brings
// the changes of other processes, and sends it if it differs from the last
// one sent.
func (s *Service) handleTournamentEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	wake := s.watch(id)
	defer s.unwatch(id, wake)
	v, err := s.tournamentView(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	stream, err := s.cfg.Core.OpenStream(w, r, "tournament event stream", "tournament", id)
	if err != nil {
		return
	}
	defer stream.Close()
	var last []byte
	send := func(v wire.Tournament) error {
		data, err := json.Marshal(v)
		if err != nil || string(data) == string(last) {
			return err
		}
		last = data
		return stream.Write(fmt.Appendf(nil, "event: tournament\nid: %d\nretry: 2000\ndata: %s\n\n", v.Version, data))
	}
	if err := send(v); err != nil {
		return
	}
	poll := time.NewTicker(max(s.cfg.SweepEvery, 5*time.Second))
	defer poll.Stop()
	keep := time.NewTicker(s.cfg.StreamKeepAlive)
	defer keep.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.cfg.Done:
			return
		case <-keep.C:
			if stream.Write(game.KeepAlive) != nil {
				return
			}
			continue
		case <-wake:
		case <-poll.C:
		}
		v, err := s.tournamentView(r.Context(), id)
		if err != nil {
			return
		}
		if send(v) != nil {
			return
		}
	}
}

// tournamentRef is the tournament and round of a game of a tournament, or
// nil.
func (s *Service) tournamentRef(ctx context.Context, slot store.TournamentGame) *wire.TournamentRef {
	name, ok := s.names.Load(slot.TournamentID)
	if !ok {
		t, _, _, err := s.cfg.Store.Tournament(ctx, slot.TournamentID)
		if err != nil {
			return &wire.TournamentRef{ID: slot.TournamentID, Round: slot.Round}
		}
		name = t.Name
		s.names.Store(slot.TournamentID, name)
	}
	return &wire.TournamentRef{ID: slot.TournamentID, Name: name.(string), Round: slot.Round}
}

// GameTournament is the tournament and round of a game, or nil: read
// when a game's state is loaded (a tournament's games only).
func (s *Service) GameTournament(ctx context.Context, row store.Game) (*wire.TournamentRef, error) {
	if row.Kind != store.KindTournament {
		return nil, nil
	}
	slots, err := s.cfg.Store.TournamentGames(ctx, []string{row.ID})
	if err != nil || len(slots) == 0 {
		return nil, err
	}
	return s.tournamentRef(ctx, slots[0]), nil
}

// Tag sets the tournament and round of the tournament games of a list.
func (s *Service) Tag(ctx context.Context, list []wire.Summary) {
	var ids []string
	for _, g := range list {
		if g.Kind == store.KindTournament {
			ids = append(ids, g.ID)
		}
	}
	if len(ids) == 0 {
		return
	}
	slots, err := s.cfg.Store.TournamentGames(ctx, ids)
	if err != nil {
		s.cfg.Log.Warn("reading the tournaments of games", "err", err)
		return
	}
	by := map[string]store.TournamentGame{}
	for _, sl := range slots {
		by[sl.GameID] = sl
	}
	for i := range list {
		if sl, ok := by[list[i].ID]; ok {
			list[i].Tournament = s.tournamentRef(ctx, sl)
		}
	}
}

// writeError answers err as JSON with its kind's status (httpx.WriteError).
func (s *Service) writeError(w http.ResponseWriter, r *http.Request, err error) {
	httpx.WriteError(s.cfg.Log, w, r, err)
}
