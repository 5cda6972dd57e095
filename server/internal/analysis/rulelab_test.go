package analysis

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"

	"alak/internal/testlong"
	"alak/server/internal/pages"
	"alak/solve"
	"alak/wire"
)

// labSolve solves the empty line of a lab column's rules at a size as
// `alak solve --table --variants` does (solve.SolveLab over a Tables with
// no directory) and writes the cell as the command does.
func labSolve(t *testing.T, v solve.Variant, n int) solve.LabCell {
	t.Helper()
	r, err := v.Rules(n)
	if err != nil {
		t.Fatalf("%s on %d points: %v", v, n, err)
	}
	res, err := solve.SolveLab(context.Background(), &solve.Tables{}, r, solve.Options{})
	if err != nil {
		t.Fatalf("%s on %d points: %v", v, n, err)
	}
	return solve.LabCellOf(r, res, nil)
}

// labSame reports whether two cells give the same answer: value, outcome,
// best openings, whether they are all, legal openings (not the method nor
// the seconds, which a run measures).
func labSame(a, b *solve.LabCell) bool {
	return a != nil && b != nil && a.Value != nil && b.Value != nil && *a.Value == *b.Value &&
		a.Outcome == b.Outcome && reflect.DeepEqual(a.Best, b.Best) && a.All == b.All && a.Openings == b.Openings
}

// labWords writes a cell for a failure message.
func labWords(c *solve.LabCell) string {
	if c == nil {
		return "null"
	}
	return fmt.Sprintf("%s, %s, %d openings", c.Text(), c.Outcome, c.Openings)
}

// TestRuleLabDataMatchesSolver: the lab's data shipped in the binary
// (rulelabdata/rulelab.json) has a column for the alak preset and one for
// each of solve.LabVariants, in that order, rows for the sizes 1 to 16,
// and on the small sizes (1 to 7; 1 to 8 with ALAK_LONG=1) every cell is
// what the solver gives now: the data cannot drift from the solver
// unnoticed. Where the data comes from: rulelabCommand (docs/rulelab.md).
func TestRuleLabDataMatchesSolver(t *testing.T) {
	t.Parallel()
	cols := append([]solve.Variant{{}}, solve.LabVariants()...)
	if len(ruleLab.Columns) != len(cols) {
		t.Fatalf("the data has %d columns, the lab %d", len(ruleLab.Columns), len(cols))
	}
	for k, v := range cols {
		c := ruleLab.Columns[k]
		r, _ := v.Rules(1)
		if want := strings.Join(append([]string{"alak"}, r.Changed(false)...), " "); c.Variant != v.String() || c.Rules != want || c.Option != v.Option || c.Value != v.Value {
			t.Errorf("column %d is %s (%s), want %s (%s)", k, c.Variant, c.Rules, v, want)
		}
	}
	if len(ruleLab.Rows) != 16 {
		t.Fatalf("the data has %d rows, want the sizes 1 to 16", len(ruleLab.Rows))
	}
	for i, row := range ruleLab.Rows {
		if row.Size != i+1 || len(row.Cells) != len(cols) {
			t.Fatalf("row %d: size %d with %d cells, want size %d with %d", i, row.Size, len(row.Cells), i+1, len(cols))
		}
	}
	top := testlong.Size(t, 7, 8)
	for n := 1; n <= top; n++ {
		for k, v := range cols {
			got, shipped := labSolve(t, v, n), ruleLab.Rows[n-1].Cells[k]
			if !labSame(&got, shipped) {
				t.Errorf("%s on %d points: the solver gives %s, the shipped data %s", v, n, labWords(&got), labWords(shipped))
			}
		}
	}
}

// TestRuleLabAPI: GET /api/rulelab over HTTP answers the shipped table,
// with a sentence and a rules-page link for each column; a cell, edge=off
// on 9 points, is the value and openings docs/rulelab.md's table gives
// (Black by 1, openings 1 5 9), and on 7 points the solver gives the
// API's cell (docs/rulelab.md's 1 (1 4 7), a size quick under the race
// detector); /rulelab draws
// the table with that cell linked to the analysis board.
func TestRuleLabAPI(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	New(Config{Pages: pages.New(pages.Config{Log: slog.New(slog.DiscardHandler)})}).Routes(mux)
	get := func(path string) (*http.Response, []byte) {
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		return w.Result(), w.Body.Bytes()
	}
	resp, body := get("/api/rulelab")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || resp.Header.Get("Cache-Control") != "public, max-age=3600" {
		t.Fatalf("GET /api/rulelab: %d %s, Cache-Control %q", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"))
	}
	var lab wire.RuleLab
	if err := json.Unmarshal(body, &lab); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(lab, ruleLab) {
		t.Errorf("the API's table differs from the shipped data")
	}
	if lab.Command != rulelabCommand || len(lab.Rows) != 16 {
		t.Errorf("command %q, %d rows", lab.Command, len(lab.Rows))
	}
	for _, col := range lab.Columns {
		if col.Says == "" || !strings.HasPrefix(col.Link, "/rules#") {
			t.Errorf("column %s: says %q, link %q", col.Variant, col.Says, col.Link)
		}
	}
	k := slices.IndexFunc(lab.Columns, func(c wire.RuleLabColumn) bool { return c.Variant == "edge=off" })
	if k < 0 {
		t.Fatal("no column edge=off")
	}
	cell := lab.Rows[8].Cells[k]
	if cell == nil || cell.Value == nil || *cell.Value != 1 || cell.Outcome != "x" || strings.Join(cell.Best, " ") != "1 5 9" || cell.All {
		t.Errorf("edge=off on 9 points: %s, want 1 (1 5 9) as in docs/rulelab.md", labWords(cell))
	}
	cell7 := lab.Rows[6].Cells[k]
	if got := labSolve(t, solve.Variant{Option: "edge", Value: "off"}, 7); !labSame(&got, cell7) || got.Text() != "1 (1 4 7)" {
		t.Errorf("edge=off on 7 points: the API's %s, the solver's %s, docs/rulelab.md's 1 (1 4 7)", labWords(cell7), labWords(&got))
	}
	if !strings.Contains(string(body), `"rules":"alak edge=off"`) || !strings.Contains(string(body), `"best":["1","5","9"]`) {
		t.Errorf("the JSON's shape: %.300s", body)
	}

	resp, page := get("/rulelab")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /rulelab: %d", resp.StatusCode)
	}
	for _, want := range []string{`data-page="rulelab"`, `<caption id="lab-caption">`, `<th scope="row">9</th>`,
		`<a href="/analysis?rules=alak%20edge%3Doff&amp;size=9" title="edge=off on 9 points: Black wins by 1; best openings 1 5 9. Open the analysis board." aria-label="1 1 5 9: edge=off on 9 points: Black wins by 1; best openings 1 5 9. Open the analysis board."><span class="lab-v">1</span> <span class="lab-best">1 5 9</span>`,
		`<a href="/rules#option-edge">`, `href="/rulelab"`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("/rulelab has no %s", want)
		}
	}
}
