package tournament

// perfect reports whether the graph on vertices 0..n-1 whose edges adj
// gives has a perfect matching. It tries a greedy matching first (most
// rounds pair that way) and otherwise finds a maximum matching by Edmonds'
// blossom algorithm (augmenting paths with odd cycles shrunk), O(n³).
func perfect(n int, adj func(i, j int) bool) bool {
	if n%2 == 1 {
		return false
	}
	if greedyPerfect(n, adj) {
		return true
	}
	return maxMatching(n, adj) == n/2
}

// greedyPerfect pairs each vertex in turn with the first free neighbour.
func greedyPerfect(n int, adj func(i, j int) bool) bool {
	used := make([]bool, n)
	for i := 0; i < n; i++ {
		if used[i] {
			continue
		}
		found := false
		for j := i + 1; j < n; j++ {
			if !used[j] && adj(i, j) {
				used[i], used[j], found = true, true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// maxMatching returns the size of a maximum matching (Edmonds).
func maxMatching(n int, adj func(i, j int) bool) int {
	nb := make([][]int, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != j && adj(i, j) {
				nb[i] = append(nb[i], j)
			}
		}
	}
	match := make([]int, n)
	p := make([]int, n)
	base := make([]int, n)
	used := make([]bool, n)
	blossom := make([]bool, n)
	for i := range match {
		match[i] = -1
	}
	lca := func(a, b int) int {
		seen := make([]bool, n)
		for {
			a = base[a]
			seen[a] = true
			if match[a] == -1 {
				break
			}
			a = p[match[a]]
		}
		for {
			b = base[b]
			if seen[b] {
				return b
			}
			b = p[match[b]]
		}
	}
	markPath := func(v, b, child int) {
		for base[v] != b {
			blossom[base[v]] = true
			blossom[base[match[v]]] = true
			p[v] = child
			child = match[v]
			v = p[match[v]]
		}
	}
	findPath := func(root int) int {
		for i := 0; i < n; i++ {
			used[i] = false
			p[i] = -1
			base[i] = i
		}
		used[root] = true
		queue := []int{root}
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			for _, to := range nb[v] {
				if base[v] == base[to] || match[v] == to {
					continue
				}
				if to == root || (match[to] != -1 && p[match[to]] != -1) {
					cur := lca(v, to)
					for i := range blossom {
						blossom[i] = false
					}
					markPath(v, cur, to)
					markPath(to, cur, v)
					for i := 0; i < n; i++ {
						if blossom[base[i]] {
							base[i] = cur
							if !used[i] {
								used[i] = true
								queue = append(queue, i)
							}
						}
					}
				} else if p[to] == -1 {
					p[to] = v
					if match[to] == -1 {
						return to
					}
					used[match[to]] = true
					queue = append(queue, match[to])
				}
			}
		}
		return -1
	}
	size := 0
	for v := 0; v < n; v++ {
		if match[v] != -1 {
			continue
		}
		u := findPath(v)
		if u == -1 {
			continue
		}
		size++
		for u != -1 {
			pv := p[u]
			ppv := match[pv]
			match[u] = pv
			match[pv] = u
			u = ppv
		}
	}
	return size
}
