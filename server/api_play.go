package server

import (
	"net/http"
	"time"

	"alak/rules"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// player checks that a is a player of an active game and returns its colour.
func (st *gameState) player(a *store.Account) (rules.Color, error) {
	c, ok := st.seatOf(a)
	if !ok {
		return rules.None, httpx.Errf(wire.Forbidden, "not_your_game", "you are not a player of this game")
	}
	if st.row.State != store.StateActive {
		if st.row.State == store.StateWaiting {
			return c, httpx.Errf(wire.Conflict, "not_started", "the game has not started: it waits for an opponent")
		}
		return c, httpx.Errf(wire.Conflict, "game_over", "the game is over (%s)", st.row.Reason)
	}
	return c, nil
}

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
	ev, err := s.act(r.Context(), r.PathValue("id"), func(st *gameState, now time.Time) (*change, error) {
		c, err := st.player(a)
		if err != nil {
			return nil, err
		}
		if err := st.checkPly(*req.Ply); err != nil {
			return nil, err
		}
		if err := st.checkTurn(c); err != nil {
			return nil, err
		}
		// The text is judged last: who may move, and at which ply, first.
		cmd, err := apiCommands.parse(st.r, req.Move)
		if err != nil {
			return nil, err
		}
		if cmd.kind == commandResign {
			if err := st.sess.Resign(c); err != nil {
				return nil, err
			}
			return &change{}, nil
		}
		return s.playMove(st, c, cmd.move, a.ID, now)
	})
	s.metrics.observeMove(time.Since(start), err == nil)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeEvent(w, ev)
}

// checkTurn refuses a move or a command by c when it is not c's turn.
func (st *gameState) checkTurn(c rules.Color) error {
	if tm := st.sess.ToMove(); c != tm {
		return httpx.Errf(wire.NotYourTurn, "not_your_turn", "it is %s's turn", colorWord(tm))
	}
	return nil
}

// checkPly refuses a request made at another ply than the game's (409
// stale_ply): it was chosen on an older board, or sent twice.
func (st *gameState) checkPly(ply int) error {
	if now := st.sess.Ply(); ply != now {
		return httpx.Errf(wire.Conflict, "stale_ply", "the game has moved on (it is at ply %d, not %d): the request was made on an older board, or sent twice; look at the board again", now, ply)
	}
	return nil
}

// simpleAction is an action by a player that takes no argument but the
// optional answer.
func (s *Server) simpleAction(w http.ResponseWriter, r *http.Request, f func(st *gameState, c rules.Color, accept *bool, now time.Time) (*change, error)) {
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
	ev, err := s.act(r.Context(), r.PathValue("id"), func(st *gameState, now time.Time) (*change, error) {
		c, err := st.player(a)
		if err != nil {
			return nil, err
		}
		if req.Ply != nil {
			if err := st.checkPly(*req.Ply); err != nil {
				return nil, err
			}
		}
		return f(st, c, req.Accept, now)
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeEvent(w, ev)
}

func (s *Server) handleResign(w http.ResponseWriter, r *http.Request) {
	s.simpleAction(w, r, func(st *gameState, c rules.Color, _ *bool, now time.Time) (*change, error) {
		return &change{}, st.sess.Resign(c)
	})
}

func (s *Server) handleAbort(w http.ResponseWriter, r *http.Request) {
	s.simpleAction(w, r, func(st *gameState, c rules.Color, _ *bool, now time.Time) (*change, error) {
		if err := tournamentAbort(st); err != nil {
			return nil, err
		}
		return &change{}, st.sess.Abort(c)
	})
}

// handleDraw: no "accept", an offer (accepted at once when the opponent
// offered too); "accept": true or false answers the opponent's offer. The
// computer answers an offer at once: it accepts where the server's table
// for the rules shows the position drawn (session.OfferDraw), and
// otherwise declines, which is answered 409 draw_declined.
func (s *Server) handleDraw(w http.ResponseWriter, r *http.Request) {
	s.simpleAction(w, r, func(st *gameState, c rules.Color, accept *bool, now time.Time) (*change, error) {
		if accept != nil {
			return &change{}, st.sess.AnswerDraw(c, *accept)
		}
		computer := !st.sess.Seat(c.Opp()).Human()
		if computer && !st.sess.Over() && st.sess.DrawOffer() == rules.None {
			st.sess.SetHintTables(s.tables) // frozen: read only, shared
		}
		agreed, err := st.sess.OfferDraw(c)
		if err == nil && computer && !agreed {
			return nil, errDrawDeclined
		}
		return &change{}, err
	})
}

// handleTakeback: no "accept", a request to take back your last move (a
// computer grants it at once); "accept" answers the opponent's request.
func (s *Server) handleTakeback(w http.ResponseWriter, r *http.Request) {
	s.simpleAction(w, r, func(st *gameState, c rules.Color, accept *bool, now time.Time) (*change, error) {
		before := st.sess.Ply()
		var err error
		by := c
		if accept != nil {
			by = c.Opp()
			err = st.sess.AnswerTakeback(c, *accept)
		} else {
			_, err = st.sess.RequestTakeback(c)
		}
		if err != nil {
			return nil, err
		}
		undone := before - st.sess.Ply()
		if undone == 0 {
			return &change{}, nil
		}
		paused := st.paused()
		st.startTurn(now)
		if paused {
			st.pause(now)
		}
		acct := st.row.Black.AccountID
		if by == rules.White {
			acct = st.row.White.AccountID
		}
		return &change{entries: []store.Entry{st.entry("", undone, acct, now)}}, nil
	})
}
