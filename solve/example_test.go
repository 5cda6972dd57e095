package solve_test

import (
	"context"
	"fmt"

	"alak/rules"
	"alak/solve"
)

// The alak preset on 7 points from the empty line: Black wins by one
// stone, opening on 2, 4 or 6 (docs/results.md, the alak table's row 7);
// the opening on 1 loses by one.
func ExampleSolve() {
	r := rules.MustPreset("alak")
	r.SetSize(7, 1)
	g, _ := rules.NewGame(r)
	res, err := solve.Solve(context.Background(), g, solve.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Value, res.Outcome, res.Best, res.Moves[rules.Place(0)])
	// Output:
	// 1 black [2 4 6] -1
}

// The same line by the dense solver, which solves every state of it; its
// table then answers any position, here the one after Black's opening on
// 1 (-1, as Solve finds in ExampleSolve).
func ExampleDenseSolve() {
	r := rules.MustPreset("alak")
	r.SetSize(7, 1)
	g, _ := rules.NewGame(r)
	res, tab, err := solve.DenseSolve(context.Background(), g, solve.DenseOptions{Margins: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Value, res.Best)
	if err := g.Play(rules.Place(0)); err != nil {
		fmt.Println(err)
		return
	}
	v, ok := tab.Lookup(g.Position())
	fmt.Println(v, ok)
	// Output:
	// 1 [2 4 6]
	// -1 true
}

// AtLeast answers one question about the value: can Black force a win by
// at least one stone on 7 points (yes), by two (no)?
func ExampleAtLeast() {
	r := rules.MustPreset("alak")
	r.SetSize(7, 1)
	g, _ := rules.NewGame(r)
	for _, v := range []float64{1, 2} {
		b, err := solve.AtLeast(context.Background(), g, v, solve.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(v, b.Holds)
	}
	// Output:
	// 1 true
	// 2 false
}

// Tables picks the method that answers. On 7 points of the alak preset,
// with Build covering the line, the first solve makes the line's dense
// table (kept in memory: no Dir), which answers the next position at
// once, here after Black's opening on 1 (-1, as ExampleSolve finds); a
// search asked for gives the same value. On tromp-taylor (positional
// superko), which the dense solver does not take, the search answers:
// 1×4 is Black's by the whole board (docs/results-tromp-taylor.md, the tromp-taylor
// table).
func ExampleTables() {
	ctx := context.Background()
	ts := &solve.Tables{Build: 7}
	r := rules.MustPreset("alak")
	r.SetSize(7, 1)
	g, _ := rules.NewGame(r)
	res, err := ts.Solve(ctx, g, solve.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Method, res.Value, res.Best)
	if err := g.Play(rules.Place(0)); err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range []solve.Method{solve.MethodAuto, solve.MethodSearch} {
		res, err := ts.Solve(ctx, g, solve.Options{Method: m})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(res.Method, res.Value)
	}
	tt := rules.MustPreset("tromp-taylor")
	tt.SetSize(4, 1)
	g, _ = rules.NewGame(tt)
	res, err = ts.Solve(ctx, g, solve.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Method, res.Value)
	// Output:
	// dense 1 [2 4 6]
	// table -1
	// search -1
	// search 4
}
