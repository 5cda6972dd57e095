package server

import (
	"net/http"
	"time"

	"alak/rules"
	"alak/server/internal/command"
	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/server/internal/tournaments"
	"alak/wire"
)

// handleMove plays a move: only the player to move, only at the ply the
// client saw (a stale or repeated request is refused with 409), only if the
// kernel finds it legal (422), and acknowledged once stored.
func (s *Server) handleMove(w http.ResponseWriter, r *http.Request) {
	a, err := httpx.RequireAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req wire.MoveRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Ply == nil {
		s.writeError(w, r, httpx.Errf(wire.BadRequest, "no_ply", `a move names the ply it follows: {"move": "3", "ply": N}, N the moves already played`))
		return
	}
	start := time.Now()
	ev, err := s.core.Act(r.Context(), r.PathValue("id"), func(st *game.State, now time.Time) (*game.Change, error) {
		c, err := st.Player(a)
		if err != nil {
			return nil, err
		}
		if err := st.CheckPly(*req.Ply); err != nil {
			return nil, err
		}
		if err := st.CheckTurn(c); err != nil {
			return nil, err
		}
		// The text is judged last: who may move, and at which ply, first.
		cmd, err := command.API.Parse(st.Rules, req.Move)
		if err != nil {
			return nil, err
		}
		if cmd.Kind == command.Resign {
			if err := st.Sess.Resign(c); err != nil {
				return nil, err
			}
			return &game.Change{}, nil
		}
		return s.core.PlayMove(st, c, cmd.Move, a.ID, now)
	})
	s.metrics.observeMove(time.Since(start), err == nil)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	game.WriteEvent(w, ev)
}

// simpleAction is an action by a player that takes no argument but the
// optional answer.
func (s *Server) simpleAction(w http.ResponseWriter, r *http.Request, f func(st *game.State, c rules.Color, accept *bool, now time.Time) (*game.Change, error)) {
	a, err := httpx.RequireAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req wire.ActionRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	ev, err := s.core.Act(r.Context(), r.PathValue("id"), func(st *game.State, now time.Time) (*game.Change, error) {
		c, err := st.Player(a)
		if err != nil {
			return nil, err
		}
		if req.Ply != nil {
			if err := st.CheckPly(*req.Ply); err != nil {
				return nil, err
			}
		}
		return f(st, c, req.Accept, now)
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	game.WriteEvent(w, ev)
}

func (s *Server) handleResign(w http.ResponseWriter, r *http.Request) {
	s.simpleAction(w, r, func(st *game.State, c rules.Color, _ *bool, now time.Time) (*game.Change, error) {
		return &game.Change{}, st.Sess.Resign(c)
	})
}

func (s *Server) handleAbort(w http.ResponseWriter, r *http.Request) {
	s.simpleAction(w, r, func(st *game.State, c rules.Color, _ *bool, now time.Time) (*game.Change, error) {
		if err := tournaments.RefuseAbort(st); err != nil {
			return nil, err
		}
		return &game.Change{}, st.Sess.Abort(c)
	})
}

// handleDraw: no "accept", an offer (accepted at once when the opponent
// offered too); "accept": true or false answers the opponent's offer. The
// computer answers an offer at once: it accepts where the server's table
// for the rules shows the position drawn (session.OfferDraw), and
// otherwise declines, which is answered 409 draw_declined.
func (s *Server) handleDraw(w http.ResponseWriter, r *http.Request) {
	s.simpleAction(w, r, func(st *game.State, c rules.Color, accept *bool, now time.Time) (*game.Change, error) {
		if accept != nil {
			return &game.Change{}, st.Sess.AnswerDraw(c, *accept)
		}
		computer := !st.Sess.Seat(c.Opp()).Human()
		if computer && !st.Sess.Over() && st.Sess.DrawOffer() == rules.None {
			st.Sess.SetHintTables(s.tables) // frozen: read only, shared
		}
		agreed, err := st.Sess.OfferDraw(c)
		if err == nil && computer && !agreed {
			return nil, errDrawDeclined
		}
		return &game.Change{}, err
	})
}

// handleTakeback: no "accept", a request to take back your last move (a
// computer grants it at once); "accept" answers the opponent's request.
func (s *Server) handleTakeback(w http.ResponseWriter, r *http.Request) {
	s.simpleAction(w, r, func(st *game.State, c rules.Color, accept *bool, now time.Time) (*game.Change, error) {
		return st.Takeback(c, accept, now)
	})
}
