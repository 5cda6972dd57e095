package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"alak/server/internal/accounts"
	"alak/server/store"
	"alak/wire"
)

// benchParallelism is how many clients per CPU play at once in
// BenchmarkMoveHTTP: more than one, so that the server always has a move
// to work on while another waits for the disk, and the group commit has
// writes to gather.
const benchParallelism = 4

// BenchmarkMoveHTTP is the move path end to end: a real server on
// loopback over a real SQLite file (WAL, synchronous=FULL), with
// benchParallelism×GOMAXPROCS clients, each playing its own games of
// alak size=11 (live clock, the real time) between two accounts with
// bearer tokens, alternating sides, a legal move picked at random from
// the answer with the right ply, and a new game when one ends. One op is
// one move acknowledged; the time of creating and joining games is
// counted in (it is one move's worth every few dozen moves; games/op says
// how many). The accounts are made in the store, not through sign-up:
// argon2 is the sign-in's cost, not the move's.
//
// Beside moves/s it reports where a move's time goes, as wall time per
// move summed over the clients (so with several clients at once these may
// add up to more than ns/op): write-µs in Store.Update (the wait for the
// group commit to take the write, the batch's transaction and its fsync),
// read-µs in the store's reads (the game and its log, the token, the
// players' names: the server's caches leave only the first of each), and
// act-µs from the game's lock to the stored change; writes/batch is the
// group commit's mean batch (creations and joins included).
//
// The clients run in the same process as the server, so a CPU profile of
// it (go test -bench MoveHTTP -cpuprofile) holds both; docs/load.md has
// the figures, and the load tool's (alak loadtest) on a real process.
func BenchmarkMoveHTTP(b *testing.B) {
	ts := &timedStore{}
	h := sharedHarnessOn(b, Config{Now: time.Now}, func(st store.Store) store.Store { ts.Store = st; return ts })
	ctx := context.Background()
	n := benchParallelism * runtime.GOMAXPROCS(0)
	type side struct{ name, token string }
	pairs := make([][2]side, n)
	now := time.Now()
	for i := range pairs {
		for j := range 2 {
			name := fmt.Sprintf("p%d%c", i, "xo"[j])
			a, err := h.st.CreateAccount(ctx, store.Account{Name: name, Created: now})
			if err != nil {
				b.Fatal(err)
			}
			secret, hash := accounts.NewSecret()
			if err := h.st.CreateToken(ctx, store.Token{Hash: hash, AccountID: a.ID, Kind: store.TokenAPI, Created: now, Expires: now.Add(accounts.APITokenLife)}); err != nil {
				b.Fatal(err)
			}
			pairs[i][j] = side{name, secret}
		}
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * n}, Timeout: time.Minute}
	post := func(token, path string, body any, out any) (int, error) {
		data, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		req, err := http.NewRequest("POST", h.http.URL+path, bytes.NewReader(data))
		if err != nil {
			return 0, err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := hc.Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		raw, err := io.ReadAll(resp.Body)
		if err != nil {
			return resp.StatusCode, err
		}
		if resp.StatusCode/100 != 2 {
			return resp.StatusCode, fmt.Errorf("POST %s: %d %s", path, resp.StatusCode, raw)
		}
		return resp.StatusCode, json.Unmarshal(raw, out)
	}
	// state is what a client reads of an answer.
	type state struct {
		ID     string `json:"id"`
		Ply    int    `json:"ply"`
		Over   bool   `json:"over"`
		ToMove string `json:"to_move"`
		Legal  []any  `json:"legal"`
	}
	var next, games atomic.Int64
	ts.reset()
	acts, actNanos := h.srv.metrics.moveRequests.Load(), h.srv.metrics.moveNanos.Load()
	b.ResetTimer()
	b.SetParallelism(benchParallelism)
	b.RunParallel(func(pb *testing.PB) {
		i := next.Add(1) - 1
		p := pairs[i]
		rng := rand.New(rand.NewPCG(uint64(i), 2026))
		var g state
		for pb.Next() {
			if g.ID == "" || g.Over {
				var c wire.Created
				if _, err := post(p[0].token, "/api/games", map[string]string{"rules": "alak size=11", "color": "x", "clock": "live:3h+10s", "opponent": p[1].name}, &c); err != nil {
					b.Error(err)
					return
				}
				if _, err := post(p[1].token, "/api/games/"+c.ID+"/join", struct{}{}, &g); err != nil {
					b.Error(err)
					return
				}
				games.Add(1)
			}
			mover := p[0]
			if g.ToMove == "o" {
				mover = p[1]
			}
			m := g.Legal[rng.IntN(len(g.Legal))]
			move := fmt.Sprint(m)
			if f, ok := m.(float64); ok {
				move = strconv.Itoa(int(f))
			}
			id, ply := g.ID, g.Ply
			g = state{}
			if _, err := post(mover.token, "/api/games/"+id+"/moves", map[string]any{"move": move, "ply": ply}, &g); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
	b.ReportMetric(float64(games.Load())/float64(b.N), "games/op")
	perMove := func(nanos int64) float64 { return float64(nanos) / 1e3 / float64(b.N) }
	b.ReportMetric(perMove(ts.write.Load()), "write-µs")
	b.ReportMetric(perMove(ts.read.Load()), "read-µs")
	b.ReportMetric(float64(h.srv.metrics.moveNanos.Load()-actNanos)/1e3/float64(h.srv.metrics.moveRequests.Load()-acts), "act-µs")
	if gc, ok := ts.Store.(interface{ WriterStats() (int64, int64) }); ok {
		if batches, writes := gc.WriterStats(); batches > 0 {
			b.ReportMetric(float64(writes)/float64(batches), "writes/batch")
		}
	}
}

// timedStore adds up the wall time spent in a store's writes of games and
// in its reads on the move path.
type timedStore struct {
	store.Store
	write, read atomic.Int64
}

func (t *timedStore) reset() { t.write.Store(0); t.read.Store(0) }

func (t *timedStore) Update(ctx context.Context, g store.Game, prev store.Game, entries []store.Entry) error {
	defer t.since(&t.write, time.Now())
	return t.Store.Update(ctx, g, prev, entries)
}

func (t *timedStore) Game(ctx context.Context, id string) (store.Game, []store.Entry, error) {
	defer t.since(&t.read, time.Now())
	return t.Store.Game(ctx, id)
}

func (t *timedStore) AccountByID(ctx context.Context, id int64) (store.Account, error) {
	defer t.since(&t.read, time.Now())
	return t.Store.AccountByID(ctx, id)
}

func (t *timedStore) TokenAccount(ctx context.Context, hash string, now time.Time) (store.Account, store.Token, error) {
	defer t.since(&t.read, time.Now())
	return t.Store.TokenAccount(ctx, hash, now)
}

func (t *timedStore) since(sum *atomic.Int64, start time.Time) { sum.Add(int64(time.Since(start))) }
