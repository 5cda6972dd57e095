package main

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime/pprof"
	"runtime/trace"
	"sort"
	"strings"
	"time"

	"alak/loadtest"
)

func init() {
	register(command{name: "loadtest", summary: "load a play server on this machine with simulated players and check that no move is lost", run: loadtestRun})
}

const loadtestUsage = `usage: alak loadtest --url http://127.0.0.1:8080 [--url ...] --games N --rate MOVES_PER_S --duration D [--streams N] [--busy N] [--json] [--latencies FILE] [--cpuprofile FILE] [--trace FILE]
Creates accounts and games through the API of a server on this machine
(start it with a high --signup-rate and --game-rate), plays them with concurrent simulated
players who follow the event streams, and prints moves per second, the
latency from a move's request to its acknowledgement and from the
acknowledgement to the opponent's event (p50, p95, p99), the errors by
kind, and the moves lost or applied twice, found by reading every game back
at the end. The accounts, the first games and their streams (and the
spectators') are set up before the clock starts: the run measures the
games under way. With several --url (processes of one server on one database)
the accounts are spread over them, each talking to its own. --streams adds
spectators, each watching a game under way and then another. --busy N runs
N processes beside the moves that each keep one core busy (a neighbour
wanting the CPU), stopped at the end; the report gives the CPU they got.
--latencies FILE writes every move's and event's latency, with when it
came, as CSV.
It targets only loopback addresses and stops by itself. docs/load.md has
the figures.`

func loadtestRun(e *env, args []string) int {
	fs := newFlagSet(e, "loadtest", loadtestUsage)
	var urls urlList
	fs.Var(&urls, "url", "the server, on this machine; again for each process of a server on one database (default http://127.0.0.1:8080)")
	games := fs.Int("games", 100, fmt.Sprintf("games played at once (1 to %d)", loadtest.MaxGames))
	rate := fs.Float64("rate", 100, "moves a second, all games together")
	duration := fs.Duration("duration", 30*time.Second, "how long to play (at most 1h)")
	accounts := fs.Int("accounts", 0, "accounts the games are spread over (default: a tenth of --games)")
	streams := fs.Int("streams", 0, "spectator event streams to hold open besides the players'")
	busy := fs.Int("busy", 0, "processes that each keep one core busy while the moves are made (0 to the machine's cores)")
	rulesText := fs.String("rules", "alak size=11", "the games' rules")
	clock := fs.String("clock", "none", "the games' clock")
	seed := fs.Uint64("seed", 1, "seed of the players' moves")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	latencies := fs.String("latencies", "", "write every move's and every event's latency to this file, as CSV (kind,at_ms,ms): when the slow ones came")
	cpuprofile := fs.String("cpuprofile", "", "write the load tool's own CPU profile to this file (is the tool the bottleneck?)")
	traceFile := fs.String("trace", "", "write the load tool's own execution trace (go tool trace) to this file: for short runs")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return flagStatus(e, fs, err)
	}
	if len(words) > 0 {
		return fail(e, "loadtest", fmt.Errorf("unexpected argument %q", words[0]))
	}
	if len(urls) == 0 {
		urls = urlList{"http://127.0.0.1:8080"}
	}
	if *cpuprofile != "" {
		stopProfile, err := startCPUProfile(*cpuprofile)
		if err != nil {
			return fail(e, "loadtest", err)
		}
		defer stopProfile()
	}
	if *traceFile != "" {
		stopTrace, err := startTrace(*traceFile)
		if err != nil {
			return fail(e, "loadtest", err)
		}
		defer stopTrace()
	}
	cfg := loadtest.Config{URLs: urls, Games: *games, Rate: *rate, Duration: *duration, Accounts: *accounts, Streams: *streams,
		Busy: *busy, Rules: *rulesText, Clock: *clock, Seed: *seed}
	if *latencies != "" {
		f, err := os.Create(*latencies)
		if err != nil {
			return fail(e, "loadtest", fmt.Errorf("--latencies: %w", err))
		}
		defer f.Close()
		cfg.Latencies = f
	}
	if e.terminal {
		cfg.Progress = func(r loadtest.Report) {
			fmt.Fprintf(e.stderr, "\r%.0fs: %d moves, %.0f/s, p99 %.1f ms, %d streams   ", r.Seconds, r.Moves, r.MovesPerS, r.P99, r.Streams)
		}
	}
	ctx, stop := e.searchContext()
	defer stop()
	rep, err := loadtest.Run(ctx, cfg)
	if e.terminal {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	if err != nil && rep.Seconds == 0 {
		return fail(e, "loadtest", err)
	}
	if *asJSON {
		data, _ := json.Marshal(rep)
		fmt.Fprintf(e.stdout, "%s\n", data)
	} else {
		fmt.Fprintf(e.stdout, "%d moves in %.1f s: %.1f moves/s, %d games (%d finished), %d streams open at the end (%d at most), %d servers\n",
			rep.Moves, rep.Seconds, rep.MovesPerS, rep.Games, rep.Finished, rep.Streams, rep.StreamsMax, rep.URLs)
		fmt.Fprintf(e.stdout, "set up in %.1f s before the clock: the accounts, the first games, %d streams open at the start\n", rep.SetupS, rep.StreamsAtStart)
		fmt.Fprintf(e.stdout, "request to acknowledgement: p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms\n", rep.P50, rep.P95, rep.P99, rep.Max)
		fmt.Fprintf(e.stdout, "acknowledgement to the opponent's event: p50 %.2f ms, p95 %.2f ms, p99 %.2f ms (%d events)\n", rep.EventP50, rep.EventP95, rep.EventP99, rep.Events)
		kinds := make([]string, 0, len(rep.Errors))
		for k := range rep.Errors {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		if len(kinds) == 0 {
			fmt.Fprintln(e.stdout, "errors: none")
		}
		for _, k := range kinds {
			fmt.Fprintf(e.stdout, "errors: %s: %d\n", k, rep.Errors[k])
		}
		fmt.Fprintf(e.stdout, "lost: %d, doubled: %d (of unknown outcome: %d requests unanswered, %d answered 5xx)\n", rep.Lost, rep.Doubled, rep.Unanswered, rep.ServerErrors)
		fmt.Fprintf(e.stdout, "the tool's own CPU: %.1f s; load average at the start %s, at the end %s\n", rep.ToolCPU, rep.LoadAvg[0], rep.LoadAvg[1])
		if rep.Busy > 0 {
			fmt.Fprintf(e.stdout, "busy loops: %d, %.1f s of CPU (%.2f cores over the run)\n", rep.Busy, rep.BusyCPU, rep.BusyCPU/rep.Seconds)
		}
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "alak loadtest: %v\n", err)
		return 1
	}
	if rep.Lost > 0 || rep.Doubled > 0 {
		fmt.Fprintf(e.stderr, "alak loadtest: %s\n", strings.TrimSpace(fmt.Sprintf("%d acknowledged moves lost, %d doubled", rep.Lost, rep.Doubled)))
		return 1
	}
	return 0
}

// startTrace writes the execution trace to path until the returned
// function is called (--trace of alak serve and alak loadtest).
// startCPUProfile starts a CPU profile written to path (--cpuprofile);
// the function it returns stops it.
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

func startTrace(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--trace: %w", err)
	}
	if err := trace.Start(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--trace: %w", err)
	}
	return func() {
		trace.Stop()
		f.Close()
	}, nil
}

// urlList is a flag given once per server.
type urlList []string

func (l *urlList) String() string { return strings.Join(*l, ",") }

func (l *urlList) Set(v string) error {
	for u := range strings.SplitSeq(v, ",") {
		if u = strings.TrimSpace(u); u != "" {
			*l = append(*l, u)
		}
	}
	return nil
}
