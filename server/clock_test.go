package server

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"alak/server/store"
)

// liveGame has ada (Black) challenge bo to a live game and bo join it;
// it returns the game's id.
func liveGame(h *harness, spec string) (id string, ada, bo *client) {
	ada = h.client().signUp("ada")
	bo = h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=9", "color": "x", "clock": spec, "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	return g.ID, ada, bo
}

// TestFirstMoveClock: a live clock starts with its player's first move
// (not at the join); until then the player has Config.FirstMove (30 s by
// default) for it, from the join for Black and from Black's first move for
// White.
func TestFirstMoveClock(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	id, ada, bo := liveGame(h, "live:1m+2s")
	joined := h.clock.Now()
	v := ada.game(id)
	if v.Clock.Running != "" || v.Clock.FirstMoveDeadline != joined.Add(30*time.Second).UnixMilli() || v.Clock.XMillis != 60000 {
		t.Errorf("clock at the join: %+v, want none running and the first move due 30 s after the join", v.Clock)
	}
	h.clock.Add(20 * time.Second)
	_, v, _ = ada.move(id, "5", 0)
	// Black's 20 s before the first move are nobody's: 60 s left, and no
	// increment for a move the clock did not time.
	if v.Clock.XMillis != 60000 || v.Clock.OMillis != 60000 || v.Clock.Running != "" ||
		v.Clock.FirstMoveDeadline != h.clock.Now().Add(30*time.Second).UnixMilli() {
		t.Errorf("clock after Black's first move at 20 s: %+v", v.Clock)
	}
	h.clock.Add(25 * time.Second)
	_, v, _ = bo.move(id, "4", 1)
	if v.Clock.XMillis != 60000 || v.Clock.OMillis != 60000 || v.Clock.Running != "x" || v.Clock.FirstMoveDeadline != 0 ||
		v.Clock.Deadline != h.clock.Now().Add(time.Minute).UnixMilli() {
		t.Errorf("clock after White's first move at 25 s: %+v", v.Clock)
	}
	// From here Fischer: Black's second move 10 s later costs 10 s and
	// earns 2.
	h.clock.Add(10 * time.Second)
	_, v, _ = ada.move(id, "7", 2)
	if v.Clock.XMillis != 52000 || v.Clock.Running != "o" {
		t.Errorf("clock after Black's second move at 10 s: %+v", v.Clock)
	}
}

// TestFirstMoveAbort: a player who does not make their first move in time
// has the game aborted (no result, no winner), not lost: found by the
// sweep for Black, by White's late move for White.
func TestFirstMoveAbort(t *testing.T) {
	t.Parallel()
	t.Run("black, by the sweep", func(t *testing.T) {
		h := newHarness(t, Config{})
		id, ada, _ := liveGame(h, "live:5m")
		h.clock.Add(29 * time.Second)
		h.srv.sweepOnce(false)
		if v := ada.game(id); v.State != store.StateActive {
			t.Fatalf("29 s after the join: %s", v.State)
		}
		h.clock.Add(time.Second)
		h.srv.sweepOnce(false)
		v := ada.game(id)
		if v.State != store.StateAborted || v.Winner == nil || *v.Winner != "none" || v.Clock.XMillis != 300000 {
			t.Errorf("30 s after the join without a move: %s %v %+v", v.State, v.Winner, v.Clock)
		}
	})
	t.Run("white, by a late move", func(t *testing.T) {
		h := newHarness(t, Config{FirstMove: 10 * time.Second})
		id, ada, bo := liveGame(h, "live:5m")
		ada.move(id, "5", 0)
		h.clock.Add(10 * time.Second)
		code, _, e := bo.move(id, "4", 1)
		if code != http.StatusConflict || e.Code != "game_over" || !strings.Contains(e.Error, "aborted") {
			t.Errorf("White's first move 10 s late: %d %+v", code, e)
		}
		v := ada.game(id)
		if v.State != store.StateAborted || v.Ply != 1 || v.Clock.OMillis != 300000 {
			t.Errorf("after White's first move came late: %s ply %d %+v", v.State, v.Ply, v.Clock)
		}
	})
}

// TestDowntimeGivenBack: the time no process served the games is
// nobody's: after a restart the player to move has the time
// they had at the stop; correspondence deadlines move too when the
// downtime exceeded an hour.
func TestDowntimeGivenBack(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	id, ada, bo := liveGame(h, "live:5m+3s")
	ada.move(id, "5", 0)
	bo.move(id, "4", 1) // Black's clock runs from here
	cor := ada.create(map[string]string{"rules": "alak size=9", "color": "x", "clock": "days:1", "opponent": "bo"})
	bo.do("POST", "/api/games/"+cor.ID+"/join", nil, nil)
	corDeadline := ada.game(cor.ID).Clock.Deadline
	h.clock.Add(10 * time.Second)

	// A 22 s stop: the live clock is moved on, the correspondence
	// deadline not.
	h.stop()
	h.clock.Add(22 * time.Second)
	h.start()
	if v := ada.game(cor.ID); v.Clock.Deadline != corDeadline {
		t.Errorf("correspondence deadline after 22 s down: %d, want %d as before", v.Clock.Deadline, corDeadline)
	}
	h.clock.Add(5 * time.Second)
	_, v, e := ada.move(id, "7", 2)
	// 5 min, less the 10 s before the stop and the 5 s after, plus 3 s.
	if want := int64(5*60000 - 15000 + 3000); v.Clock.XMillis != want {
		t.Errorf("Black's clock after 10 s, 22 s down and 5 s: %d ms, want %d (%+v)", v.Clock.XMillis, want, e)
	}

	// A two-hour stop: the correspondence deadline moves by it too, and
	// White, to move at the stop, still has all of their 5 min.
	h.stop()
	h.clock.Add(2 * time.Hour)
	h.start()
	if v := ada.game(cor.ID); v.Clock.Deadline != corDeadline+(2*time.Hour).Milliseconds() {
		t.Errorf("correspondence deadline after 2 h down: %d, want %d", v.Clock.Deadline, corDeadline+(2*time.Hour).Milliseconds())
	}
	h.srv.sweepOnce(false)
	if v := ada.game(id); v.State != store.StateActive || v.Clock.Running != "o" || v.Clock.Deadline != h.clock.Now().Add(5*time.Minute).UnixMilli() {
		t.Errorf("the live game after 2 h down: %s, %+v", v.State, v.Clock)
	}
}
