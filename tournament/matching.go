package tournament

// matcher keeps a maximum matching of a graph by Edmonds' blossom
// algorithm (augmenting paths, odd cycles shrunk), so that the Swiss
// pairing can ask "can everyone left still be paired?" at the cost of one
// augmenting-path search instead of a whole matching. Vertices can be
// taken out of the graph (alive false) as they are paired for good.
type matcher struct {
	n       int
	nb      [][]int
	match   []int
	alive   []bool
	p, base []int
	used    []bool
	blossom []bool
	seen    []bool
}

func newMatcher(n int, adj func(i, j int) bool) *matcher {
	m := &matcher{
		n: n, nb: make([][]int, n), match: make([]int, n), alive: make([]bool, n),
		p: make([]int, n), base: make([]int, n), used: make([]bool, n), blossom: make([]bool, n), seen: make([]bool, n),
	}
	for i := 0; i < n; i++ {
		m.match[i] = -1
		m.alive[i] = true
		for j := 0; j < n; j++ {
			if i != j && adj(i, j) {
				m.nb[i] = append(m.nb[i], j)
			}
		}
	}
	return m
}

// maximum completes the matching to a maximum one (greedily first, then
// by augmenting paths) and returns its size.
func (m *matcher) maximum() int {
	for v := 0; v < m.n; v++ {
		if !m.alive[v] || m.match[v] != -1 {
			continue
		}
		for _, u := range m.nb[v] {
			if m.alive[u] && m.match[u] == -1 {
				m.match[v], m.match[u] = u, v
				break
			}
		}
	}
	for v := 0; v < m.n; v++ {
		if m.alive[v] && m.match[v] == -1 {
			if u := m.findPath(v); u != -1 {
				m.augment(u)
			}
		}
	}
	size := 0
	for v := 0; v < m.n; v++ {
		if m.alive[v] && m.match[v] != -1 {
			size++
		}
	}
	return size / 2
}

// perfect reports whether the matching covers every vertex still in.
func (m *matcher) perfect() bool {
	for v := 0; v < m.n; v++ {
		if m.alive[v] && m.match[v] == -1 {
			return false
		}
	}
	return true
}

// pairOff takes a and b out of the graph as a pair if the others can still
// all be paired, keeping the matching perfect on them; otherwise it
// changes nothing and returns false. The matching must be perfect.
func (m *matcher) pairOff(a, b int) bool {
	if m.match[a] == b {
		m.alive[a], m.alive[b] = false, false
		return true
	}
	saved := append([]int(nil), m.match...)
	a2, b2 := m.match[a], m.match[b]
	m.alive[a], m.alive[b] = false, false
	m.match[a], m.match[b], m.match[a2], m.match[b2] = -1, -1, -1, -1
	// a2 and b2 are the only unmatched vertices left: an augmenting path
	// from a2 ends at b2.
	if u := m.findPath(a2); u != -1 {
		m.augment(u)
		return true
	}
	copy(m.match, saved)
	m.alive[a], m.alive[b] = true, true
	return false
}

func (m *matcher) augment(u int) {
	for u != -1 {
		pv := m.p[u]
		ppv := m.match[pv]
		m.match[u] = pv
		m.match[pv] = u
		u = ppv
	}
}

func (m *matcher) lca(a, b int) int {
	for i := range m.seen {
		m.seen[i] = false
	}
	for {
		a = m.base[a]
		m.seen[a] = true
		if m.match[a] == -1 {
			break
		}
		a = m.p[m.match[a]]
	}
	for {
		b = m.base[b]
		if m.seen[b] {
			return b
		}
		b = m.p[m.match[b]]
	}
}

func (m *matcher) markPath(v, b, child int) {
	for m.base[v] != b {
		m.blossom[m.base[v]] = true
		m.blossom[m.base[m.match[v]]] = true
		m.p[v] = child
		child = m.match[v]
		v = m.p[m.match[v]]
	}
}

// findPath searches an augmenting path from the unmatched root and returns
// its other end (p links it back), or -1.
func (m *matcher) findPath(root int) int {
	for i := 0; i < m.n; i++ {
		m.used[i] = false
		m.p[i] = -1
		m.base[i] = i
	}
	m.used[root] = true
	queue := []int{root}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, to := range m.nb[v] {
			if !m.alive[to] || m.base[v] == m.base[to] || m.match[v] == to {
				continue
			}
			if to == root || (m.match[to] != -1 && m.p[m.match[to]] != -1) {
				cur := m.lca(v, to)
				for i := range m.blossom {
					m.blossom[i] = false
				}
				m.markPath(v, cur, to)
				m.markPath(to, cur, v)
				for i := 0; i < m.n; i++ {
					if m.blossom[m.base[i]] {
						m.base[i] = cur
						if !m.used[i] {
							m.used[i] = true
							queue = append(queue, i)
						}
					}
				}
			} else if m.p[to] == -1 {
				m.p[to] = v
				if m.match[to] == -1 {
					return to
				}
				m.used[m.match[to]] = true
				queue = append(queue, m.match[to])
			}
		}
	}
	return -1
}

// maxMatching returns the size of a maximum matching of the graph.
func maxMatching(n int, adj func(i, j int) bool) int {
	return newMatcher(n, adj).maximum()
}

// perfect reports whether the graph has a perfect matching.
func perfect(n int, adj func(i, j int) bool) bool {
	m := newMatcher(n, adj)
	m.maximum()
	return m.perfect()
}
