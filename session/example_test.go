package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"alak/player"
	"alak/rules"
	"alak/session"
)

// A program drives a game through a session: a human seat moves with
// Play, a computer seat with Reply, and the snapshot says where the game
// stands, for a screen or the wire.
func Example() {
	// Seed 002's Alak-6 position before Black's 13th move, set up from its
	// diagram: x is to move, since the capital O was played last.
	g, err := session.Setup{Rules: rules.MustPreset("alak"), Diagram: "x--o/O"}.Game()
	if err != nil {
		panic(err)
	}
	bot, err := player.New("greedy", 1)
	if err != nil {
		panic(err)
	}
	s := session.New(g, session.Seat{Name: "Alan"}, session.Seat{Player: bot}, session.Options{})
	defer s.Close()

	// Point 5 was just captured: Baljeu's rule forbids x to take it back.
	err = s.Play(rules.Black, rules.Place(4))
	var me *rules.MoveError
	if errors.As(err, &me) {
		fmt.Printf("refused: point %d: %s\n", me.Move.Point()+1, me.Why())
	}
	if err := s.Play(rules.White, rules.Place(1)); errors.Is(err, session.ErrNotYourTurn) {
		fmt.Println("refused:", err)
	}
	if err := s.Play(rules.Black, rules.Place(2)); err != nil {
		panic(err)
	}
	if _, err := s.Reply(context.Background()); err != nil {
		panic(err)
	}
	// Greedy's reply on 2 closes both x stones in, against the end of the
	// line and against o's 4: it takes them.
	sn := s.Snapshot()
	fmt.Println(sn.Ply, "moves; x to move:", sn.ToMove == "x")
	json.NewEncoder(os.Stdout).Encode(map[string]any{"over": sn.Over, "stones": sn.Stones})
	// Output:
	// refused: point 5: the point is forbidden: your stones were just captured there
	// refused: it is not your turn: x is to move
	// 2 moves; x to move: true
	// {"over":false,"stones":{"o":3,"x":0}}
}
