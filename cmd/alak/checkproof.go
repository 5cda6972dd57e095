package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"alak/internal/version"
	"alak/proofcheck"
	"alak/rules"
)

func init() {
	register(command{name: "check-proof", summary: "verify a proof certificate of 'alak prove --certificate' with the rules alone", run: checkProofRun})
}

const checkProofUsage = `usage: alak check-proof [--json] [--part K] [--explain] FILE
Verifies the proof certificate FILE, written by 'alak prove --certificate
FILE', with the rules kernel alone (no solver): every line of the proof is
replayed under the certificate's rules, repetition counts and prisoners
included. Parts FILE.part1, FILE.part2 ... beside it are checked one after
the other. With --part K only that part is checked (the main part is 0),
and the parts it leaves to others are listed. Prints the claim proved, the
positions checked and the time; the exit status is 1 when the certificate
does not prove its claim. With --explain the part (the main one, or
--part K) is not checked but decoded field by field, header and tree, as
docs/proofs.md describes the format: one row of a Markdown table a field
(offset, bytes in hexadecimal, field, value).`

func checkProofRun(e *env, args []string) int {
	fs := newFlagSet(e, "check-proof", checkProofUsage)
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	part := fs.Int("part", -1, "check only this part (0: the main part)")
	explain := fs.Bool("explain", false, "decode the part field by field instead of checking it (docs/proofs.md)")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return flagStatus(e, fs, err)
	}
	if len(words) != 1 {
		return fail(e, "check-proof", errors.New("give one certificate FILE (the main part; its parts FILE.part1 ... are found beside it)"))
	}
	name := words[0]
	if *explain {
		return explainRun(e, partName(name, max(*part, 0)))
	}
	ctx, stop := e.searchContext()
	defer stop()
	start := time.Now()
	var sum proofcheck.Summary
	var refs []proofcheck.Ref
	if *part >= 0 {
		f, ferr := os.Open(partName(name, *part))
		if ferr != nil {
			return fail(e, "check-proof", ferr)
		}
		var rep proofcheck.Report
		rep, err = proofcheck.Check(ctx, f)
		f.Close()
		sum = proofcheck.Summary{Header: rep.Header, Parts: 1, Nodes: rep.Nodes, Ends: rep.Ends}
		refs = rep.Refs
	} else {
		sum, err = proofcheck.CheckAll(ctx, func(k int) (io.ReadCloser, error) { return os.Open(partName(name, k)) }, nil)
	}
	secs := time.Since(start).Seconds()
	if err != nil {
		fmt.Fprintf(e.stderr, "alak check-proof: %s: %v (%d positions checked, %.2f s)\n", name, err, sum.Nodes, secs)
		if errors.Is(err, context.Canceled) {
			return exitInterrupted
		}
		return 1
	}
	if *asJSON {
		var left []string
		for _, r := range refs {
			left = append(left, partName(name, r.Part))
		}
		obj := struct {
			Claim   string   `json:"claim"`
			For     string   `json:"for"`
			Goal    string   `json:"goal"`
			Rules   string   `json:"rules"`
			Line    []string `json:"line"`
			Parts   int      `json:"parts"`
			Nodes   int64    `json:"nodes"`
			Ends    int64    `json:"ends"`
			Shared  int64    `json:"shared"`
			Refs    int64    `json:"references"`
			Seconds float64  `json:"seconds"`
			Left    []string `json:"left_to,omitempty"`
		}{sum.Claim(), sum.For.Letter(), goalName(sum.Draw), sum.Rules, movesText(sum.Rules, append(sum.Line, sum.At...)), sum.Parts, sum.Nodes, sum.Ends, sum.Shared, sum.References, secs, left}
		out, err := json.Marshal(obj)
		if err != nil {
			return fail(e, "check-proof", err)
		}
		fmt.Fprintf(e.stdout, "%s\n", out)
		return 0
	}
	fmt.Fprintf(e.stdout, "Proved: %s.\n", sum.Claim())
	shared := ""
	if sum.Shared > 0 {
		shared = fmt.Sprintf(", %d shared subtrees referred to %d times", sum.Shared, sum.References)
	}
	fmt.Fprintf(e.stdout, "%d part(s), %d positions checked (%d finished games%s), %.2f s; kernel version %d, written by alak %s.\n",
		sum.Parts, sum.Nodes, sum.Ends, shared, secs, sum.Kernel, sum.Writer)
	if len(refs) > 0 {
		fmt.Fprintf(e.stdout, "Given the parts it leaves to others:")
		for _, r := range refs {
			fmt.Fprintf(e.stdout, " %s", partName(name, r.Part))
		}
		fmt.Fprintln(e.stdout)
	}
	return 0
}

// explainRun prints the fields of the certificate part in file.
func explainRun(e *env, file string) int {
	f, err := os.Open(file)
	if err != nil {
		return fail(e, "check-proof", err)
	}
	defer f.Close()
	w := bufio.NewWriter(e.stdout)
	fmt.Fprintf(w, "| offset | bytes | field | value |\n|---:|---|---|---|\n")
	var row []byte
	err = proofcheck.Explain(f, func(fl proofcheck.Field) error {
		row = proofcheck.AppendExplained(row[:0], fl)
		_, err := w.Write(row)
		return err
	})
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "alak check-proof: %s: %v\n", file, err)
		return 1
	}
	return 0
}

func goalName(draw bool) string {
	if draw {
		return "draw"
	}
	return "win"
}

// movesText writes moves under the rules named by text.
func movesText(text string, ms []rules.Move) []string {
	r, err := rules.Parse(text)
	out := []string{}
	for _, m := range ms {
		if err == nil {
			out = append(out, r.MoveText(m))
		} else {
			out = append(out, m.String())
		}
	}
	return out
}

// partName is the file of part k of the certificate name: name itself for
// the main part, name.partK beside it for the others.
func partName(name string, k int) string {
	if k == 0 {
		return name
	}
	return name + ".part" + strconv.Itoa(k)
}

// certSummary is what writeCertificate wrote.
type certSummary struct {
	File  string `json:"file"`
	Parts int    `json:"parts"`
	Bytes int64  `json:"bytes"`
}

// writeCertificate writes the proof tree of a proof for w (with draw: of a
// draw or better) from g's position to name and its parts.
func writeCertificate(name string, partSize int, g *rules.Game, w rules.Color, draw bool, tree []byte) (certSummary, error) {
	sum := certSummary{File: name}
	h, err := proofcheck.NewHeader(g, w, draw, version.String())
	if err != nil {
		return sum, err
	}
	sum.Parts, err = proofcheck.Write(h, tree, partSize, func(k int) (io.WriteCloser, error) {
		f, err := os.Create(partName(name, k))
		return countingFile{f, &sum.Bytes}, err
	})
	return sum, err
}

// countingFile adds what it writes to n.
type countingFile struct {
	*os.File
	n *int64
}

func (f countingFile) Write(b []byte) (int, error) {
	k, err := f.File.Write(b)
	*f.n += int64(k)
	return k, err
}
