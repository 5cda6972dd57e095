package solve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"alak/rules"
)

// Options tune a solve. The zero value is usable.
type Options struct {
	MaxNodes int64          // 0: no limit
	MemoryMB int            // transposition table budget; 0: 256
	Table    *Table         // optional: a loaded results table to answer from and to fill
	Progress func(Progress) // optional: called now and then during long solves
	// ValueOnly asks for the value, one best move and its principal
	// variation, not the value of every move (Result.Moves stays empty
	// and Best holds one move). Only the positional linear Go solver
	// (tromp-taylor on lines) saves work by it; the other methods find
	// every move's value anyway and return them all.
	ValueOnly bool
	// Method is the method Tables.Solve uses (MethodAuto when ""); Solve
	// itself is MethodSearch and ignores it.
	Method Method

	// exactHistory makes the solver key every value by the whole history
	// (slow, exact by definition); tests use it to check graph mode.
	exactHistory bool
	// ringSets, when positive, makes the superko solver's ring of S sets
	// (superko.go) as long as that many whole sets, and ringWritten, when
	// not nil, is told how many words were written to it: tests use them
	// to make the ring fill (and compact) many times and to see that it did.
	ringSets int
	// exactBoards makes the superko solver keep S sets over boards, not
	// mirror classes (a board and its mirror image numbered as a pair),
	// and up to skMaxDExact boards of D a slot (the certificate writer,
	// superko_cert.go).
	exactBoards bool
	ringWritten *uint64
	// noCompact makes the solve use retro.go where the compact solver
	// applies; tests set it to compare the two.
	noCompact bool
	// maxDepth, when positive, replaces maxSearchDepth; tests set it small
	// to reach the bound.
	maxDepth int32
}

// Progress reports how a long solve is going.
type Progress struct {
	Nodes    int64         // positions searched so far
	Rate     float64       // positions per second
	Elapsed  time.Duration // since the solve started
	Estimate time.Duration // time left, estimated from the root moves done; 0 when unknown
	Done     int           // root moves solved
	Total    int           // root moves in all
}

// Result is what a solve proved. Values are Black's margin: positive when
// Black wins by that many, 0 for a draw (a draw by repetition counts 0), ±1
// for a game won by rule.
type Result struct {
	Value   float64                // Black's margin under perfect play (draw = 0)
	Outcome rules.Color            // rules.Black, rules.White, or rules.None for a draw
	Best    []rules.Move           // every move that keeps Value
	PV      []rules.Move           // a principal variation from the position
	Moves   map[rules.Move]float64 // the value (Black's margin) after each legal move
	Nodes   int64                  // positions searched
	Elapsed time.Duration
	// Complete is false when the solve was cut off: then only the entries of
	// Moves are proved, and Value, Outcome and Best are those of the moves
	// solved so far (a bound for the player to move, not the value).
	Complete bool
	// Method is the method that answered, set by Tables.Solve ("" from
	// Solve, DenseSolve and the others called directly).
	Method Method
}

// Errors a solve can return besides the context's.
var (
	ErrUnsupported = errors.New("the solver does not handle this: it takes boards of at most 64 points and komi in half points")
	ErrNodeLimit   = errors.New("the node limit was reached")
	ErrMemory      = errors.New("the positions reachable from here do not fit the solver's memory limit (Options.MemoryMB)")
	ErrEndless     = errors.New("a position repeated under rules with neither a repetition rule nor superko: the game need not end")
	// ErrTooDeep: the search followed one line of play for more plies
	// than it may (maxSearchDepth). On a long line whose history has used
	// positions up, a line can pass through a great part of the line's
	// positions before it repeats one; followed to its end it would
	// overflow the goroutine's stack, a crash where this is an error.
	ErrTooDeep = errors.New("the search followed one line of play deeper than its bound of plies")
)

// Solve finds the value of the game's current position under perfect play by
// both sides, given the game's history (repetition counts and superko). When
// ctx is cancelled or the node limit is reached it returns the error
// (wrapped) together with what it proved so far.
func Solve(ctx context.Context, g *rules.Game, opt Options) (Result, error) {
	start := time.Now()
	res := Result{Moves: map[rules.Move]float64{}}
	r := g.Rules()
	if r.Points() > 64 {
		return res, fmt.Errorf("solve %s: %d points, more than 64: %w", r.SizeString(), r.Points(), ErrUnsupported)
	}
	if r.Safe != rules.SafeOff && r.Points() > maxSafePoints {
		return res, fmt.Errorf("solve %s safe=%v: safe points are solved on lines of at most %d points: %w", r.SizeString(), r.Safe, maxSafePoints, ErrUnsupported)
	}
	if r.Komi*2 != math.Trunc(r.Komi*2) {
		return res, fmt.Errorf("komi %v: the solver counts in half points, so it takes komi in multiples of 0.5: %w", r.Komi, ErrUnsupported)
	}
	if r.PassEnd != rules.PassEndScore {
		return res, fmt.Errorf("passend=draw: the solver's methods count a game that passes end before its repetition draw; alak prove, which plays every line on the kernel's Game, takes it: %w", ErrUnsupported)
	}
	if superkoApplies(r) && !opt.exactHistory {
		return solveSuperko(ctx, g, opt) // positional linear Go: superko.go
	}
	s := newSearcher(ctx, r, opt)
	s.start, s.lastProgress = start, start
	s.root = g.Position()
	if o := g.Outcome(); o.Over() {
		res.Value, res.Outcome, res.Complete = o.Margin, o.Winner, true
		res.Elapsed = time.Since(start)
		return res, nil
	}
	hist := make([]rules.Position, 0, g.Len()+2)
	for i := 0; i <= g.Len(); i++ {
		hist = append(hist, g.PositionAt(i))
	}
	pos := g.Position()
	moves := g.LegalMoves(nil)
	s.total = len(moves)
	sign := 1.0
	if pos.ToMove() == rules.White {
		sign = -1
	}
	bestV := math.Inf(-1)
	var err error
	type proved struct {
		child rules.Position
		v     int32
	}
	var done []proved // the moves whose values are proved, for the table if the solve is cut off
	for _, m := range moves {
		c, perr := pos.Play(m)
		if perr != nil {
			return res, fmt.Errorf("solve: the kernel refused its own legal move %v: %w", m, perr)
		}
		v := s.query(append(hist, c))
		if s.abort != nil {
			err = s.abort
			break
		}
		done = append(done, proved{c, v})
		mv := sign*-float64(v)/2 + 0 // the child's value is from the opponent's view; +0 avoids -0
		res.Moves[m] = mv
		s.done++
		if sign*mv > bestV {
			bestV = sign * mv
		}
	}
	res.setBest(moves, sign, bestV)
	if err == nil {
		res.Complete = true
		if len(res.Best) > 0 {
			res.PV = s.pv(hist, res.Best[0], sign*res.Value)
		}
		err = s.abort
		if err == nil && s.table != nil {
			s.fill(hist, half(sign*res.Value))
		}
	}
	res.Nodes, res.Elapsed = s.nodes, time.Since(start)
	if err != nil {
		res.Complete = false
		if s.table != nil {
			// What was proved before the cut stays: the value of each move
			// finished is the exact value of the position it leads to.
			for _, d := range done {
				s.fill(append(hist, d.child), d.v)
			}
		}
		return res, fmt.Errorf("solve cut off after %d positions: %w", s.nodes, err)
	}
	return res, nil
}

func winner(v float64) rules.Color {
	switch {
	case v > 0:
		return rules.Black
	case v < 0:
		return rules.White
	}
	return rules.None
}

func newSearcher(ctx context.Context, r rules.Rules, opt Options) *searcher {
	s := &searcher{ctx: ctx, r: r, n: r.Points(), rep: r.Repetition, maxNodes: opt.MaxNodes,
		progress: opt.Progress, table: opt.Table, memoryMB: opt.MemoryMB, noCompact: opt.noCompact, maxDepth: opt.maxDepth}
	if s.maxDepth <= 0 {
		s.maxDepth = maxSearchDepth
	}
	if s.memoryMB <= 0 {
		s.memoryMB = 256
	}
	if r.Ko == rules.KoPositional || r.Ko == rules.KoSituational {
		s.superko = r.Ko
	}
	s.prisoner = r.Scoring == rules.ScoreTerritory || r.Scoring == rules.ScoreAreaPrisoners
	s.safe = r.Safe != rules.SafeOff
	s.graph = r.Repetition > 0 && s.superko == rules.KoNone && !opt.exactHistory
	if s.table != nil && s.table.rules.String() != r.String() {
		s.table = nil
	}
	// Centre first: central points usually decide more.
	for d := 0; d < s.n; d++ {
		for _, p := range []int{(s.n-1)/2 - d, s.n/2 + d} {
			if p >= 0 && p < s.n && !contains(s.order, p) {
				s.order = append(s.order, p)
			}
		}
	}
	want := 1 << 22
	if s.n <= 12 {
		want = 1 << 18
	}
	s.tt = newTable(s.memoryMB, want<<max(0, s.n-10))
	return s
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// query returns the exact value of the last position of hist, for its
// player to move, given the history before it. The caller has checked that
// the move into it was legal.
func (s *searcher) query(hist []rules.Position) int32 {
	pos := hist[len(hist)-1]
	if pos.Over() {
		return terminal(pos)
	}
	k := s.keys(pos)
	count := 0
	for _, p := range hist {
		if s.keys(p).rep == k.rep {
			count++
		}
	}
	if s.rep > 0 && count >= s.rep {
		return 0
	}
	if s.graph {
		return s.queryGraph(hist, pos, &k)
	}
	s.counts, s.boards, s.hctx, s.hctxM = map[uint64]int{}, map[uint64]int{}, 0, 0
	for i := range hist {
		hk := s.keys(hist[i])
		s.push(&hk)
	}
	if s.rep == 0 && s.superko == rules.KoNone && count > 1 {
		s.abort = ErrEndless
		return 0
	}
	s.withContext(&k)
	v, _ := s.search(pos, &k, 0, -inf, inf)
	return v
}

// queryGraph solves a position under a repetition-draw rule. Positions the
// history has already used up (they would be drawn at their next
// occurrence) make values history-dependent: such a query gets a table of
// its own and leaves the shared ones alone.
func (s *searcher) queryGraph(hist []rules.Position, pos rules.Position, k *nodeKeys) int32 {
	counts := map[uint64]int{}
	for _, p := range hist[:len(hist)-1] {
		counts[s.keys(p).rep]++
	}
	s.exhausted = map[uint64]bool{}
	for h, c := range counts {
		if h != k.rep && c+1 >= s.rep { // one more occurrence would be the draw
			s.exhausted[h] = true
		}
	}
	s.path = map[uint64]int32{k.rep: 0}
	if len(s.exhausted) == 0 && s.table != nil {
		if v, ok := s.table.get(k.tt); ok {
			return int32(v)
		}
	}
	if len(s.exhausted) == 0 && s.retroEligible() {
		if s.retro == nil {
			g, err := s.solveGraph(s.root)
			switch {
			case err != nil:
				s.abort = err
				return 0
			default:
				s.retro = g
			}
		}
		if s.retro != nil {
			if v, ok := s.retro.valueOf(pos); ok {
				return v
			}
		}
	}
	if len(s.exhausted) == 0 {
		v, _ := s.search(pos, k, 0, -inf, inf)
		return v
	}
	if s.retroEligible() {
		if v, ok := s.historyValue(hist, pos); ok || s.abort != nil {
			return v
		}
	}
	tt, table := s.tt, s.table
	s.tt, s.table = newTable(s.memoryMB/4+1, 1<<18), nil
	v, _ := s.search(pos, k, 0, -inf, inf)
	s.tt, s.table = tt, table
	return v
}

// pv follows best moves from the end of hist, starting with first, whose
// value for the mover is v (half points as a float margin), until the game
// ends, a position repeats, or the line is long.
func (s *searcher) pv(hist []rules.Position, first rules.Move, v float64) []rules.Move {
	line := []rules.Move{first}
	pos, _ := hist[len(hist)-1].Play(first)
	hist = append(append([]rules.Position(nil), hist...), pos)
	want := -half(v) // the value for the player now to move
	seen := map[uint64]bool{}
	for _, p := range hist[:len(hist)-1] {
		seen[s.keys(p).rep] = true
	}
	for len(line) < 4*s.n+8 && s.abort == nil {
		if pos.Over() || seen[s.keys(pos).rep] {
			break
		}
		seen[s.keys(pos).rep] = true
		var next rules.Move = rules.NoMove
		var nextPos rules.Position
		for _, m := range s.legal(hist) {
			c, _ := pos.Play(m)
			if -s.query(append(hist, c)) == want {
				next, nextPos = m, c
				break
			}
		}
		if next == rules.NoMove {
			break
		}
		line = append(line, next)
		pos, want = nextPos, -want
		hist = append(hist, pos)
	}
	return line
}

// legal lists the legal moves at the end of hist, superko applied, with the
// table's best move first.
func (s *searcher) legal(hist []rules.Position) []rules.Move {
	pos := hist[len(hist)-1]
	k := s.keys(pos)
	first := rules.NoMove
	if e := s.tt.probe(k.tt); e != nil && s.graph {
		if first = decodeMove(e.move); first != rules.NoMove && k.mirrored {
			first = s.mirrorMove(first)
		}
	}
	cand := s.moves(pos, first, nil)
	boards := map[uint64]bool{}
	if s.superko != rules.KoNone {
		for _, p := range hist {
			boards[s.keys(p).sk] = true
		}
	}
	out := cand[:0]
	for _, m := range cand {
		c, err := pos.Play(m)
		if err == nil && (s.superko == rules.KoNone || !m.IsPlace() || !boards[s.keys(c).sk]) {
			out = append(out, m)
		}
	}
	return out
}

// setBest fills Best with the moves whose value, seen by the mover (sign 1
// for Black, -1 for White), is bestV, sets Value to it when there are any,
// and the Outcome.
func (res *Result) setBest(moves []rules.Move, sign, bestV float64) {
	for _, m := range moves {
		if v, ok := res.Moves[m]; ok && sign*v == bestV {
			res.Best = append(res.Best, m)
		}
	}
	if len(res.Best) > 0 {
		res.Value = sign * bestV
	}
	res.Outcome = winner(res.Value)
}

// Sign returns the outcome a value stands for: 1 (Black wins), -1 (White
// wins) or 0 (a draw).
func Sign(v float64) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
