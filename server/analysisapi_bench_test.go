package server

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"alak/rules"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/server/store/sqlstore"
	"alak/solve"
)

// benchGet fetches path from h over loopback and checks the status.
func benchGet(b *testing.B, hc *http.Client, base, path string) {
	resp, err := hc.Get(base + path)
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d", path, resp.StatusCode)
	}
}

// randomLines plays n random games of r from its start (seeded) and
// returns a prefix of each, as the API's moves parameter.
func randomLines(r rules.Rules, n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 31))
	out := make([]string, n)
	for i := range out {
		g, _ := rules.NewGame(r)
		var words []string
		for k := rng.IntN(8); k > 0 && !g.Over(); k-- {
			legal := g.Position().LegalMoves(nil)
			m := legal[rng.IntN(len(legal))]
			words = append(words, r.MoveText(m))
			g.Play(m)
		}
		out[i] = strings.Join(words, ",")
	}
	return out
}

// BenchmarkAnalysisTableHTTP is GET /api/analysis answered from a dense
// table (alak on 9 points, as alak solve --dense writes it) through HTTP
// over loopback, with the cache of answers emptied before every request:
// each request reads the table for the position and every move, and
// (depths) reads the depths of its moves in the depths' state graph of the
// rules (enumerated by the first request and kept) or (values) does not.
// Reported: lookups/s.
func BenchmarkAnalysisTableHTTP(b *testing.B) {
	b.Run("depths", func(b *testing.B) { benchAnalysisTable(b, true) })
	b.Run("values", func(b *testing.B) { benchAnalysisTable(b, false) })
}

func benchAnalysisTable(b *testing.B, depths bool) {
	r, err := rules.Parse("alak size=9")
	if err != nil {
		b.Fatal(err)
	}
	g, _ := rules.NewGame(r)
	dir := b.TempDir()
	_, tab, err := solve.DenseSolve(context.Background(), g, solve.DenseOptions{Margins: true, Jobs: 1})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := tab.Save(dir); err != nil {
		b.Fatal(err)
	}
	h := sharedHarnessOn(b, Config{TableDir: dir}, nil)
	h.srv.analysis.Limits = httpx.NewLimiters(rate.Inf, 1)
	if !depths {
		h.srv.analysis.Positions.DepthNodes = 0
	}
	lines := randomLines(r, 1000, 1)
	hc := &http.Client{Timeout: time.Minute}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		h.srv.analysis.Positions.Forget()
		benchGet(b, hc, h.http.URL, "/api/analysis?"+url.Values{"rules": {"alak size=9"}, "moves": {lines[i%len(lines)]}}.Encode())
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lookups/s")
}

// BenchmarkExplorerHTTP is GET /api/explorer over loopback with the
// counts of ALAK_EXPLORER_GAMES (default a million) synthetic finished
// games of alak on 9 points (random legal games, random results) in a
// SQLite file, written straight into the explorer's table as
// AddExplorerGame writes them; each request asks a random prefix.
func BenchmarkExplorerHTTP(b *testing.B) {
	games := 1_000_000
	if v := os.Getenv("ALAK_EXPLORER_GAMES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			b.Fatalf("ALAK_EXPLORER_GAMES=%q: want a number of games", v)
		}
		games = n
	}
	h := sharedHarnessOn(b, Config{}, nil)
	h.srv.analysis.Limits = httpx.NewLimiters(rate.Inf, 1)
	r, _ := rules.Parse("alak size=9")
	spec := r.String()
	db := h.st.(*sqlstore.Store).DB()
	rng := rand.New(rand.NewPCG(9, 31))
	start := time.Now()
	const batch = 20_000
	for done := 0; done < games; done += batch {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		ins, err := tx.Prepare(`INSERT INTO explorer (prefix, move, rules, games, x_wins, draws, o_wins) VALUES (?, ?, ?, 1, ?, ?, ?)
			ON CONFLICT (prefix, move) DO UPDATE SET games = explorer.games + 1, x_wins = explorer.x_wins + excluded.x_wins,
			draws = explorer.draws + excluded.draws, o_wins = explorer.o_wins + excluded.o_wins`)
		if err != nil {
			b.Fatal(err)
		}
		for range min(batch, games-done) {
			if err := syntheticGame(ins, rng, r, spec); err != nil {
				b.Fatal(err)
			}
		}
		ins.Close()
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	var rows int64
	db.QueryRow(`SELECT count(*) FROM explorer`).Scan(&rows)
	b.Logf("%d synthetic games, %d rows of counts, written in %s", games, rows, time.Since(start).Round(time.Second))
	lines := randomLines(r, 1000, 2)
	hc := &http.Client{Timeout: time.Minute}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		benchGet(b, hc, h.http.URL, "/api/explorer?"+url.Values{"rules": {"alak size=9"}, "moves": {lines[i%len(lines)]}}.Encode())
		i++
	}
}

// syntheticGame plays one random game of r and counts it as the store's
// AddExplorerGame does.
func syntheticGame(ins *sql.Stmt, rng *rand.Rand, r rules.Rules, spec string) error {
	g, err := rules.NewGame(r)
	if err != nil {
		return err
	}
	var line []string
	for !g.Over() && len(line) < 60 {
		legal := g.Position().LegalMoves(nil)
		m := legal[rng.IntN(len(legal))]
		if m == rules.Resign {
			continue
		}
		if err := g.Play(m); err != nil {
			return fmt.Errorf("a synthetic game: %w", err)
		}
		line = append(line, r.MoveText(m))
	}
	res := [3]int{}
	res[rng.IntN(3)] = 1
	for i, m := range line {
		if _, err := ins.Exec(store.ExplorerKey(spec, line[:i]), m, spec, res[0], res[1], res[2]); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkAnalysisSmallLineHTTP is the analysis board on a server without
// a table directory, asked about a small line through HTTP over loopback:
// each iteration starts a server, asks one position (a random line of a
// few moves) until it is answered complete (a 202 asked again 10 ms
// later; the page asks again after a second), then 20 other positions of
// the rules, each once. Reported: first-ms, the time from the first
// request to the complete answer (the server making the table of the
// line meanwhile), and next-ms and next-max-ms, the mean and the longest
// time of the later answers (from the kept table).
func BenchmarkAnalysisSmallLineHTTP(b *testing.B) {
	for _, spec := range []string{"alak size=11", "alak size=13"} {
		b.Run(strings.ReplaceAll(spec, " size=", ""), func(b *testing.B) { benchSmallLine(b, spec) })
	}
}

func benchSmallLine(b *testing.B, spec string) {
	r, err := rules.Parse(spec)
	if err != nil {
		b.Fatal(err)
	}
	hc := &http.Client{Timeout: time.Minute}
	line := func(k int) string { return randomLines(r, 1, uint64(5000+k))[0] }
	var first, next, longest time.Duration
	nexts := 0
	i := 0
	for b.Loop() {
		b.StopTimer()
		h := sharedHarnessOn(b, Config{}, nil)
		h.srv.analysis.Limits = httpx.NewLimiters(rate.Inf, 1)
		b.StartTimer()
		q := h.http.URL + "/api/analysis?" + url.Values{"rules": {spec}, "moves": {line(i)}}.Encode()
		i++
		start := time.Now()
		for {
			resp, err := hc.Get(q)
			if err != nil {
				b.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && strings.Contains(string(body), `"complete":true`) {
				break
			}
			if resp.StatusCode != http.StatusAccepted {
				b.Fatalf("%s: %d %s", q, resp.StatusCode, body)
			}
			time.Sleep(10 * time.Millisecond)
		}
		first += time.Since(start)
		for range 20 {
			t0 := time.Now()
			benchGet(b, hc, h.http.URL, "/api/analysis?"+url.Values{"rules": {spec}, "moves": {line(i)}}.Encode())
			d := time.Since(t0)
			next += d
			longest = max(longest, d)
			nexts++
			i++
		}
		b.StopTimer()
		h.stop()
		b.StartTimer()
	}
	b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "first-ms")
	b.ReportMetric(float64(next.Microseconds())/1000/float64(nexts), "next-ms")
	b.ReportMetric(float64(longest.Microseconds())/1000, "next-max-ms")
}
