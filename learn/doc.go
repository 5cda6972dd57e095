// Package learn holds the lessons for newcomers as data: short
// interactive lessons, each a small board with one goal the kernel checks
// (place a stone, capture, capture against the end, the no-return rule,
// filling your own last liberty under Alak and not under Traditional
// Alak, the draw by repetition, the end and the count, the sliding game's
// moves and captures, the code-golf rule, Alter Igo's removal of the
// mover's own strings). Each rule a lesson teaches is traced to its
// section of docs/rules.md (Lesson.Refs).
//
// Lessons (lessons.go) returns them; Play (learn.go) plays a player's
// tries on one, the computer answering by its script or, where a lesson
// says so, by the solver, and says whether the goal is met. The package
// is pure: no I/O; the play server and its page are built on it.
//
// The lessons are a package of their own, not part of package puzzle: a
// puzzle is found and proved by the solver, a lesson is written by hand
// and checked by the kernel (its goal is a rule seen at work, not a best
// move), and the two are served and stored apart.
//
//	l, _ := learn.ByID("capture")
//	pr, err := learn.Play(ctx, &l, []string{"4"}, nil)
//	// pr.Success: the white stone was captured
package learn
