package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"time"

	"alak/internal/clip"
	"alak/notation"
	"alak/player"
	"alak/rules"
	"alak/server/internal/accounts"
	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/server/internal/ratings"
	"alak/server/store"
	"alak/session"
	"alak/wire"
)

func (s *Server) handleRules(w http.ResponseWriter, r *http.Request) {
	info := wire.RulesInfo{Options: rules.Options(), Days: game.CorrespondenceDays}
	for i := 1; i <= player.Levels(); i++ {
		spec, _ := player.Level(i)
		info.Levels = append(info.Levels, spec)
	}
	for _, name := range rules.Presets() {
		p := rules.MustPreset(name)
		pi := wire.Preset{Name: name, Size: p.SizeString(), Grid: !p.IsLine(), Sliding: p.Movement == rules.Sliding, Values: map[string]string{},
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
	httpx.WriteJSON(w, http.StatusOK, info)
}

func (s *Server) handleCreateGame(w http.ResponseWriter, r *http.Request) {
	var req wire.CreateRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	g, secret, err := s.newGame(r, req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := ratings.CheckRated(r, g, req); err != nil {
		s.writeError(w, r, err)
		return
	}
	// New games are limited by address before a guest is made, and by
	// account.
	now := s.now()
	if wait := s.gamesAt.Wait(httpx.ClientAddr(r), now); wait > 0 {
		s.writeError(w, r, httpx.TooMany(wait, "too many new games from this address: wait %s", httpx.WaitWords(wait)))
		return
	}
	a, err := s.accounts.AccountOrGuest(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if wait, ok := httpx.AllowAll(now, httpx.Limit{L: s.gamesAt, Key: httpx.ClientAddr(r)}, httpx.Limit{L: s.games, Key: strconv.FormatInt(a.ID, 10)}); !ok {
		s.writeError(w, r, httpx.TooMany(wait, "too many new games (%d a minute for an account, %d from an address): wait %s", s.cfg.GameRate, 2*s.cfg.GameRate, httpx.WaitWords(wait)))
		return
	}
	if a.Guest() && (g.Kind == store.KindNamed || g.Kind == store.KindOpen || game.ByDays(g.Clock)) {
		s.writeError(w, r, httpx.Errf(wire.Forbidden, "account_needed", "a guest plays live games by link or against the computer: create an account for correspondence, the lobby and named challenges"))
		return
	}
	if err := s.checkChallenges(r.Context(), a, g.Kind); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.seatCreator(r.Context(), &g, a); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.ratings.NewGame(r.Context(), &g, a, req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.store.CreateGame(r.Context(), g); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "game created", "game", g.ID, "rules", g.Rules, "kind", g.Kind, "clock", g.Clock)
	s.gameCreated(g)
	out := wire.Created{ID: g.ID, URL: s.gameURL(g.ID)}
	if secret != "" {
		out.Invite = s.gameURL(g.ID) + "?invite=" + secret
	}
	if g.State == store.StateActive {
		if st, err := s.core.Load(r.Context(), g.ID); err == nil && st.BotToMove() {
			s.bots.Schedule(g.ID, g.Version)
		}
	}
	httpx.WriteJSON(w, http.StatusCreated, out)
}

// The most challenges one account may have waiting for an opponent:
// open ones in the lobby (which lists the 200 newest, so that one account
// could otherwise push everyone else's out), and of every kind together
// (named challenges, invitations by link, open challenges).
const (
	maxOpenChallenges = 10
	maxChallenges     = 50
)

// checkChallenges refuses a new challenge of the kind when the account
// has as many waiting as it may.
func (s *Server) checkChallenges(ctx context.Context, a *store.Account, kind string) error {
	if kind != store.KindOpen && kind != store.KindNamed && kind != store.KindLink {
		return nil // a game against the computer starts at once
	}
	waiting, err := s.store.Games(ctx, store.Filter{Player: a.ID, States: []string{store.StateWaiting}, Live: s.now(), Limit: maxChallenges})
	if err != nil {
		return err
	}
	open := 0
	for _, g := range waiting {
		if g.Kind == store.KindOpen {
			open++
		}
	}
	switch {
	case kind == store.KindOpen && open >= maxOpenChallenges:
		return httpx.Errf(wire.Conflict, "too_many_challenges", "you have %d open challenges in the lobby, the most one player may have: withdraw one, or wait until one is taken or expires", maxOpenChallenges)
	case len(waiting) >= maxChallenges:
		return httpx.Errf(wire.Conflict, "too_many_challenges", "you have %d challenges and invitations waiting for an opponent, the most one player may have: withdraw one, or wait until one is taken or expires", maxChallenges)
	}
	return nil
}

// newGame checks a create request and builds the game, without its seats.
func (s *Server) newGame(r *http.Request, req wire.CreateRequest) (store.Game, string, error) {
	var g store.Game
	if len(req.Rules) > 200 || len(req.Position) > 500 || len(req.Opponent) > 100 {
		return g, "", httpx.Errf(wire.BadInput, "too_long", "rules are at most 200 characters, a position 500, an opponent 100")
	}
	spec := req.Rules
	if strings.TrimSpace(spec) == "" {
		spec = "alak"
	}
	rs, err := rules.Parse(spec)
	if err != nil {
		return g, "", httpx.Errf(wire.BadInput, "bad_rules", "%s (the rules are a preset and its options, such as alak size=11 edge=off)", err)
	}
	setup := session.Setup{Rules: rs, SizeGiven: strings.Contains(spec, "size="), Diagram: req.Position, ToMove: req.ToMove}
	start, err := setup.Game()
	if err != nil {
		return g, "", httpx.Errf(wire.BadInput, "bad_position", "%s", err)
	}
	rs = start.Rules()
	clock, err := game.ParseClock(req.Clock)
	if err != nil {
		return g, "", httpx.Errf(wire.BadInput, "bad_clock", "%s", err)
	}
	color := strings.ToLower(strings.TrimSpace(req.Color))
	switch color {
	case "":
		color = "random"
	case "x", "o", "random":
	default:
		return g, "", httpx.Errf(wire.BadInput, "bad_color", "color is x (Black, first), o or random")
	}
	now := s.now()
	g = store.Game{ID: newID(), Rules: rs.String(), Preset: rs.Preset, Size: rs.SizeString(), Color: color, Clock: clock.String(),
		State: store.StateWaiting, Version: 1, WarnedEntry: -1, Created: now, Updated: now, AllowBots: req.AllowBots}
	if req.Position != "" {
		text, err := start.Start().MarshalText()
		if err != nil {
			return g, "", err
		}
		g.Start = string(text)
	}
	if clock.Kind == game.ClockLive {
		g.BlackLeft, g.WhiteLeft = clock.Initial, clock.Initial
	}
	life := s.cfg.ChallengeLife
	if clock.Kind == game.ClockDays {
		life = 7 * 24 * time.Hour
	}
	opp := strings.TrimSpace(req.Opponent)
	var secret string
	switch {
	case opp == "open":
		g.Kind, g.Expires = store.KindOpen, now.Add(life)
	case opp == "link" || opp == "":
		var hash string
		secret, hash = accounts.NewSecret()
		g.Kind, g.InviteHash, g.Expires = store.KindLink, hash, now.Add(life)
	case strings.HasPrefix(opp, "computer"):
		bot := strings.TrimPrefix(strings.TrimPrefix(opp, "computer"), ":")
		if bot == "" {
			bot = "level:5"
		}
		p, err := player.NewUntrusted(bot, 1)
		if err != nil {
			return g, "", httpx.Errf(wire.BadInput, "bad_computer", "%s (write computer:level:N, N from 1 to %d, or computer:NAME)", err, player.Levels())
		}
		// Stored as the player package built it (its canonical spec: the
		// name in lower case, the options in a fixed order, the bounds
		// added), never as typed.
		bot = p.Name()
		p.Close()
		g.Kind = store.KindComputer
		g.Black.Bot = bot // set aside; seatCreator puts it on the other seat
	default:
		if accounts.CheckName(opp) != nil {
			return g, "", httpx.Errf(wire.BadInput, "bad_opponent", "%q is not a player's name: write the name of the player you challenge (2 to 24 letters, digits, _ and -), or choose the lobby, a link or the computer", clip.Text(opp))
		}
		a, err := s.store.AccountByName(r.Context(), opp)
		if errors.Is(err, store.ErrNotFound) {
			return g, "", httpx.Errf(wire.NotFound, "no_player", "no player is called %s", opp)
		}
		if err != nil {
			return g, "", err
		}
		g.Kind, g.Opponent, g.Expires = store.KindNamed, a.ID, now.Add(life)
	}
	return g, secret, nil
}

// seatCreator seats the creator by the colour asked for, and the computer
// opposite; a game against the computer starts at once.
func (s *Server) seatCreator(ctx context.Context, g *store.Game, a *store.Account) error {
	if g.Kind == store.KindNamed && g.Opponent == a.ID {
		return httpx.Errf(wire.BadInput, "bad_opponent", "you cannot challenge yourself")
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
		st, err := s.core.Rebuild(*g, nil)
		if err != nil {
			return err
		}
		st.StartTurn(s.now())
		g.TurnStart, g.Deadline = st.Row.TurnStart, st.Row.Deadline
	}
	return nil
}

func (s *Server) handleGame(w http.ResponseWriter, r *http.Request) {
	st, err := s.core.Load(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.around.WriteGame(w, r, st)
}

func (s *Server) handleSGF(w http.ResponseWriter, r *http.Request) {
	st, err := s.core.Load(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rec := s.core.Record(r.Context(), st, s.sgfMessages(r, st))
	var buf bytes.Buffer
	if err := notation.WriteSGF(&buf, rec); err != nil {
		s.writeError(w, r, httpx.Errf(wire.BadInput, "no_sgf", "this game cannot be written as SGF: %s", err))
		return
	}
	w.Header().Set("Content-Type", "application/x-go-sgf; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="alak-`+st.Row.ID+`.sgf"`)
	// A player's copy carries the players' messages: no shared cache keeps it.
	w.Header().Set("Cache-Control", "private, no-store")
	w.Write(buf.Bytes())
}

// sgfMessages returns the messages of the game that the requester may
// read, oldest first, for the SGF export: to a player of the game, what
// their game page shows (all of them, or only their own when they muted
// the opponent); to anyone else, none (the messages are the players'
// only).
func (s *Server) sgfMessages(r *http.Request, st *game.State) []game.Message {
	c, ok := st.SeatOf(httpx.Account(r))
	if !ok {
		return nil
	}
	msgs, _ := s.around.ChatFor(r.Context(), st, c.Letter())
	out := make([]game.Message, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, game.Message{From: m.From, Text: m.Text, At: m.At})
	}
	return out
}

// handleJoin is POST /api/games/{id}/join {"invite": SECRET}: take the
// empty seat of an open challenge, a challenge to you, or an invitation.
func (s *Server) handleJoin(w http.ResponseWriter, r *http.Request) {
	var req wire.JoinRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	id := r.PathValue("id")
	// A guest may join by link only; check before making one.
	pre, err := s.core.Load(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if httpx.Account(r) == nil && pre.Row.Kind != store.KindLink {
		s.writeError(w, r, httpx.Errf(wire.Unauthenticated, "account_needed", "sign in to take this challenge"))
		return
	}
	// Wrong invitations to a waiting link game (by anyone but its creator)
	// are limited by address and by account; a wrong one makes no guest.
	if me := httpx.Account(r); pre.Row.Kind == store.KindLink && pre.Row.State == store.StateWaiting && (me == nil || me.ID != pre.Row.Creator) {
		limits := []httpx.Limit{{L: s.invites, Key: "ip " + httpx.ClientAddr(r)}}
		if me != nil {
			limits = append(limits, httpx.Limit{L: s.invites, Key: "a " + strconv.FormatInt(me.ID, 10)})
		}
		var wait time.Duration
		for _, l := range limits {
			wait = max(wait, l.L.Wait(l.Key, s.now()))
		}
		if wait > 0 {
			s.writeError(w, r, httpx.TooMany(wait, "too many wrong invitations: wait %s", httpx.WaitWords(wait)))
			return
		}
		if len(req.Invite) > 100 || accounts.HashSecret(req.Invite) != pre.Row.InviteHash {
			for _, l := range limits {
				l.L.Take(l.Key, s.now())
			}
			s.writeError(w, r, httpx.Errf(wire.Forbidden, "bad_invite", "the invitation is not valid: use the whole link you were sent"))
			return
		}
	}
	a, err := s.accounts.AccountOrGuest(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ev, err := s.core.Act(r.Context(), id, func(st *game.State, now time.Time) (*game.Change, error) {
		row := &st.Row
		if row.State != store.StateWaiting {
			return nil, httpx.Errf(wire.Conflict, "not_waiting", "the game is %s: it is no longer waiting for an opponent", row.State)
		}
		if row.Creator == a.ID {
			return nil, httpx.Errf(wire.Conflict, "own_game", "this is your own challenge: wait for an opponent")
		}
		switch row.Kind {
		case store.KindNamed:
			if row.Opponent != a.ID {
				return nil, httpx.Errf(wire.Forbidden, "not_for_you", "this challenge is for another player")
			}
		case store.KindLink:
			if len(req.Invite) > 100 || accounts.HashSecret(req.Invite) != row.InviteHash {
				return nil, httpx.Errf(wire.Forbidden, "bad_invite", "the invitation is not valid: use the whole link you were sent")
			}
		case store.KindOpen:
			if a.Guest() {
				return nil, httpx.Errf(wire.Forbidden, "account_needed", "sign in to take an open challenge")
			}
			if err := botMayJoin(a, row); err != nil {
				return nil, err
			}
		default:
			return nil, httpx.Errf(wire.Conflict, "not_joinable", "this game takes no opponent")
		}
		if game.ByDays(row.Clock) && a.Guest() {
			return nil, httpx.Errf(wire.Forbidden, "account_needed", "correspondence games need an account")
		}
		return s.seatAndStart(r.Context(), st, a, now)
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	game.WriteEvent(w, ev)
}

// handleDecline is POST /api/games/{id}/decline: the named opponent
// refuses a challenge, or the creator withdraws one.
func (s *Server) handleDecline(w http.ResponseWriter, r *http.Request) {
	a, err := httpx.RequireAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	why, err := declineReason(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ev, err := s.core.Act(r.Context(), r.PathValue("id"), func(st *game.State, now time.Time) (*game.Change, error) {
		row := &st.Row
		if row.State != store.StateWaiting {
			return nil, httpx.Errf(wire.Conflict, "not_waiting", "the game is %s: there is no challenge to decline", row.State)
		}
		if row.Creator != a.ID && !(row.Kind == store.KindNamed && row.Opponent == a.ID) {
			return nil, httpx.Errf(wire.Forbidden, "not_yours", "only the challenged player or the challenger can call it off")
		}
		row.State, row.Reason, row.Ended = store.StateExpired, why, now
		return &game.Change{}, nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	game.WriteEvent(w, ev)
}

// seatAndStart seats a in the game's empty seat and starts it: the join
// of a waiting game and the acceptance of a rematch. The seats' ratings
// are taken then, and by correspondence the creator, when it is their
// move, is told by mail that the game began.
func (s *Server) seatAndStart(ctx context.Context, st *game.State, a *store.Account, now time.Time) (*game.Change, error) {
	row := &st.Row
	if row.Black.Empty() {
		row.Black = store.Seat{AccountID: a.ID}
	} else {
		row.White = store.Seat{AccountID: a.ID}
	}
	if err := s.ratings.Join(ctx, row, a); err != nil {
		return nil, err
	}
	row.State, row.Expires = store.StateActive, time.Time{}
	st.StartTurn(now)
	s.vacation.PauseIfAway(ctx, st, now)
	return &game.Change{After: func() {
		if st.Clock.Kind == game.ClockDays && st.ToMoveAccount() != a.ID {
			s.mailYourTurn(st, st.ToMoveAccount())
		}
	}}, nil
}
