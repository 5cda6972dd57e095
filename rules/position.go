package rules

import (
	"fmt"
	"math/bits"

	"alak/rules/bitline"
)

// Reason says why a game ended.
type Reason uint8

// Reasons a game ends.
const (
	NotOver    Reason = iota
	NoMoves           // the player to move has no legal move; the board is counted
	Passes            // consecutive passes ended the game; the board is counted
	Repetition        // a position occurred the set number of times: a draw
	Unchanged         // a placement left the board unchanged: its player lost
	Resigned          // the player who resigned lost
	Eliminated        // sliding: a player was left with fewer than the minimum pieces
	// The reasons below are never produced by a Position or a Game: they
	// end games by what the players do outside the moves, and a session
	// (package session) records them.
	Agreement // the players agreed to a draw
	Timeout   // a player ran out of time and lost
	Aborted   // the game was called off before it really started: no result
	// Recorded ends a game read from a record whose result is a draw its
	// moves do not reach: SGF writes every draw as "0" and gives no
	// reason (the players agreed, or a match stopped the game at its move
	// limit), so none is claimed.
	Recorded
)

// String names the reason in a few words.
func (r Reason) String() string {
	if int(r) >= len(reasonNames) {
		return "unknown reason"
	}
	return reasonNames[r]
}

var reasonNames = [...]string{"not over", "no legal move", "passes", "repetition", "unchanged board", "resignation", "too few pieces", "agreement", "time", "abort", "the record's result"}

// Position is an immutable snapshot of a game: the stones, the player to
// move, the points that player may not place on, and what the last move did.
// It does not hold the game's history: positional and situational superko
// and the repetition draw are enforced by Game (and by the solver).
//
// Positions are small values; Play returns a new one and never changes its
// receiver, so positions can be shared between goroutines.
type Position struct {
	e         *engine
	st        [2]uint64 // lines: the stones of Black and White, bit i = point i
	forbid    uint64    // lines: points the player to move may not place on (KoCaptured, KoSimple)
	removed   uint64    // lines: points emptied by captures on the last move
	safe      uint64    // lines: points declared safe (safe.go); in hash
	hash      uint64    // Zobrist key of the stones and the player to move
	g         *grid     // grids: everything the bitboards hold for lines; nil on lines
	last      Move
	toMove    Color
	passes    uint8
	end       Reason
	prisoners [2]int16
	ply       int32
}

// NewPosition returns the start position of the rules: the empty board, or
// the start layout for sliding rules.
func NewPosition(r Rules) (Position, error) {
	e, err := newEngine(r)
	if err != nil {
		return Position{}, err
	}
	return e.start(), nil
}

// start returns the start position of the engine's rules.
func (e *engine) start() Position {
	pos := Position{e: e, last: NoMove}
	if !e.line {
		pos.g = &grid{}
		return pos
	}
	for i, ch := range e.r.StartLayout() {
		switch ch {
		case 'x':
			pos.st[Black] |= 1 << i
		case 'o':
			pos.st[White] |= 1 << i
		}
	}
	pos.hash = hashRun(Black, pos.st[Black]) ^ hashRun(White, pos.st[White])
	pos.end = pos.endState()
	return pos
}

// Rules returns the rules the position is played under.
func (pos Position) Rules() Rules {
	if pos.e == nil {
		return Rules{}
	}
	return pos.e.r
}

// Size returns the width and height of the board (height 1 for a line).
func (pos Position) Size() (w, h int) {
	if pos.e == nil {
		return 0, 0
	}
	return pos.e.r.Width, pos.e.r.Height
}

// Points returns the number of points on the board.
func (pos Position) Points() int {
	if pos.e == nil {
		return 0
	}
	return pos.e.n
}

// ToMove returns the player to move.
func (pos Position) ToMove() Color { return pos.toMove }

// LastMove returns the move that led to the position, NoMove at the start
// (the snapshot shows it; SGF writes it for a set-up start).
func (pos Position) LastMove() Move { return pos.last }

// Ply returns the number of moves played since the start position.
func (pos Position) Ply() int { return int(pos.ply) }

// Passes returns the number of consecutive passes that led to the position.
func (pos Position) Passes() int { return int(pos.passes) }

// Prisoners returns how many stones player c has captured.
func (pos Position) Prisoners(c Color) int { return int(pos.prisoners[c]) }

// MaxPrisoners is the most prisoners a set-up position can give one
// player, leaving room below the counter's limit for the game's captures.
const MaxPrisoners = 10000

// WithPrisoners returns the position with Black holding black prisoners and
// White holding white, for set-up positions whose captures happened before
// the record starts (they count under territory and area+prisoners
// scoring). Each count must be from 0 to MaxPrisoners.
func (pos Position) WithPrisoners(black, white int) (Position, error) {
	if pos.e == nil {
		return pos, fmt.Errorf("%w: the zero Position has no rules; use NewPosition", ErrSetup)
	}
	for _, n := range []int{black, white} {
		if n < 0 || n > MaxPrisoners {
			return pos, fmt.Errorf("%w: %d prisoners: a count is from 0 to %d", ErrSetup, n, MaxPrisoners)
		}
	}
	pos.prisoners = [2]int16{int16(black), int16(white)}
	return pos, nil
}

// At returns the colour of the stone on point p, or None.
func (pos Position) At(p int) Color {
	if p < 0 || p >= pos.Points() {
		return None
	}
	if pos.g != nil {
		return pos.g.at(p)
	}
	switch {
	case pos.st[Black]>>p&1 != 0:
		return Black
	case pos.st[White]>>p&1 != 0:
		return White
	}
	return None
}

// Count returns the number of stones of colour c on the board.
func (pos Position) Count(c Color) int {
	if pos.g != nil {
		return pos.g.st[c].count()
	}
	return bits.OnesCount64(pos.st[c])
}

// Forbidden reports whether the player to move may not place on p because
// of the ko rule (points just captured under KoCaptured, the ko point under
// KoSimple). Superko is not included: it depends on the history.
func (pos Position) Forbidden(p int) bool {
	if p < 0 || p >= pos.Points() {
		return false
	}
	if pos.g != nil {
		return pos.g.isForbidden(p)
	}
	return pos.forbid>>p&1 != 0
}

// Removed reports whether the last move emptied point p by a capture.
func (pos Position) Removed(p int) bool {
	if p < 0 || p >= pos.Points() {
		return false
	}
	if pos.g != nil {
		return pos.g.isRemoved(p)
	}
	return pos.removed>>p&1 != 0
}

// Line returns the bitboards of a line position: bit i of black and white is
// set when point i holds a stone of that colour, bit i of forbidden when the
// player to move may not place there. ok is false on a grid.
func (pos Position) Line() (black, white, forbidden uint64, ok bool) {
	return pos.st[Black], pos.st[White], pos.forbid, pos.g == nil
}

// Bits returns the bitboards of a position on a board of at most 64 points,
// a line or a grid: bit p of black and white is set when point p (y*width+x
// on a grid) holds a stone of that colour, bit p of forbidden when the player
// to move may not place there. ok is false on a larger board.
func (pos Position) Bits() (black, white, forbidden uint64, ok bool) {
	switch {
	case pos.g == nil:
		return pos.st[Black], pos.st[White], pos.forbid, true
	case pos.e == nil || pos.e.n > 64:
		return 0, 0, 0, false
	}
	return pos.g.st[Black][0], pos.g.st[White][0], pos.g.m().forbid[0], true
}

// Hash returns the position's key for repetition and transposition tables:
// an incremental Zobrist hash of the stones, the player to move and the
// forbidden points. Prisoners, the ply and the pass count are not included.
func (pos Position) Hash() uint64 {
	h := pos.hash
	if pos.toMove == White {
		h ^= zobrist.white
	}
	if pos.g != nil {
		return h ^ pos.g.forbidKey()
	}
	return h ^ forbidKey(pos.forbid)
}

// BoardHash returns the Zobrist hash of the stones alone, as positional
// superko compares boards.
func (pos Position) BoardHash() uint64 { return pos.hash }

// Over reports whether the game ended in this position by the position's own
// rules (repetition is the Game's).
func (pos Position) Over() bool { return pos.end != NotOver }

// Play returns the position after move m, or an error wrapping ErrIllegal
// that says why m is not legal (and the position unchanged). Resign is
// accepted in every position that is not over. Superko is not checked here:
// use Game.
func (pos Position) Play(m Move) (Position, error) {
	err := pos.Apply(m)
	return pos, err
}

// Apply plays m on the position held by the caller, in place: *pos becomes
// the position after m, as Play would return it. On error *pos is left
// unchanged. It is Play without copies, for the hot loops of searches and
// playouts; positions stay values (Apply changes only the caller's copy).
func (pos *Position) Apply(m Move) error {
	// The alak fast path first, in a small frame: the general path below
	// builds a whole Position on the stack.
	if e := pos.e; e != nil && e.stays && pos.end == NotOver && uint32(m) < uint32(e.n) && pos.placeStays(int(m)) {
		return nil
	}
	return pos.apply(m)
}

// apply is Apply's general path.
func (pos *Position) apply(m Move) error {
	if pos.e == nil {
		return fmt.Errorf("%w: the zero Position has no rules; use NewPosition", ErrSetup)
	}
	if pos.end != NotOver {
		return moveErr(m, ErrGameOver)
	}
	if m.IsDeclare() {
		next, err := pos.declare(m)
		if err == nil {
			*pos = next
		}
		return err
	}
	if e := pos.e; uint32(m) < uint32(e.n) && e.r.Movement == Placement {
		if pos.g != nil {
			return pos.playGrid(int(m))
		}
		return pos.placeLine(int(m))
	}
	next, err := pos.play(m)
	if err == nil {
		*pos = next
	}
	return err
}

// play is every move but the line placement of Apply's fast path.
func (pos Position) play(m Move) (Position, error) {
	switch {
	case m == Resign:
		next := pos.advance(m)
		next.forbid, next.removed = 0, 0
		if next.g != nil {
			next.g = next.g.withoutMarks()
		}
		next.end = Resigned
		return next, nil
	case m == Pass:
		if !pos.e.r.Pass {
			return pos, moveErr(m, ErrNoPass)
		}
		next := pos.advance(m)
		next.passes = pos.passes + 1
		next.forbid, next.removed = 0, 0
		if next.g != nil {
			next.g = next.g.withoutMarks()
		}
		if int(next.passes) >= pos.e.r.EndPasses {
			next.end = Passes
		}
		return next, nil
	case m.IsSlide():
		if pos.e.r.Movement != Sliding {
			return pos, moveErrDetail(m, ErrWrongKind, "these rules place stones on points")
		}
		return pos.playSlide(m)
	case m.IsPlace():
		if pos.e.r.Movement != Placement {
			return pos, moveErrDetail(m, ErrWrongKind, "these rules slide pieces from slot to slot")
		}
		if int(m) >= pos.e.n {
			return pos, moveErrDetail(m, ErrOffBoard, fmt.Sprintf("the board has %d points", pos.e.n))
		}
		err := pos.playGrid(int(m))
		return pos, err
	}
	return pos, moveErrDetail(m, ErrWrongKind, "not a move")
}

// advance returns pos with the side to move switched and m recorded.
func (pos Position) advance(m Move) Position {
	pos.last = m
	pos.toMove ^= 1
	pos.passes = 0
	pos.ply++
	return pos
}

// placed records that c placed a stone on p of a line, leaving the mover
// with the stones me and the opponent with op. The words are stored with
// constant indices: building a [2]uint64 through the variable index c and
// copying it whole defeats store forwarding, which cost about a tenth of a
// placement.
func (pos *Position) placed(c Color, p int, me, op uint64) {
	if c == Black {
		pos.st[Black], pos.st[White] = me, op
	} else {
		pos.st[Black], pos.st[White] = op, me
	}
	pos.last, pos.toMove, pos.passes, pos.ply = Place(p), c^1, 0, pos.ply+1
	pos.hash ^= zobrist.stone[c][p]
}

// placeLine plays a placement on a line in place; on error *pos is
// unchanged.
func (pos *Position) placeLine(p int) error {
	e := pos.e
	bit := uint64(1) << p
	if (pos.st[Black]|pos.st[White])&bit != 0 {
		return moveErr(Place(p), ErrOccupied)
	}
	if pos.safe&bit != 0 {
		return moveErr(Place(p), ErrSafe)
	}
	if pos.forbid&bit != 0 {
		if e.r.Ko == KoSimple {
			return moveErr(Place(p), ErrKo)
		}
		return moveErr(Place(p), ErrForbidden)
	}
	c := pos.toMove
	oldMe, oldOp := pos.st[c], pos.st[c^1]
	me, op, capt, lost, ok := e.ln.Place(oldMe, oldOp, p)
	if !ok {
		return moveErr(Place(p), ErrSuicide)
	}
	unchanged := me == oldMe && op == oldOp
	if e.r.Ko == KoSimple && pos.last == Pass && unchanged {
		return moveErr(Place(p), ErrKo)
	}
	pos.placed(c, p, me, op)
	pos.removed, pos.forbid = capt|lost, 0
	if capt|lost != 0 {
		pos.hash ^= hashRun(c^1, capt) ^ hashRun(c, lost)
		pos.prisoners[c] += int16(bits.OnesCount64(capt))
		pos.prisoners[c^1] += int16(bits.OnesCount64(lost))
		switch e.r.Ko {
		case KoCaptured:
			pos.forbid = capt
		case KoSimple:
			if bits.OnesCount64(capt) == 1 {
				// Simple ko: the recapture is forbidden only if it would
				// bring back the board as it was before this move.
				if bop, bme, _, _, ok := e.ln.Place(op, me, bits.TrailingZeros64(capt)); ok && bme == oldMe && bop == oldOp {
					pos.forbid = capt
				}
			}
		}
	}
	if e.r.UnchangedLoses && unchanged {
		pos.end = Unchanged
		return nil
	}
	// The common case needs no move generation: under the own-liberty
	// rules other than OwnIllegal every empty point that is not forbidden
	// is legal (the pass-after-ko case aside, which needs passing).
	if !e.r.Pass && (e.r.Own == OwnIllegal || e.mask&^(me|op|pos.forbid|pos.safe) == 0) {
		pos.end = pos.endState()
	}
	return nil
}

// placeStays is placeLine for engines with stays set (the alak preset):
// no suicide, no simple ko, no unchanged-board rule, and captures computed
// without branches. It reports false, leaving *pos unchanged, when p is
// not empty or forbidden; placeLine then says why.
//
// Nothing here branches on the captures: their key comes from the byte
// keys on lines of up to 16 points (two look-ups, alak's 11 points and the
// sizes the solvers reach), else from the prefix keys (two look-ups a run,
// the same entry twice for an empty run); the prisoners grow by the count
// (0 when nothing is captured), and the ko rule's forbidden points are the
// captures under a mask. The branch on the size goes the same way for a
// whole game. The colour is reduced to 0 or 1 so that its indices need no
// bounds checks.
func (pos *Position) placeStays(p int) bool {
	e := pos.e
	bit := uint64(1) << (p & 63)
	if (pos.st[Black]|pos.st[White]|pos.forbid)&bit != 0 {
		return false
	}
	c := pos.toMove & 1
	me, op := pos.st[c], pos.st[c^1]
	capt := e.ln.CapturesFlat(op, me, bit)
	me |= bit
	op ^= capt // capt is a subset of op
	pos.st[c], pos.st[c^1] = me, op
	forbid := capt & e.koMask
	pos.forbid, pos.removed = forbid, capt
	pos.last, pos.toMove, pos.passes, pos.ply = Place(p), c^1, 0, pos.ply+1
	var key uint64
	if e.n <= 16 {
		key = byteKeys[c^1].Low16(capt)
	} else {
		key = runKeys[c^1].Around(capt, bit)
	}
	pos.hash ^= zobrist.stone[c][p&63] ^ key
	pos.prisoners[c] += int16(bits.OnesCount64(capt))
	if e.mask&^(me|op|forbid) == 0 {
		pos.end = NoMoves // every empty point is forbidden: no legal placement
	}
	return true
}

func (pos Position) playSlide(m Move) (Position, error) {
	e := pos.e
	from, to := m.From(), m.To()
	if from >= e.n || to >= e.n {
		return pos, moveErrDetail(m, ErrOffBoard, fmt.Sprintf("the board has %d slots", e.n))
	}
	c := pos.toMove
	if pos.st[c]>>from&1 == 0 {
		return pos, moveErr(m, ErrNotYours)
	}
	empty := e.mask &^ (pos.st[Black] | pos.st[White])
	if empty>>to&1 == 0 {
		return pos, moveErrDetail(m, ErrUnreachable, fmt.Sprintf("slot %d is occupied", to+1))
	}
	if l, r := e.ln.SlideTargets(empty, from); to != l && to != r {
		return pos, moveErr(m, ErrUnreachable)
	}
	nst, capt, lost := e.slide(pos.st, c, from, to)
	next := pos.advance(m)
	next.st = nst
	next.hash ^= zobrist.stone[c][from] ^ zobrist.stone[c][to] ^ hashRun(c^1, capt) ^ hashRun(c, lost)
	next.removed = capt | lost
	next.prisoners[c] += int16(bits.OnesCount64(capt))
	next.prisoners[c^1] += int16(bits.OnesCount64(lost))
	next.end = next.endState()
	return next, nil
}

// endState decides whether a line position just reached is over by its own
// rules: too few pieces (sliding), or no legal move for the player to move.
func (pos Position) endState() Reason {
	r := &pos.e.r
	if r.Movement == Sliding {
		if pos.Count(Black) < r.MinPieces || pos.Count(White) < r.MinPieces {
			return Eliminated
		}
	}
	if r.Pass {
		return NotOver
	}
	if !pos.hasLegal() {
		return NoMoves
	}
	return NotOver
}

// hasLegal reports whether the player to move has a legal move other than
// resigning (superko aside).
func (pos Position) hasLegal() bool {
	if pos.g != nil {
		return pos.g.hasLegal(pos)
	}
	if pos.e.r.Pass {
		return true
	}
	if pos.e.r.Movement == Sliding {
		// Every piece can reach the nearest empty slot on one side or the
		// other, so the mover can move while it has a piece and a slot is empty.
		empty := pos.e.mask &^ (pos.st[Black] | pos.st[White])
		return empty != 0 && pos.st[pos.toMove] != 0
	}
	pts, _ := legalPointsSlow(&pos)
	return pts != 0 || pos.declarable() != 0
}

// LegalPoints returns, on a line under placement rules, the set of points
// the player to move may place on (bit i = point i), superko aside. It is the
// fast path for playouts and search; ok is false on grids and sliding rules.
//
// It takes a pointer, unlike the other accessors, because it is on the
// chain of a playout: a position passed by value is copied in 16-byte
// words, and reading the stones Apply has just stored in 8-byte words
// through such a copy stalls until the stores are written out. The points
// are the line's XOR the stones and forbidden points, all on the line.
func (pos *Position) LegalPoints() (pts uint64, ok bool) {
	if e := pos.e; e != nil && e.openLegal && pos.end == NotOver {
		return e.mask ^ (pos.st[0] | pos.st[1] | pos.forbid), true
	}
	if e := pos.e; e != nil && e.r.Safe != SafeOff {
		return 0, false // declarations are moves too: use LegalMoves
	}
	return legalPointsSlow(pos)
}

// legalPointsSlow is LegalPoints' path for the rules and positions where
// not every empty point that is not forbidden is legal.
func legalPointsSlow(pos *Position) (pts uint64, ok bool) {
	e := pos.e
	if e == nil || pos.g != nil || e.r.Movement != Placement {
		return 0, false
	}
	if pos.end != NotOver {
		return 0, true
	}
	cand := e.mask &^ (pos.st[Black] | pos.st[White] | pos.forbid | pos.safe)
	check := e.r.Own == OwnIllegal || (e.r.Ko == KoSimple && pos.last == Pass && e.r.Own != OwnStays)
	if !check {
		return cand, true
	}
	for set := cand; set != 0; set &= set - 1 {
		p := bits.TrailingZeros64(set)
		nst, _, _, ok := e.place(pos.st, pos.toMove, p)
		if !ok || (e.r.Ko == KoSimple && pos.last == Pass && nst == pos.st) {
			cand &^= 1 << p
		}
	}
	return cand, true
}

// LegalMoves appends the legal moves of the player to move to buf and
// returns it: placements by point, or slides by slot, then pass where it is
// allowed. Resign, always available, is not listed; superko is not applied
// (Game.LegalMoves applies it). A finished game has no legal moves.
func (pos Position) LegalMoves(buf []Move) []Move {
	if pos.end != NotOver || pos.e == nil {
		return buf
	}
	e := pos.e
	switch {
	case pos.g != nil:
		buf = pos.g.legalPlacements(pos, buf)
	case e.r.Movement == Sliding:
		empty := e.mask &^ (pos.st[Black] | pos.st[White])
		for set := pos.st[pos.toMove]; set != 0; set &= set - 1 {
			from := bits.TrailingZeros64(set)
			l, r := e.ln.SlideTargets(empty, from)
			if l >= 0 {
				buf = append(buf, Slide(from, l))
			}
			if r >= 0 {
				buf = append(buf, Slide(from, r))
			}
		}
	default:
		pts, _ := legalPointsSlow(&pos)
		for ; pts != 0; pts &= pts - 1 {
			buf = append(buf, Place(bits.TrailingZeros64(pts)))
		}
		for d := pos.declarable(); d != 0; d &= d - 1 {
			buf = append(buf, Declare(bits.TrailingZeros64(d)))
		}
	}
	if e.r.Pass {
		buf = append(buf, Pass)
	}
	return buf
}

// Legal reports nil when m is legal in the position (superko aside), or the
// error Play would return.
func (pos Position) Legal(m Move) error {
	_, err := pos.Play(m)
	return err
}

// Mirror returns the position reflected left to right (a line reversed).
func (pos Position) Mirror() Position {
	if pos.e == nil {
		return pos
	}
	if pos.g != nil {
		return pos.mirrorGrid()
	}
	n := pos.e.n
	rev := func(x uint64) uint64 { return bitline.Rev(x, n) }
	m := pos
	m.st = [2]uint64{rev(pos.st[Black]), rev(pos.st[White])}
	m.forbid, m.removed, m.safe = rev(pos.forbid), rev(pos.removed), rev(pos.safe)
	m.hash = hashRun(Black, m.st[Black]) ^ hashRun(White, m.st[White]) ^ safeKey(m.safe)
	m.last = mirrorMove(pos.last, func(p int) int { return n - 1 - p })
	return m
}

// MirrorMove returns m reflected left to right on r's board, as Mirror
// reflects a position: on a line the point p of n becomes n-1-p, on a grid
// the column x of width w becomes w-1-x. Passes and other moves without a
// point are unchanged.
func (r Rules) MirrorMove(m Move) Move {
	w := r.Width
	if w <= 0 {
		return m
	}
	return mirrorMove(m, func(p int) int { return p/w*w + (w - 1 - p%w) })
}

func mirrorMove(m Move, f func(int) int) Move {
	switch {
	case m.IsSlide():
		return Slide(f(m.From()), f(m.To()))
	case m.IsPlace():
		return Place(f(int(m)))
	case m.IsDeclare():
		return Declare(f(m.Point()))
	}
	return m
}

// SameState reports whether pos and q are the same state of a game on a
// line: the same rules, stones, forbidden and safe points, player to move,
// consecutive passes, end and, where the score counts prisoners
// (score=territory or area+prisoners), prisoner difference (and, under
// sliding rules, whether anyone has moved yet). From two such positions
// every sequence of moves is legal alike, leads to positions that are the
// same state again, passes through the same repetition keys (Hash) and
// ends with the same margin; only what the game's history holds differs:
// the repetition counts, and under superko the earlier boards. The ply,
// the last placement and the prisoner totals may differ (the difference
// too where the score does not count prisoners). On a grid it reports
// false.
func (pos Position) SameState(q Position) bool {
	if pos.e == nil || q.e == nil || pos.g != nil || q.g != nil {
		return false
	}
	if pos.e != q.e && pos.e.r != q.e.r {
		return false
	}
	same := pos.st == q.st && pos.forbid == q.forbid && pos.safe == q.safe && pos.toMove == q.toMove &&
		pos.passes == q.passes && pos.end == q.end &&
		(!pos.e.r.countsPrisoners() || pos.prisoners[Black]-pos.prisoners[White] == q.prisoners[Black]-q.prisoners[White]) &&
		(pos.last == Pass) == (q.last == Pass)
	if pos.e.r.Movement != Placement {
		same = same && (pos.last == NoMove) == (q.last == NoMove)
	}
	return same
}

// countsPrisoners reports whether the score of r counts prisoners.
func (r Rules) countsPrisoners() bool {
	return r.Scoring == ScoreTerritory || r.Scoring == ScoreAreaPrisoners
}
