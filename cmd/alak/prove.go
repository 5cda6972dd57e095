package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"alak/rules"
	"alak/solve"
)

func init() {
	register(command{name: "prove", summary: "prove that a player can force a win (or a draw) within a number of plies", run: proveRun})
}

const proveUsage = `usage: alak prove --for x|o [--draw] [--depth N] [--rules R] [--size N] [--OPTION VALUE ...] [--json] [--table] [--graph [--prisoner-range N]] [--certificate FILE [--part-size BYTES] [--plain]] [--progress] [--cpuprofile FILE] [--proof-numbers [--counter-certificate FILE]] [--superko [--memory MB] [--budget N] [--counter-certificate FILE]] [MOVE ... | --position ROW --to-move x|o]
Searches whether the player given by --for can force a win (with --draw: a
win or a draw) from the position after the moves, against any defence,
within --depth plies. Every line is played out under the rules themselves,
repetition counts and prisoners included, so a proof holds for the game as
it stands, whatever the preset. Prints the plies the longest defence lasts
and that line; no proof within the depth proves nothing either way.
With --certificate, a proof found is written to FILE as a proof
certificate (FILE.part1, FILE.part2 ... beside it when it is longer than
--part-size), which 'alak check-proof FILE' verifies with the rules alone;
a draw proved with --table or --graph writes each state they proved once,
as a shared subtree (--plain: every line in full).
With --table, results that cannot depend on the path are shared between
histories (docs/solver-proof-search.md, "A table for the proof search"): the same
proofs, fewer positions searched. With --graph, positions the state graph
with prisoners settles end the search (a draw the graph's strategy forces,
written out into the certificate; no win where the graph has none); the
plies printed are then the proof's, not the least. With --proof-numbers,
a depth-first proof-number search replaces the iterative deepening: no
depth limit, and the claim is settled both ways (proved, or disproved:
no strategy meets it, however long the game); the plies printed are the
certificate's longest line. A disproof is the opponent's proof of the
other goal (a draw or better against a win, a win against a draw or
better): --counter-certificate FILE writes that certificate.
With --superko (positional linear Go: the tromp-taylor preset on a line of
up to 14 points), the claim is one of the bounds the solver of 'alak solve'
proves there, a win or a draw with the komi ("Black's margin is at least
2" is --for x --komi 1.5): it is settled both ways, with a table of
--memory megabytes, and the certificate follows the solver's proof, each
state written once where the history allows (docs/proofs.md, format 4).
--budget N bounds the positions of each question asked of the solver; a
question cut off is split into its moves', as 'alak solve --split' does.`

func proveRun(e *env, args []string) int {
	fs := newFlagSet(e, "prove", proveUsage)
	buildRules := rulesFlags(fs)
	who := fs.String("for", "", "the player to prove for: x or o")
	draw := fs.Bool("draw", false, "a draw is enough (refutes a claim that the other player wins)")
	depth := fs.Int("depth", 40, "the most plies to search")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	certFile := fs.String("certificate", "", "write the proof, when one is found, to this file as a proof certificate")
	partSize := fs.Int("part-size", 1<<30, "with --certificate: the most bytes of proof tree in one file; beyond, parts FILE.part1 ...")
	certMB := fs.Int("certificate-mb", 4096, "with --certificate: the most megabytes the proof tree may take in memory")
	plain := fs.Bool("plain", false, "with --certificate: write every line of the proof in full, without shared subtrees")
	numbers := fs.Bool("proof-numbers", false, "search by depth-first proof-number search: no depth limit, and a claim that does not hold is disproved (docs/solver-proof-search.md, \"5c\")")
	counterFile := fs.String("counter-certificate", "", "with --proof-numbers: when the claim is disproved, write the opponent's proof (a draw or better against a win, a win against a draw) to this file as a certificate")
	progress := fs.Bool("progress", false, "print a line to standard error after each depth searched without a proof, or with --proof-numbers every 4,194,304 positions (on a terminal the count is always shown, on one line)")
	table := fs.Bool("table", false, "share results between histories where that is sound (docs/solver-proof-search.md, \"A table for the proof search\")")
	tableEntries := fs.Int("table-entries", 30_000_000, "with --table, or --proof-numbers: the most entries the table holds")
	noWins := fs.Bool("no-shared-wins", false, "with --table and --proof-numbers: do not share wins between histories (for measurements; docs/solver-proof-search.md, \"Wins by state\")")
	graph := fs.Bool("graph", false, "settle positions by the state graph with prisoners (docs/solver-proof-search.md, \"The state graph with prisoners\")")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the search to this file (go tool pprof reads it)")
	superko := fs.Bool("superko", false, "positional linear Go: prove the claim by the solver of 'alak solve' (a bound with the komi) and write its certificate (docs/proofs.md)")
	memory := fs.Int("memory", 256, "with --superko: the megabytes of the solver's table")
	budget := fs.Int64("budget", 0, "with --superko: the most positions a question to the solver searches before it is split into its moves' (0: no limit)")
	prisoners := fs.Int("prisoner-range", 0, "with --graph: the prisoner difference beyond which states are settled by passing out (default twice the points plus the komi, plus 1)")
	setup := setupFlags(fs)
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return flagStatus(e, fs, err)
	}
	if *who == "" {
		return fail(e, "prove", errors.New("--for x or --for o: say whose win (or draw) to prove"))
	}
	w, err := rules.ParseColor(*who)
	if err != nil {
		return fail(e, "prove", fmt.Errorf("--for: %w", err))
	}
	if *depth < 0 || *depth > 1000 {
		return fail(e, "prove", fmt.Errorf("--depth %d: give a number of plies from 0 to 1000", *depth))
	}
	if *partSize < 1 || *certMB < 1 || *tableEntries < 1 {
		return fail(e, "prove", fmt.Errorf("--part-size %d, --certificate-mb %d, --table-entries %d: give positive numbers", *partSize, *certMB, *tableEntries))
	}
	r, err := buildRules()
	if err != nil {
		return fail(e, "prove", err)
	}
	g, err := setup(r, words).Game()
	if err != nil {
		return fail(e, "prove", err)
	}
	if *counterFile != "" && !*numbers && !*superko {
		return fail(e, "prove", errors.New("--counter-certificate needs --proof-numbers or --superko: only those searches disprove a claim"))
	}
	if *superko && (*numbers || *table || *graph) {
		return fail(e, "prove", errors.New("--superko proves by the positional linear Go solver; --proof-numbers, --table and --graph are other searches: give one or the other"))
	}
	if *memory < 1 || *budget < 0 {
		return fail(e, "prove", fmt.Errorf("--memory %d, --budget %d: give a positive number of megabytes and a budget of 0 (none) or more positions", *memory, *budget))
	}
	if *graph {
		if _, err := solve.GraphRange(r, *prisoners); err != nil {
			return fail(e, "prove", fmt.Errorf("--graph: %w", err))
		}
	}
	if *cpuprofile != "" {
		stopProfile, err := startCPUProfile(*cpuprofile)
		if err != nil {
			return fail(e, "prove", err)
		}
		defer stopProfile()
	}
	ctx, stop := e.searchContext()
	defer stop()
	start := time.Now()
	opt := solve.ProveOptions{Draw: *draw, Depth: *depth, Certificate: *certFile != "", CertificateMB: *certMB, Plain: *plain,
		Table: *table, TableEntries: *tableEntries, NoSharedWins: *noWins, Graph: *graph, Prisoners: *prisoners, ProofNumbers: *numbers, Counter: *counterFile != "",
		Superko: *superko, MemoryMB: *memory, Budget: *budget}
	searchedWhat := "proof numbers: %d positions, %d table entries, %s elapsed"
	if *superko {
		searchedWhat = "superko: %d positions searched, %d written, %s elapsed"
	}
	switch {
	case *progress:
		opt.Progress = func(d int, nodes int64) {
			fmt.Fprintf(e.stderr, "no proof within %d plies; %d positions, %s elapsed\n", d, nodes, time.Since(start).Round(time.Second))
		}
		opt.Searched = func(nodes int64, entries int) {
			fmt.Fprintf(e.stderr, searchedWhat+"\n", nodes, entries, time.Since(start).Round(time.Second))
		}
	case e.terminal:
		opt.Progress = func(d int, nodes int64) {
			el := time.Since(start)
			fmt.Fprintf(e.stderr, "\rno proof within %d plies; %d positions, %s elapsed   ", d, nodes, el.Round(time.Second))
		}
		opt.Searched = func(nodes int64, entries int) {
			fmt.Fprintf(e.stderr, "\r"+searchedWhat+"   ", nodes, entries, time.Since(start).Round(time.Second))
		}
	}
	pr, perr := solve.Prove(ctx, g, w, opt)
	if e.terminal {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	secs := time.Since(start).Seconds()
	goal := "win"
	if *draw {
		goal = "draw"
	}
	pv := solveMoveList(g.Rules(), pr.PV)
	var cert certSummary
	if pr.Proved && perr == nil && *certFile != "" {
		if cert, err = writeCertificate(*certFile, *partSize, g, w, *draw, pr.Tree); err != nil {
			fmt.Fprintf(e.stderr, "alak prove: the proof holds, but its certificate was not written: %v\n", err)
			return 1
		}
	}
	var counter certSummary
	if pr.Disproved && perr == nil && *counterFile != "" {
		if counter, err = writeCertificate(*counterFile, *partSize, g, w.Opp(), !*draw, pr.Counter); err != nil {
			fmt.Fprintf(e.stderr, "alak prove: the disproof holds, but the opponent's certificate was not written: %v\n", err)
			return 1
		}
	}
	if *asJSON {
		obj := struct {
			For     string       `json:"for"`
			Goal    string       `json:"goal"`
			Proved  bool         `json:"proved"`
			Dispr   bool         `json:"disproved,omitempty"`
			Plies   int          `json:"plies"`
			PV      []string     `json:"pv"`
			Nodes   int64        `json:"nodes"`
			Seconds float64      `json:"seconds"`
			Cert    *certSummary `json:"certificate,omitempty"`
			Counter *certSummary `json:"counter_certificate,omitempty"`
			Hits    int64        `json:"table_hits,omitempty"`
			Stored  int64        `json:"table_stored,omitempty"`
			// With --proof-numbers --table: draws taken by their
			// window, wins taken from other lines and refused there.
			Windows   int64 `json:"table_window_hits,omitempty"`
			WinHits   int64 `json:"table_win_hits,omitempty"`
			WinMisses int64 `json:"table_win_misses,omitempty"`
			// How a certificate of a win shared its subtrees (the
			// line "Shared wins written" of the text output).
			Subtrees      int64 `json:"win_subtrees,omitempty"`
			SubtreesAgain int64 `json:"win_subtrees_again,omitempty"`
			References    int64 `json:"win_references,omitempty"`
			InLine        int64 `json:"win_subtrees_in_line,omitempty"`
		}{For: w.Letter(), Goal: goal, Proved: pr.Proved, Dispr: pr.Disproved, Plies: pr.Plies, PV: pv, Nodes: pr.Nodes, Seconds: secs,
			Hits: pr.TableHits, Stored: pr.TableStored, Windows: pr.WindowHits, WinHits: pr.WinHits, WinMisses: pr.WinMisses}
		if cert.Parts > 0 || counter.Parts > 0 {
			obj.Subtrees, obj.SubtreesAgain, obj.References, obj.InLine = pr.WinSubtrees, pr.WinSubtreesAgain, pr.WinReferences, pr.WinSubtreesInLine
		}
		if cert.Parts > 0 {
			obj.Cert = &cert
		}
		if counter.Parts > 0 {
			obj.Counter = &counter
		}
		out, err := json.Marshal(obj)
		if err != nil {
			return fail(e, "prove", err)
		}
		fmt.Fprintf(e.stdout, "%s\n", out)
	} else {
		what := "a win"
		if *draw {
			what = "a draw or better"
		}
		switch {
		case pr.Proved && *superko:
			fmt.Fprintf(e.stdout, "%c can force %s (%d positions, %.2f s).\n", w.Symbol(), what, pr.Nodes, secs)
			if cert.Parts > 0 {
				fmt.Fprintf(e.stdout, "Certificate: %s (%d bytes, %d positions, longest line %d plies); check it with: alak check-proof %s\n", cert.File, cert.Bytes, pr.Written, pr.Plies, cert.File)
				printSuperkoSubtrees(e, pr)
			}
		case pr.Proved && *numbers && len(pr.Tree) == 0:
			fmt.Fprintf(e.stdout, "%c can force %s (%d positions, %.2f s; --certificate writes the proof and its longest line).\n", w.Symbol(), what, pr.Nodes, secs)
		case pr.Proved:
			fmt.Fprintf(e.stdout, "%c can force %s within %d plies (%d positions, %.2f s).\n", w.Symbol(), what, pr.Plies, pr.Nodes, secs)
			label := "Longest defence"
			if perr != nil {
				label += " (cut off)"
			}
			if len(pv) > 0 || perr != nil {
				fmt.Fprintf(e.stdout, "%s: %s\n", label, strings.Join(pv, " "))
			}
			switch {
			case *numbers && *table:
				fmt.Fprintf(e.stdout, "Table: %d draws taken by their window, %d wins taken from other lines, %d refused there by the history.\n", pr.WindowHits, pr.WinHits, pr.WinMisses)
			case *numbers:
			case *table || *graph:
				fmt.Fprintf(e.stdout, "Table: %d results stored, %d used (graph and table).\n", pr.TableStored, pr.TableHits)
			}
			if cert.Parts > 0 {
				fmt.Fprintf(e.stdout, "Certificate: %s (%d bytes in %d part(s)); check it with: alak check-proof %s\n", cert.File, cert.Bytes, cert.Parts, cert.File)
				printWinSubtrees(e, pr)
			}
		case perr == nil && pr.Disproved:
			fmt.Fprintf(e.stdout, "Disproved: %c cannot force %s, however long the game (%d positions, %.2f s).\n", w.Symbol(), what, pr.Nodes, secs)
			if counter.Parts > 0 {
				other := "a win"
				if !*draw {
					other = "a draw or better"
				}
				fmt.Fprintf(e.stdout, "Certificate that %c can force %s, %d plies at most: %s (%d bytes in %d part(s)); check it with: alak check-proof %s\n", w.Opp().Symbol(), other, pr.CounterPlies, counter.File, counter.Bytes, counter.Parts, counter.File)
				if *superko {
					printSuperkoSubtrees(e, pr)
				} else {
					printWinSubtrees(e, pr)
				}
			}
		case perr == nil:
			fmt.Fprintf(e.stdout, "No proof that %c can force %s within %d plies (%d positions, %.2f s): a deeper search may find one, or it does not hold.\n", w.Symbol(), what, *depth, pr.Nodes, secs)
			if *certFile != "" {
				fmt.Fprintf(e.stdout, "No certificate written to %s.\n", *certFile)
			}
		}
	}
	if perr != nil {
		if pr.Proved {
			fmt.Fprintf(e.stderr, "alak prove: %v\n", perr)
		} else {
			fmt.Fprintf(e.stderr, "alak prove: %v; nothing was proved\n", perr)
		}
		if ctx.Err() != nil {
			return exitInterrupted
		}
		return 1
	}
	return 0
}

// printSuperkoSubtrees says how a certificate of --superko shared its
// subtrees (docs/proofs.md, format 4).
func printSuperkoSubtrees(e *env, pr solve.Proof) {
	fmt.Fprintf(e.stdout, "Shared subtrees: %d kept, %d references to them; %d more no reference named, written in line.\n", pr.WinSubtrees, pr.WinReferences, pr.WinSubtreesInLine)
}

// printWinSubtrees says how a certificate of a win shared its subtrees
// (docs/solver-proofs.md, "In a proof of a win").
func printWinSubtrees(e *env, pr solve.Proof) {
	if pr.WinSubtrees > 0 || pr.WinReferences > 0 {
		fmt.Fprintf(e.stdout, "Shared wins written: %d subtrees (%d at a state whose earlier ones did not hold on the line), %d references; %d more no reference named, written in line.\n", pr.WinSubtrees, pr.WinSubtreesAgain, pr.WinReferences, pr.WinSubtreesInLine)
	}
}
