package solve

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"time"

	"alak/rules"
	"alak/rules/bitline"
)

const (
	inf   = 30000 // beyond every margin, in half points
	noHit = math.MaxInt32
)

// searcher holds one solve's state. Values are in half points (komi can be
// a half) from the view of the player to move.
type searcher struct {
	noCompact bool // Options.noCompact
	ctx       context.Context
	r         rules.Rules
	n         int
	graph     bool // repetition-draw rules without superko: see docs/solver.md
	rep       int
	superko   rules.Ko // KoPositional, KoSituational or KoNone
	prisoner  bool     // the score counts prisoners: their difference is part of the state
	safe      bool     // safe points (rules.SafeEye) ride above bit 32 of the forbidden word: safe.go
	order     []int    // placement points, centre first

	tt    *ttable
	root  rules.Position // the position being solved
	retro *retro         // its solved state graph, when the rules allow one
	table *Table         // nil when the table cannot be used (history-dependent solve)
	// histGraph is the graph of the positions reachable from the root for
	// values under a history that used up positions (history.go), when
	// retro is not one (compact.go's, or none); histTooBig that it does not
	// fit the memory limit.
	histGraph  *retro
	histTooBig bool

	// graph mode: the positions on the current path (repetition hash ->
	// depth of its occurrence) and those the game's history has used up.
	path      map[uint64]int32
	exhausted map[uint64]bool

	// history mode: occurrences of every repetition key and superko key in
	// the history and on the path, and a hash of both (and of its mirror).
	counts       map[uint64]int
	boards       map[uint64]int
	hctx, hctxM  uint64
	memoryMB     int
	maxDepth     int32 // the deepest ply a line may reach (maxSearchDepth)
	maxNodes     int64
	nodes        int64
	abort        error
	start        time.Time
	lastProgress time.Time
	expect       int64 // the positions a graph solve will enumerate, when known; 0 if not
	progress     func(Progress)
	done, total  int
}

// keys of one node.
type nodeKeys struct {
	tt       ttKey
	mirrored bool
	rep      uint64 // repetition key (stones, player to move, forbidden points)
	repM     uint64 // the same of the mirror image (history mode)
	sk, skM  uint64 // superko key and its mirror (history mode with superko)
	// off is what the prisoners taken so far add to the value for the
	// player to move (half points); rel is the table key without them.
	off int32
	rel ttKey
}

// rev reverses the order of the points: the line read from the other end,
// or the grid turned half a turn ((x, y) to (w-1-x, h-1-y)); either is a
// symmetry of the rules, so a position and its image have the same value.
func (s *searcher) rev(x uint64) uint64 {
	if s.safe {
		return safeRev(x, s.n)
	}
	return bitline.Rev(x, s.n)
}

func repHash(b, w, f uint64, side rules.Color) uint64 {
	return mix(mix(mix(b^0x452821E638D01377)^w) ^ f ^ uint64(side)<<63)
}

func (s *searcher) superKey(b, w uint64, side rules.Color) uint64 {
	h := mix(mix(b^0xBE5466CF34E90C6C) ^ w)
	if s.superko == rules.KoSituational {
		h ^= uint64(side) * 0xC0AC29B7C97C50DD
	}
	return h
}

// zcount is the history-hash term of a key occurring c times.
func zcount(k uint64, c int) uint64 {
	if c == 0 {
		return 0
	}
	return mix(k + uint64(c)*0x9E3779B97F4A7C15)
}

func (s *searcher) keys(pos rules.Position) nodeKeys {
	b, w, f := stateBits(pos)
	side := pos.ToMove()
	rb, rw, rf := s.rev(b), s.rev(w), s.rev(f)
	var k nodeKeys
	k.rep = repHash(b, w, f, side)
	if rb < b || rb == b && (rw < w || rw == w && rf < f) {
		k.mirrored = true
		k.tt = ttKey{rb, rw, rf, uint64(side)}
	} else {
		k.tt = ttKey{b, w, f, uint64(side)}
	}
	x := uint64(side) | uint64(pos.Passes())<<1
	if s.prisoner {
		pd := pos.Prisoners(rules.Black) - pos.Prisoners(rules.White)
		k.rel = k.tt
		k.rel.x = x | 1<<7
		x |= uint64(uint16(pd)) << 8
		k.off = int32(2 * pd)
		if side == rules.White {
			k.off = -k.off
		}
	}
	k.tt.x = x // in history mode the history hash joins once the node is pushed
	if !s.graph {
		k.repM = repHash(rb, rw, rf, side)
		if s.superko != rules.KoNone {
			k.sk, k.skM = s.superKey(b, w, side), s.superKey(rb, rw, side)
			if s.safe { // the safe points are part of the board (safe.go)
				k.sk ^= safeBoardKey(f)
				k.skM ^= safeBoardKey(rf)
			}
		}
	}
	return k
}

// withContext adds the current history hash to a history-mode key.
func (s *searcher) withContext(k *nodeKeys) {
	if s.graph {
		return
	}
	c := s.hctx
	if k.mirrored {
		c = s.hctxM
	}
	k.tt.x = k.tt.x&0xFFFFFF ^ mix(c)<<24
}

// push and pop maintain the history-mode counts and hash.
func (s *searcher) push(k *nodeKeys) {
	if s.rep > 0 {
		c := s.counts[k.rep]
		s.hctx ^= zcount(k.rep, c) ^ zcount(k.rep, c+1)
		s.hctxM ^= zcount(k.repM, c) ^ zcount(k.repM, c+1)
	}
	s.counts[k.rep]++
	if s.superko != rules.KoNone {
		if s.boards[k.sk] == 0 {
			s.hctx ^= mix(k.sk ^ 0x3F84D5B5B5470917)
			s.hctxM ^= mix(k.skM ^ 0x3F84D5B5B5470917)
		}
		s.boards[k.sk]++
	}
}

func (s *searcher) pop(k *nodeKeys) {
	c := s.counts[k.rep]
	if s.rep > 0 {
		s.hctx ^= zcount(k.rep, c) ^ zcount(k.rep, c-1)
		s.hctxM ^= zcount(k.repM, c) ^ zcount(k.repM, c-1)
	}
	if c == 1 {
		delete(s.counts, k.rep)
	} else {
		s.counts[k.rep] = c - 1
	}
	if s.superko != rules.KoNone {
		if s.boards[k.sk] == 1 {
			delete(s.boards, k.sk)
			s.hctx ^= mix(k.sk ^ 0x3F84D5B5B5470917)
			s.hctxM ^= mix(k.skM ^ 0x3F84D5B5B5470917)
		} else {
			s.boards[k.sk]--
		}
	}
}

func half(x float64) int32 { return int32(math.Round(x * 2)) }

// terminal returns the value of a finished position for its player to move.
func terminal(pos rules.Position) int32 {
	m := half(pos.Outcome().Margin)
	if pos.ToMove() == rules.White {
		m = -m
	}
	return m
}

// stuck returns the value when superko leaves the player to move no
// placement and passing is not allowed: the board is counted, as Game does.
func (s *searcher) stuck(pos rules.Position) int32 {
	var m int32
	if s.r.Scoring != rules.ScoreNone {
		b, w := pos.Score()
		m = half(b - w)
	}
	if pos.ToMove() == rules.White {
		m = -m
	}
	return m
}

func encodeMove(m rules.Move) uint16 {
	switch {
	case m == rules.Pass:
		return 0xFFFF
	case m.IsSlide():
		return 0x8000 | uint16(m.From())<<6 | uint16(m.To())
	case m.IsPlace():
		return uint16(m.Point() + 1)
	case m.IsDeclare():
		return declareCode | uint16(m.Point())
	}
	return 0
}

func decodeMove(c uint16) rules.Move {
	switch {
	case c == 0:
		return rules.NoMove
	case c == 0xFFFF:
		return rules.Pass
	case c&0x8000 != 0:
		return rules.Slide(int(c>>6&63), int(c&63))
	case c&declareCode != 0:
		return rules.Declare(int(c & 63))
	}
	return rules.Place(int(c) - 1)
}

func (s *searcher) mirrorMove(m rules.Move) rules.Move {
	switch {
	case m.IsSlide():
		return rules.Slide(s.n-1-m.From(), s.n-1-m.To())
	case m.IsPlace():
		return rules.Place(s.n - 1 - m.Point())
	case m.IsDeclare():
		return rules.Declare(s.n - 1 - m.Point())
	}
	return m
}

// limitErr is why a search must stop: the context's error, or
// ErrNodeLimit once nodes reach maxNodes (0: no limit); nil to go on.
func limitErr(ctx context.Context, nodes, maxNodes int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if maxNodes > 0 && nodes >= maxNodes {
		return ErrNodeLimit
	}
	return nil
}

// progressAt is the Progress of a search that began at start.
func progressAt(now, start time.Time, nodes int64, done, total int) Progress {
	el := now.Sub(start)
	p := Progress{Nodes: nodes, Elapsed: el, Done: done, Total: total}
	if el > 0 {
		p.Rate = float64(nodes) / el.Seconds()
	}
	if done > 0 && total > done {
		p.Estimate = time.Duration(float64(el) * float64(total-done) / float64(done))
	}
	return p
}

func (s *searcher) poll() {
	if s.abort = limitErr(s.ctx, s.nodes, s.maxNodes); s.abort != nil {
		return
	}
	if s.progress != nil {
		now := time.Now()
		if now.Sub(s.lastProgress) >= 500*time.Millisecond {
			s.lastProgress = now
			s.progress(s.report(now))
		}
	}
}

func (s *searcher) report(now time.Time) Progress {
	p := progressAt(now, s.start, s.nodes, s.done, s.total)
	// Enumerating a graph whose size is known (or guessed): the time
	// left at the rate so far, for the positions still to come, once a
	// hundredth is done (the first second can go to allocating the table).
	if p.Estimate == 0 && s.expect > s.nodes && s.nodes > 0 && s.nodes >= s.expect/100 {
		p.Estimate = time.Duration(float64(p.Elapsed) * float64(s.expect-s.nodes) / float64(s.nodes))
	}
	return p
}

// moves appends the candidate moves of pos (superko aside), best guess first.
func (s *searcher) moves(pos rules.Position, first rules.Move, buf []rules.Move) []rules.Move {
	if first != rules.NoMove {
		buf = append(buf, first)
	}
	if pts, ok := pos.LegalPoints(); ok {
		if s.r.Pass && first != rules.Pass && pos.Passes() > 0 {
			buf = append(buf, rules.Pass)
		}
		for _, p := range s.order {
			if pts>>p&1 != 0 && rules.Place(p) != first {
				buf = append(buf, rules.Place(p))
			}
		}
		if s.r.Pass && first != rules.Pass && pos.Passes() == 0 {
			buf = append(buf, rules.Pass)
		}
		return buf
	}
	start := len(buf)
	buf = pos.LegalMoves(buf)
	if first == rules.NoMove {
		return buf
	}
	out := buf[:start]
	for _, m := range buf[start:] {
		if m != first {
			out = append(out, m)
		}
	}
	return out
}

// maxSearchDepth bounds the plies of one line the search follows. Each
// ply is a frame of searchPrisoners on the goroutine's stack (its move
// buffer and keys, about 1.7 kB: a judging solve on alak 18 overflowed
// Go's 1 GB stack 610,000 plies deep), so the bound keeps the stack under
// about 250 MB.
const maxSearchDepth = 1 << 17

// search returns the value of the live position pos (not over, not a
// repetition) within the window (alpha, beta), fail-soft, and the smallest
// path depth of a repetition its result depended on (graph mode; noHit if
// none). k has been pushed (history mode) or entered in s.path (graph mode).
func (s *searcher) search(pos rules.Position, k *nodeKeys, depth int32, alpha, beta int32) (int32, int32) {
	v, hit, _ := s.searchPrisoners(pos, k, depth, alpha, beta)
	return v, hit
}

// searchPrisoners is search that also reports whether the result depends
// on the prisoners taken before the node (a repetition draw, worth 0 in
// absolute terms, or a table entry keyed by them); results that do not are
// stored relative to those prisoners, so that they serve every capture
// history.
func (s *searcher) searchPrisoners(pos rules.Position, k *nodeKeys, depth int32, alpha, beta int32) (int32, int32, bool) {
	s.nodes++
	if s.nodes&1023 == 0 {
		s.poll()
	}
	if depth > s.maxDepth && s.abort == nil {
		s.abort = fmt.Errorf("%w (%d plies)", ErrTooDeep, s.maxDepth)
	}
	if s.abort != nil {
		return 0, noHit, true
	}
	first := rules.NoMove
	e, off, absDep := s.tt.probe(k.tt), int32(0), true
	if e == nil && s.prisoner && s.graph {
		if e = s.tt.probe(k.rel); e != nil {
			off, absDep = k.off, false
		}
	}
	if e != nil {
		lo, hi := int32(e.lo)+off, int32(e.hi)+off
		if e.lo == -inf {
			lo = -inf
		}
		if e.hi == inf {
			hi = inf
		}
		if lo == hi || lo >= beta {
			return lo, noHit, absDep
		}
		if hi <= alpha {
			return hi, noHit, absDep
		}
		alpha, beta = max(alpha, lo), min(beta, hi)
		if first = decodeMove(e.move); first != rules.NoMove && k.mirrored {
			first = s.mirrorMove(first)
		}
	} else if s.table != nil {
		if v, ok := s.table.get(k.tt); ok {
			return int32(v), noHit, true
		}
	}
	dep := false
	var buf [80]rules.Move
	moves := s.moves(pos, first, buf[:0])
	best, hit := int32(-inf), int32(noHit)
	bestMove := rules.NoMove
	legal := 0
	nodes0 := s.nodes
	for _, m := range moves {
		c, err := pos.Play(m)
		if err != nil {
			continue
		}
		var v int32
		h := int32(noHit)
		ck := s.keys(c)
		if !s.graph && s.superko != rules.KoNone && m.IsPlace() && s.boards[ck.sk] > 0 {
			continue // superko forbids recreating an earlier board
		}
		legal++
		switch {
		case c.Over():
			v = -terminal(c)
		case s.graph:
			if i, ok := s.path[ck.rep]; ok {
				v, h, dep = 0, i, true
			} else if s.exhausted[ck.rep] {
				v, dep = 0, true
			} else {
				s.path[ck.rep] = depth + 1
				cv, ch, cd := s.searchPrisoners(c, &ck, depth+1, -beta, -max(alpha, best))
				delete(s.path, ck.rep)
				v, h, dep = -cv, ch, dep || cd
			}
		default:
			cnt := s.counts[ck.rep]
			if s.rep > 0 && cnt+1 >= s.rep {
				v = 0
				break
			}
			if s.rep == 0 && s.superko == rules.KoNone && cnt > 0 {
				s.abort = ErrEndless
				return 0, noHit, true
			}
			s.push(&ck)
			s.withContext(&ck)
			cv, _ := s.search(c, &ck, depth+1, -beta, -max(alpha, best))
			s.pop(&ck)
			v = -cv
		}
		if s.abort != nil {
			return 0, noHit, true
		}
		hit = min(hit, h)
		if v > best {
			best, bestMove = v, m
			if best >= beta {
				break
			}
		}
	}
	if legal == 0 {
		best = s.stuck(pos)
	}
	if !s.graph || hit >= depth {
		lo, hi := int32(-inf), int32(inf)
		switch {
		case best <= alpha:
			hi = best
		case best >= beta:
			lo = best
		default:
			lo, hi = best, best
		}
		if bestMove != rules.NoMove && k.mirrored {
			bestMove = s.mirrorMove(bestMove)
		}
		work := uint8(bits.Len64(uint64(s.nodes-nodes0)) + 1)
		if s.graph && s.prisoner && !dep {
			if lo != -inf {
				lo -= k.off
			}
			if hi != inf {
				hi -= k.off
			}
			s.tt.store(k.rel, int16(lo), int16(hi), encodeMove(bestMove), work)
		} else {
			s.tt.store(k.tt, int16(lo), int16(hi), encodeMove(bestMove), work)
		}
	}
	return best, hit, dep || !s.graph
}
