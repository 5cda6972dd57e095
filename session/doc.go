// Package session is the one place where a game lives: the rules, the
// moves, the two seats (a human, or a computer player), the offers waiting
// for an answer, and the end when the players end it themselves. The
// terminal game (alak play), the GTP engine, the arena and the play server
// all drive their games through a Session, and show them through its
// Snapshot, so no game loop or set-up parser is written twice. A game's
// analysis by the solver is shown as PlyViews, by alak analyze --json and
// the server alike.
//
//	g, _ := session.Setup{Rules: rules.MustPreset("alak")}.Game()
//	bot, _ := player.New("mcts:time=200ms", 1)
//	s := session.New(g, session.Seat{Name: "Ada"}, session.Seat{Player: bot}, session.Options{})
//	defer s.Close()
//	err := s.Play(rules.Black, rules.Place(1))      // refused when it is not x's turn or illegal
//	m, err := s.Reply(ctx)                           // the computer's reply, within its time
//	json.NewEncoder(w).Encode(s.Snapshot())          // what alak replay --json prints
//
// A Session is not safe for concurrent use; see Session.
package session
