package main

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"alak/rules"
	"alak/solve"
)

// TestSolveLabTable: the rule lab's table on 1 to 6 points. Its header
// names the preset and every variant; the alak column is docs/results.md's
// alak table (1, -1, 1, -2, 1, 0 and the same best openings); every other
// cell is solve.Solve's value and best openings for that variant; the
// column table names the method of each (the dense solver for all but
// the safe-eye columns, which the state graph answers).
func TestSolveLabTable(t *testing.T) {
	out, errOut, code := solveSession(t, "solve", "--table", "--variants", "all", "--sizes", "1-6", "--jobs", "2")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	cols := append([]solve.Variant{{}}, solve.LabVariants()...)
	head := "| size |"
	for _, v := range cols {
		head += " " + v.String() + " |"
	}
	if len(lines) != 2+6+1+2+len(cols) || lines[0] != head+" seconds |" || lines[1] != "|---:|"+strings.Repeat(":---|", len(cols))+"---:|" {
		t.Fatalf("table:\n%s", out)
	}
	results := []string{"1 (all)", "-1 (all)", "1 (2)", "-2 (all)", "1 (2 3 4)", "0 (all)"} // docs/results.md, alak
	for n := 1; n <= 6; n++ {
		cells := strings.Split(strings.Trim(lines[1+n], "| "), " | ")
		if len(cells) != len(cols)+2 || cells[0] != fmt.Sprint(n) {
			t.Fatalf("row %d: %q", n, lines[1+n])
		}
		if cells[1] != results[n-1] {
			t.Errorf("alak %d: %q, docs/results.md has %q", n, cells[1], results[n-1])
		}
		for k, v := range cols {
			r, err := v.Rules(n)
			if err != nil {
				t.Fatal(err)
			}
			g, err := rules.NewGame(r)
			if err != nil {
				t.Fatal(err)
			}
			res, err := solve.Solve(context.Background(), g, solve.Options{MemoryMB: 256})
			if err != nil {
				t.Fatal(err)
			}
			if want := solve.LabCellOf(r, res, nil).Text(); cells[1+k] != want {
				t.Errorf("%v %d: %q, Solve gives %q", v, n, cells[1+k], want)
			}
		}
	}
	if lines[8] != "" || !strings.HasPrefix(lines[9], "| column | rules | method | seconds | not solved |") {
		t.Errorf("no column table after the rows:\n%s", out)
	}
	for k, v := range cols {
		line := lines[len(lines)-len(cols)+k]
		method := "1b (dense) |" // (own=illegal on 1 point: over at once, given by Solve)
		if v.Option == "safe" {
			method = "| 1 (state graph) |" // the dense index has no room for safe points
		}
		if !strings.HasPrefix(line, "| "+v.String()+" | alak") || !strings.Contains(line, method) || !strings.HasSuffix(line, "| – |") {
			t.Errorf("column %v: %q, want its rules and %s", v, line, method)
		}
	}
}

// TestSolveLabMemory: a column whose solve outgrows --memory says "not
// solved" at that size, is not tried at larger ones, and the column table
// says why; the other columns go on. With --memory 1 the dense solver's
// bitmaps (about 0.31 bytes a state without margins) fit own=together's
// 1,447,552 states on 12 points and not its 4,534,686 on 13, and fit
// ko=none's smaller index on 13 points.
func TestSolveLabMemory(t *testing.T) {
	t.Parallel() // seconds of the processor in this process: they overlap the other tests' waits
	out, errOut, code := computeSession(t, "solve", "--table", "--variants", "own=together,ko=none", "--sizes", "12-14", "--memory", "1")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 11 {
		t.Fatalf("table:\n%s", out)
	}
	cell := func(row, col int) string { return strings.Split(strings.Trim(lines[row], "| "), " | ")[col] }
	if cell(2, 2) != "0 (all)" || cell(3, 2) != "not solved" || cell(4, 2) != "–" || cell(3, 3) != "0 (all)" {
		t.Fatalf("table:\n%s", out)
	}
	if !strings.HasPrefix(lines[9], "| own=together |") || !strings.Contains(lines[9], "at 13 points") || !strings.Contains(lines[9], "memory") {
		t.Errorf("column table: %q", lines[9])
	}

}

// TestSolveLabJSON: --json prints the rule lab's table as one JSON object
// (solve.LabTable) whose cells are the Markdown table's, cell for cell,
// with the columns' rules and methods; two cells are docs/rulelab.md's:
// edge=off on 5 points, 1 (1 3 5), and safe=eye on 5 points, 2 (2 4).
func TestSolveLabJSON(t *testing.T) {
	args := []string{"solve", "--table", "--variants", "edge=off,safe=eye", "--sizes", "1-5"}
	md, errOut, code := solveSession(t, args...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	out, errOut, code := solveSession(t, append(args, "--json")...)
	if code != 0 || strings.Count(out, "\n") != 1 {
		t.Fatalf("status %d, not one line: %s %s", code, out, errOut)
	}
	var lab solve.LabTable
	if err := json.Unmarshal([]byte(out), &lab); err != nil {
		t.Fatal(err)
	}
	want := []solve.LabColumn{
		{Variant: "alak", Rules: "alak", Methods: []solve.Method{solve.MethodDense}},
		{Variant: "edge=off", Option: "edge", Value: "off", Rules: "alak edge=off", Methods: []solve.Method{solve.MethodDense}},
		{Variant: "safe=eye", Option: "safe", Value: "eye", Rules: "alak safe=eye", Methods: []solve.Method{solve.MethodSearch}},
	}
	for k := range lab.Columns {
		lab.Columns[k].Seconds = 0
	}
	if !reflect.DeepEqual(lab.Columns, want) {
		t.Errorf("columns %+v, want %+v", lab.Columns, want)
	}
	lines := strings.Split(md, "\n")
	if len(lab.Rows) != 5 {
		t.Fatalf("%d rows: %s", len(lab.Rows), out)
	}
	for i, row := range lab.Rows {
		cells := strings.Split(strings.Trim(lines[2+i], "| "), " | ")
		if row.Size != i+1 || len(row.Cells) != 3 {
			t.Fatalf("row %d: %+v", i, row)
		}
		for k, c := range row.Cells {
			if c == nil || c.Text() != cells[1+k] || c.Seconds < 0 {
				t.Errorf("size %d, %s: JSON %+v, Markdown %q", row.Size, want[k].Variant, c, cells[1+k])
			}
		}
	}
	if c := lab.Rows[4].Cells[1]; *c.Value != 1 || c.Outcome != "x" || !reflect.DeepEqual(c.Best, []string{"1", "3", "5"}) || c.All || c.Openings != 5 {
		t.Errorf("edge=off on 5 points: %+v, docs/rulelab.md has 1 (1 3 5)", c)
	}
	if c := lab.Rows[4].Cells[2]; c.Text() != "2 (2 4)" || c.Openings != 5 {
		t.Errorf("safe=eye on 5 points: %+v, docs/rulelab.md has 2 (2 4) (no eye to declare on the empty line)", c)
	}

	// A column that outgrows --memory (safe=field's state graph, 2099
	// positions and more on 6 points, in 1 MB): the cell has its error
	// and no value, the column's later cells are null, and the column
	// says why it stopped; safe=field on 4 points is docs/rulelab.md's
	// -1 (1 2 3 4 *2 *3), of 8 openings (4 placements, 4 declarations).
	out, errOut, code = solveSession(t, "solve", "--table", "--variants", "safe=field", "--sizes", "4-7", "--memory", "1", "--json")
	lab = solve.LabTable{}
	if err := json.Unmarshal([]byte(out), &lab); code != 0 || err != nil || len(lab.Rows) != 4 || len(lab.Columns) != 2 {
		t.Fatalf("status %d, %v: %s %s", code, err, out, errOut)
	}
	if c := lab.Rows[0].Cells[1]; c.Text() != "-1 (1 2 3 4 *2 *3)" || c.Openings != 8 || c.Outcome != "o" {
		t.Errorf("safe=field on 4 points: %+v", c)
	}
	if c := lab.Rows[2].Cells[1]; c == nil || c.Value != nil || c.Text() != "not solved" || !strings.Contains(c.Error, "memory") || lab.Rows[3].Cells[1] != nil ||
		!strings.HasPrefix(lab.Columns[1].Stopped, "at 6 points: ") || lab.Rows[3].Cells[0].Text() != "1 (2 4 6)" {
		t.Errorf("safe=field stopped at 6 points: %s", out)
	}
}

// TestSolveLabRefused: inputs the rule lab refuses, each with a sentence
// saying why (exit status 2).
func TestSolveLabRefused(t *testing.T) {
	table := []string{"solve", "--table", "--sizes", "1-3", "--variants"}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"superko", append(table, "ko=superko"), "ko=superko: under these rules a position's value depends on the game's history"},
		{"passing", append(table, "pass=on"), "count of passes"},
		{"prisoners", append(table, "all,score=territory"), "prisoners"},
		{"no repetition rule", append(table, "repetition=off"), "need not end"},
		{"the preset's value", append(table, "edge=on"), "the alak preset's own value"},
		{"no effect", append(table, "unchanged=on"), "no effect"},
		{"twice", append(table, "all,own=illegal"), "listed twice"},
		{"not an option", append(table, "edge"), "NAME=VALUE"},
		{"without --table", []string{"solve", "--variants", "all"}, "--table"},
		{"another preset", []string{"solve", "--rules", "traditional", "--table", "--sizes", "1-3", "--variants", "all"}, "the alak preset"},
		{"a rule option", []string{"solve", "--edge", "off", "--table", "--sizes", "1-3", "--variants", "all"}, "no rule options"},
		{"with --dense", []string{"solve", "--dense", "--table", "--sizes", "1-3", "--variants", "all"}, "not with --dense"},
		{"with --method", []string{"solve", "--method", "search", "--table", "--sizes", "1-3", "--variants", "all"}, "--method"},
		{"too long", []string{"solve", "--table", "--sizes", "1-30", "--variants", "all"}, "24 points"},
		{"no sizes", []string{"solve", "--table", "--variants", "all"}, "--sizes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := solveSession(t, c.args...)
			if code != 2 || !strings.Contains(errOut, c.want) || out != "" {
				t.Errorf("status %d, stdout %q, stderr %q; want status 2 and %q", code, out, errOut, c.want)
			}
		})
	}
}
