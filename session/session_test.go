package session

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"alak/notation"
	"alak/rules"
	"alak/solve"
)

// alak6 is seed 002's Alak-6 game (Baljeu, 2001), 1-based points; it ends
// 3-0 for Black with White unable to place.
var alak6 = []string{"1", "4", "5", "6", "2", "3", "5", "1", "2", "6", "4", "3", "1", "5", "4"}

func newGame(t *testing.T, setup Setup) *rules.Game {
	t.Helper()
	g, err := setup.Game()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func parse(t *testing.T, s string) rules.Rules {
	t.Helper()
	r, err := rules.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// scripted is a computer player that plays a fixed list of moves, or, when
// block is set, waits for its context to end.
type scripted struct {
	moves  []rules.Move
	block  bool
	closed bool
}

func (p *scripted) Name() string { return "scripted" }
func (p *scripted) Close() error { p.closed = true; return nil }
func (p *scripted) Move(ctx context.Context, g *rules.Game) (rules.Move, error) {
	if p.block {
		<-ctx.Done()
		return rules.NoMove, ctx.Err()
	}
	if len(p.moves) == 0 {
		return rules.NoMove, errors.New("out of moves")
	}
	m := p.moves[0]
	p.moves = p.moves[1:]
	return m, nil
}

func TestPlayTurnsAndReasons(t *testing.T) {
	s := New(newGame(t, Setup{Rules: parse(t, "alak size=6")}), Seat{Name: "Ada"}, Seat{Name: "Bo"}, Options{})
	if err := s.Play(rules.White, rules.Place(0)); !errors.Is(err, ErrNotYourTurn) {
		t.Fatalf("o moving first: %v, want ErrNotYourTurn", err)
	}
	if err := s.Play(rules.Black, rules.Place(0)); err != nil {
		t.Fatal(err)
	}
	err := s.Play(rules.White, rules.Place(0))
	var me *rules.MoveError
	if !errors.As(err, &me) || me.Move != rules.Place(0) || !errors.Is(err, rules.ErrOccupied) || !errors.Is(err, rules.ErrIllegal) {
		t.Fatalf("o on the occupied point 1: %v, want a *rules.MoveError for point 1 wrapping ErrOccupied", err)
	}
	if s.Ply() != 1 || s.ToMove() != rules.White {
		t.Errorf("after a refused move: ply %d, %v to move; want 1, white", s.Ply(), s.ToMove())
	}
	if err := s.Play(rules.None, rules.Place(2)); !errors.Is(err, ErrNoSeat) {
		t.Errorf("a move for nobody: %v", err)
	}
}

func TestAlak6SnapshotAndRecord(t *testing.T) {
	// Seed 002: the game ends 3-0, Black wins; its last line is "xx/X//".
	s := New(newGame(t, Setup{Rules: parse(t, "alak size=6"), SizeGiven: true, Moves: alak6}), Seat{Name: "Alan Baljeu"}, Seat{Name: "White"}, Options{})
	sn := s.Snapshot()
	data, err := json.Marshal(sn)
	if err != nil {
		t.Fatal(err)
	}
	// The fields alak replay --json has always printed, first and in order.
	want := `{"rules":"alak","size":6,"board":"xx-x--","to_move":"o","forbidden":[],"legal":[],"over":true,"result":"3-0","winner":"x","reason":"no legal move",`
	if !strings.HasPrefix(string(data), want) {
		t.Errorf("snapshot\n%s\nwant it to start\n%s", data, want)
	}
	if sn.Diagram != "xx/X//" || sn.Ply != 15 || sn.LastMove != 4 || len(sn.Captured) != 3 {
		t.Errorf("diagram %q ply %d last %v captured %v; want xx/X//, 15, 4, three points", sn.Diagram, sn.Ply, sn.LastMove, sn.Captured)
	}
	if *sn.ResultWords != "Black wins 3-0 on the count (White had no legal move, which ends the game)" {
		t.Errorf("result words %q", *sn.ResultWords)
	}
	rec := s.Record()
	if rec.Black != "Alan Baljeu" || rec.Result != "B+3" || len(rec.Moves) != 15 {
		t.Errorf("record %+v", rec)
	}
}

func TestRepetitionDrawResult(t *testing.T) {
	// A draw by repetition once said "result":"3-2". Two
	// slides back and forth on golf's start repeat the start position a
	// third time after eight plies: a draw, whatever the count.
	moves := []string{"4-5", "8-7", "5-4", "7-8", "4-5", "8-7", "5-4", "7-8"}
	s := New(newGame(t, Setup{Rules: parse(t, "golf"), Moves: moves}), Seat{}, Seat{}, Options{})
	sn := s.Snapshot()
	if !sn.Over || *sn.Result != "draw by repetition" || *sn.Winner != "draw" || *sn.Reason != "repetition" {
		t.Errorf("result %v winner %v reason %v, want a draw by repetition", deref(sn.Result), deref(sn.Winner), deref(sn.Reason))
	}
}

// flagName matches a command-line flag such as --memory in a message.
var flagName = regexp.MustCompile(`(^|[\s(])--[a-z]`)

func deref(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func TestReplyAndMoveTime(t *testing.T) {
	bot := &scripted{moves: []rules.Move{rules.Place(3)}}
	s := New(newGame(t, Setup{Rules: parse(t, "alak size=6")}), Seat{}, Seat{Player: bot}, Options{})
	if _, err := s.Reply(context.Background()); !errors.Is(err, ErrNotComputer) {
		t.Fatalf("reply for a human: %v", err)
	}
	if err := s.Play(rules.Black, rules.Place(0)); err != nil {
		t.Fatal(err)
	}
	m, err := s.Reply(context.Background())
	if err != nil || m != rules.Place(3) || s.Ply() != 2 {
		t.Fatalf("reply %v, %v, ply %d", m, err, s.Ply())
	}
	// A computer still thinking when its time is up is stopped, and the
	// game is unchanged.
	slow := &scripted{block: true}
	s = New(newGame(t, Setup{Rules: parse(t, "alak size=6")}), Seat{Player: slow}, Seat{}, Options{MoveTime: 20 * time.Millisecond})
	if _, err := s.Reply(context.Background()); !errors.Is(err, ErrMoveTime) || s.Ply() != 0 {
		t.Errorf("slow computer: %v, ply %d; want ErrMoveTime and no move", err, s.Ply())
	}
	// Close stops it too, and closes the players.
	s = New(newGame(t, Setup{Rules: parse(t, "alak size=6")}), Seat{Player: slow}, Seat{}, Options{})
	done := make(chan error)
	go func() { _, err := s.Reply(context.Background()); done <- err }()
	time.Sleep(10 * time.Millisecond)
	s.Close()
	if err := <-done; err == nil || errors.Is(err, ErrMoveTime) {
		t.Errorf("reply after Close: %v, want the cancellation", err)
	}
	if !slow.closed {
		t.Error("Close did not close the computer player")
	}
}

func TestComputerResigns(t *testing.T) {
	bot := &scripted{moves: []rules.Move{rules.Resign}}
	s := New(newGame(t, Setup{Rules: parse(t, "alak size=6")}), Seat{Player: bot}, Seat{}, Options{})
	if _, err := s.Reply(context.Background()); err != nil {
		t.Fatal(err)
	}
	if o := s.Outcome(); o.Reason != rules.Resigned || o.Winner != rules.White {
		t.Errorf("outcome %v, want o wins by resignation", o)
	}
}

func TestUndo(t *testing.T) {
	bot := &scripted{moves: []rules.Move{rules.Place(3), rules.Place(4)}}
	s := New(newGame(t, Setup{Rules: parse(t, "alak size=6")}), Seat{}, Seat{Player: bot}, Options{})
	if _, err := s.Undo(rules.Black); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("undo at the start: %v", err)
	}
	for _, p := range []int{0, 1} {
		if err := s.Play(rules.Black, rules.Place(p)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Reply(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	c, ok := s.LastHumanMover()
	if !ok || c != rules.Black {
		t.Fatalf("last human mover %v %v", c, ok)
	}
	// x's last move and o's reply go: x is to move after x's first move and
	// o's reply.
	n, err := s.Undo(c)
	if err != nil || n != 2 || s.Ply() != 2 || s.ToMove() != rules.Black {
		t.Errorf("undo: %d, %v, ply %d, %v to move; want 2 moves, ply 2, black", n, err, s.Ply(), s.ToMove())
	}
}

func TestEnds(t *testing.T) {
	start := func() *Session {
		return New(newGame(t, Setup{Rules: parse(t, "alak size=6")}), Seat{Name: "a"}, Seat{Name: "b"}, Options{})
	}
	s := start()
	if err := s.Resign(rules.White); err != nil { // not o's turn: resigning needs none
		t.Fatal(err)
	}
	if o := s.Outcome(); o.Reason != rules.Resigned || o.Winner != rules.Black || o.Margin != 1 {
		t.Errorf("resign: %+v", o)
	}
	if err := s.Play(rules.Black, rules.Place(0)); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("a move after the end: %v", err)
	}
	if s.Record().Result != "B+R" {
		t.Errorf("record result %q", s.Record().Result)
	}

	s = start()
	s.Play(rules.Black, rules.Place(0))
	if err := s.Timeout(rules.White); err != nil || s.Outcome().String() != "x wins on time" || s.Record().Result != "B+T" {
		t.Errorf("timeout: %v, %v, %q", err, s.Outcome(), s.Record().Result)
	}

	s = start()
	s.Play(rules.Black, rules.Place(0))
	if err := s.Abort(rules.White); err != nil || s.Record().Result != "Void" || *s.Snapshot().Winner != "none" {
		t.Errorf("abort after one move: %v, %q", err, s.Record().Result)
	}
	s = start()
	s.Play(rules.Black, rules.Place(0))
	s.Play(rules.White, rules.Place(3))
	if err := s.Abort(rules.Black); !errors.Is(err, ErrTooLate) {
		t.Errorf("abort after two moves: %v", err)
	}
}

func TestOffers(t *testing.T) {
	s := New(newGame(t, Setup{Rules: parse(t, "alak size=6")}), Seat{Name: "a"}, Seat{Name: "b"}, Options{})
	if err := s.AnswerDraw(rules.White, true); !errors.Is(err, ErrNoOffer) {
		t.Errorf("accepting no offer: %v", err)
	}
	if ok, err := s.OfferDraw(rules.Black); ok || err != nil {
		t.Fatalf("offer: %v %v", ok, err)
	}
	if *s.Snapshot().DrawOffer != "x" {
		t.Errorf("snapshot draw offer %v", s.Snapshot().DrawOffer)
	}
	if _, err := s.OfferDraw(rules.Black); !errors.Is(err, ErrOfferPending) {
		t.Errorf("a second offer: %v", err)
	}
	s.Play(rules.Black, rules.Place(0)) // the offer stands through the offerer's own move
	if s.DrawOffer() != rules.Black {
		t.Errorf("offer gone after the offerer's move")
	}
	s.Play(rules.White, rules.Place(3)) // the opponent moved on: declined
	if s.DrawOffer() != rules.None {
		t.Errorf("offer still there after the opponent moved")
	}
	s.OfferDraw(rules.Black)
	if ok, err := s.OfferDraw(rules.White); !ok || err != nil || s.Outcome().Reason != rules.Agreement {
		t.Errorf("crossed offers: %v %v %v, want a draw by agreement", ok, err, s.Outcome())
	}
	if s.Record().Result != "0" {
		t.Errorf("record result %q", s.Record().Result)
	}

	// Takebacks between people wait for the answer.
	s = New(newGame(t, Setup{Rules: parse(t, "alak size=6")}), Seat{Name: "a"}, Seat{Name: "b"}, Options{})
	if _, err := s.RequestTakeback(rules.Black); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("takeback before any move: %v", err)
	}
	s.Play(rules.Black, rules.Place(0))
	if done, err := s.RequestTakeback(rules.Black); done || err != nil {
		t.Fatalf("request: %v %v", done, err)
	}
	if err := s.AnswerTakeback(rules.Black, true); !errors.Is(err, ErrNoOffer) {
		t.Errorf("answering one's own request: %v", err)
	}
	if err := s.AnswerTakeback(rules.White, true); err != nil || s.Ply() != 0 {
		t.Errorf("accepted takeback: %v, ply %d", err, s.Ply())
	}

	// A computer plays on at a draw offer and grants a takeback at once.
	bot := &scripted{moves: []rules.Move{rules.Place(3)}}
	s = New(newGame(t, Setup{Rules: parse(t, "alak size=6")}), Seat{}, Seat{Player: bot}, Options{})
	if ok, _ := s.OfferDraw(rules.Black); ok || s.DrawOffer() != rules.None {
		t.Errorf("a computer accepted a draw or the offer waits")
	}
	s.Play(rules.Black, rules.Place(0))
	s.Reply(context.Background())
	if done, err := s.RequestTakeback(rules.Black); !done || err != nil || s.Ply() != 0 {
		t.Errorf("takeback against the computer: %v %v ply %d", done, err, s.Ply())
	}
}

func TestFromRecord(t *testing.T) {
	// Every way the players end a game survives a record and back.
	// A draw comes back as the record's result: SGF's "0" does not say
	// that the players agreed.
	for _, end := range []struct {
		name   string
		act    func(s *Session) error
		result string
		back   rules.Reason // the reason read back, when not the one played
	}{
		{"resign", func(s *Session) error { return s.Resign(rules.Black) }, "W+R", rules.NotOver},
		{"time", func(s *Session) error { return s.Timeout(rules.White) }, "B+T", rules.NotOver},
		{"agreement", func(s *Session) error {
			s.OfferDraw(rules.Black)
			_, err := s.OfferDraw(rules.White)
			return err
		}, "0", rules.Recorded},
		{"abort", func(s *Session) error { return s.Abort(rules.Black) }, "Void", rules.NotOver},
	} {
		t.Run(end.name, func(t *testing.T) {
			s := New(newGame(t, Setup{Rules: parse(t, "alak size=6"), Moves: []string{"1"}}), Seat{Name: "a"}, Seat{Name: "b"}, Options{})
			if err := end.act(s); err != nil {
				t.Fatal(err)
			}
			rec := s.Record()
			if rec.Result != end.result {
				t.Fatalf("result %q, want %q", rec.Result, end.result)
			}
			var buf strings.Builder
			if err := notation.WriteSGF(&buf, rec); err != nil {
				t.Fatal(err)
			}
			back, err := notation.ReadSGF([]byte(buf.String()))
			if err != nil {
				t.Fatal(err)
			}
			s2, err := FromRecord(back, Seat{}, Seat{}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := s.Outcome()
			if end.back != rules.NotOver {
				want.Reason = end.back
			}
			if s2.Outcome() != want || s2.Ply() != 1 {
				t.Errorf("read back: %+v at ply %d, want %+v", s2.Outcome(), s2.Ply(), want)
			}
		})
	}
}

func TestSetupErrors(t *testing.T) {
	cases := []struct {
		name  string
		setup Setup
		want  string
	}{
		{"diagram longer than the size", Setup{Rules: parse(t, "alak size=6"), SizeGiven: true, Diagram: "x--oX--"}, "is 7 but the size is 6"},
		{"slash without forbidden points", Setup{Rules: parse(t, "tromp-taylor size=6"), Diagram: "x--o/O"}, "no point is forbidden"},
		{"slash on a slide", Setup{Rules: parse(t, "dewdney size=6"), Diagram: "xx/oOo"}, "no point is forbidden"},
		{"prisoners under stone scoring", Setup{Rules: parse(t, "alak size=6"), Prisoners: "2-1"}, "prisoners count only under"},
		{"no capital, no player", Setup{Rules: parse(t, "alak size=6"), Diagram: "x--o--"}, "say which player is to move"},
		{"player without diagram", Setup{Rules: parse(t, "alak size=6"), ToMove: "o"}, "goes with a start diagram"},
		{"bad prisoners", Setup{Rules: parse(t, "traditional size=6"), Prisoners: "two"}, "Black's prisoners then White's"},
		{"illegal move", Setup{Rules: parse(t, "alak size=6"), Moves: []string{"1 1"}}, `move 2 "1" (o to play): point 1: the point is occupied`},
		{"not a move", Setup{Rules: parse(t, "alak size=6"), Moves: []string{"9"}}, `move 1 "9"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.setup.Game()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want it to say %q", err, c.want)
			}
			if err != nil && flagName.MatchString(err.Error()) {
				t.Errorf("error %q names a command-line flag", err)
			}
		})
	}
	// The defaults: the capital stone's opponent moves; a diagram sets the
	// size when none was given; prisoners count where the rules count them.
	g, err := Setup{Rules: parse(t, "traditional"), Diagram: "x--oX-", Prisoners: "2-1"}.Game()
	if err != nil {
		t.Fatal(err)
	}
	if pos := g.Position(); pos.ToMove() != rules.White || pos.Points() != 6 || pos.Prisoners(rules.Black) != 2 {
		t.Errorf("start %v: %v to move, %d points, %d prisoners for x", pos, pos.ToMove(), pos.Points(), pos.Prisoners(rules.Black))
	}
	// Sliding moves may be written "1 4" as one argument.
	g, err = Setup{Rules: parse(t, "golf"), Moves: []string{"4 5", "8-7"}}.Game()
	if err != nil || g.Len() != 2 {
		t.Errorf("golf moves: %v, %d moves", err, g.Len())
	}
}

func TestHint(t *testing.T) {
	// Alak on 7 points: Black wins by 1 with 2, 4 or 6 (docs/results.md,
	// the published table this solver produced and outside checks agree on).
	s := New(newGame(t, Setup{Rules: parse(t, "alak size=7")}), Seat{}, Seat{}, Options{HintTime: time.Minute})
	h, err := s.Hint(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if h.Value != 1 || len(h.Best) != 3 || h.Words(s.Rules()) != "Black wins by 1" {
		t.Errorf("hint %+v (%s)", h, h.Words(s.Rules()))
	}
	// The words never name a command's flags.
	s = New(newGame(t, Setup{Rules: parse(t, "alterigo size=9x9")}), Seat{}, Seat{}, Options{})
	if _, err := s.Hint(context.Background()); !errors.Is(err, ErrNoHint) || flagName.MatchString(err.Error()) {
		t.Errorf("hint on 9x9: %v", err)
	}
}

// TestComputerDrawAnswer: a computer seat answers a draw offer at once.
// With the session's table (the dense table of alak on 8 points, as alak
// solve --dense writes it) it accepts in /O------ (Black to move), which
// an exact solve with no budget finds drawn, and declines in O-x-----,
// which it finds won; without a table it declines both. AgreeDraw ends a
// game drawn by agreement whoever sits in the seats.
func TestComputerDrawAnswer(t *testing.T) {
	r := parse(t, "alak size=8")
	start, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	_, dense, err := solve.DenseSolve(context.Background(), start, solve.DenseOptions{Margins: true, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := dense.Save(dir); err != nil {
		t.Fatal(err)
	}
	tab, err := solve.LoadTable(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		diagram string
		drawn   bool
	}{{"/O------", true}, {"O-x-----", false}} {
		res, err := solve.Solve(context.Background(), newGame(t, Setup{Rules: r, Diagram: c.diagram, ToMove: "x"}), solve.Options{})
		if err != nil || (res.Value == 0) != c.drawn {
			t.Fatalf("%s: the exact value is %v (%v); the case says drawn %v", c.diagram, res.Value, err, c.drawn)
		}
		for _, withTable := range []bool{false, true} {
			s := New(newGame(t, Setup{Rules: r, Diagram: c.diagram, ToMove: "x"}), Seat{}, Seat{Player: &scripted{}}, Options{})
			if withTable {
				ts := &solve.Tables{}
				ts.Use(tab)
				s.SetHintTables(ts)
			}
			ok, err := s.OfferDraw(rules.Black)
			want := withTable && c.drawn
			if err != nil || ok != want || (s.Outcome().Reason == rules.Agreement) != want || s.DrawOffer() != rules.None {
				t.Errorf("%s, table %v: accepted %v (%v), outcome %v, offer waiting %v; want accepted %v", c.diagram, withTable, ok, err, s.Outcome(), s.DrawOffer(), want)
			}
		}
	}
	s := New(newGame(t, Setup{Rules: r}), Seat{}, Seat{Player: &scripted{}}, Options{})
	if err := s.AgreeDraw(); err != nil || s.Outcome().Reason != rules.Agreement || s.Record().Result != "0" {
		t.Errorf("AgreeDraw: %v, outcome %v, record result %q", err, s.Outcome(), s.Record().Result)
	}
	if err := s.AgreeDraw(); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("AgreeDraw on a finished game: %v, want ErrGameOver", err)
	}
}

// TestSnapshotLosing: under Alter Igo a stone played into an eye is
// removed at once and leaves the board as it was, so its player loses
// (docs/rules.md, A16, after Pajaro's answer): after Black's 2 on a line of
// five, point 1 is such an eye for White, and the snapshot lists it apart
// from the legal moves; under alak, which has no such rule, nothing is.
func TestSnapshotLosing(t *testing.T) {
	s := New(newGame(t, Setup{Rules: parse(t, "alterigo size=5"), SizeGiven: true, Moves: []string{"2"}}), Seat{}, Seat{}, Options{})
	sn := s.Snapshot()
	if len(sn.Losing) != 1 || sn.Losing[0] != 1 {
		t.Errorf("alterigo, x at 2, White to move: losing %v, want [1]", sn.Losing)
	}
	if len(sn.Legal) != 4 {
		t.Errorf("alterigo, x at 2: legal %v, want the four empty points (the losing one is legal)", sn.Legal)
	}
	s = New(newGame(t, Setup{Rules: parse(t, "alak size=5"), SizeGiven: true, Moves: []string{"2"}}), Seat{}, Seat{}, Options{})
	if sn := s.Snapshot(); sn.Losing != nil {
		t.Errorf("alak: losing %v, want none", sn.Losing)
	}
}
