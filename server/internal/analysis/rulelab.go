package analysis

// The rule lab (docs/rulelab.md): GET /api/rulelab and the page
// /rulelab. Their data is the lab's table as `alak solve --table
// --variants --json` prints it (solve.LabTable), made once and shipped in
// the binary (rulelabdata/rulelab.json, by the command rulelabCommand);
// TestRuleLabDataMatchesSolver solves the small sizes again and compares.
// The server does not read lab tables from --table-dir: the lab's solver
// keeps none there (it solves start positions, and its table is small).

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"alak/server/internal/pages"
	"alak/solve"
	"alak/wire"
)

// rulelabCommand is the command that made rulelabdata/rulelab.json (run
// from the repository's root with a built alak).
const rulelabCommand = "alak solve --table --variants all --sizes 1-16 --jobs 2 --memory 4000 --json"

//go:embed rulelabdata/rulelab.json
var rulelabJSON []byte

// ruleLab is the lab's table and the answer of GET /api/rulelab, read
// once from the shipped data.
var ruleLab = func() wire.RuleLab {
	var t solve.LabTable
	if err := json.Unmarshal(rulelabJSON, &t); err != nil {
		panic(fmt.Sprintf("server/internal/analysis/rulelabdata/rulelab.json: %v", err))
	}
	v := wire.RuleLab{Command: rulelabCommand, Rows: t.Rows}
	for _, c := range t.Columns {
		v.Columns = append(v.Columns, wire.RuleLabColumn{LabColumn: c, Says: variantSays[c.Variant], Link: variantLink(c)})
	}
	return v
}()

// variantSays says what each column's rules change, after docs/rulelab.md
// ("The variants") and docs/rules.md.
var variantSays = map[string]string{
	"alak":         "Baljeu's rules, the preset: a chain closed in against an end of the line is captured, your own chain left without liberties stays, and the points just captured are forbidden to their owner for one turn.",
	"edge=off":     "The ends of the line are liberties: nothing is captured against an end.",
	"own=illegal":  "No suicide: you may not fill the last liberty of your own chain unless the placement captures (Go's rule).",
	"own=removed":  "Suicide is allowed: your chain left without liberties is removed after the captures.",
	"own=together": "Every chain left without liberties is removed at once, the mover's with the captured, as in Alter Igo.",
	"ko=none":      "No forbidden points: a capture can be taken back at once (a position's third occurrence draws).",
	"ko=simple":    "Go's ko: a single stone captured may not be taken back at once when that would bring back the board before the capture.",
	"score=area":   "Area scoring: stones plus territory, an empty run bordered by one colour only.",
	"safe=eye":     "Sebastian's safe eye: instead of a placement you may declare an empty point between your own stones safe (*N), and nobody places there after.",
	"safe=field":   "Sebastian's safe field: instead of a placement you may declare any empty point safe (*N), and nobody places there after.",
}

// variantLink is where the rules page explains a column's option: its
// row of the options table, or the alak preset's section.
func variantLink(c solve.LabColumn) string {
	if c.Option == "" {
		return "/rules#alak"
	}
	return "/rules#option-" + c.Option
}

// analysisLink opens the analysis board on a column's rules and a size.
func analysisLink(c solve.LabColumn, size int) string {
	return "/analysis?rules=" + strings.ReplaceAll(url.QueryEscape(c.Rules), "+", "%20") + "&size=" + strconv.Itoa(size)
}

// ruleLabBody is GET /api/rulelab's answer, encoded once.
var ruleLabBody = func() []byte {
	b, err := json.Marshal(ruleLab)
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}()

// handleRuleLab answers the lab's table. It never changes while the
// server runs: a client may keep it for an hour (httpx.WriteJSON's
// answers are no-store).
func handleRuleLab(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "public, max-age=3600")
	h.Set("X-Content-Type-Options", "nosniff")
	w.Write(ruleLabBody)
}

// LabPage is what /rulelab's template is given (pages.Page.Lab): the
// columns and the rows, each cell drawn with its words.
type LabPage struct {
	Command string
	Columns []labPageColumn
	Rows    []labPageRow
}

// labPageColumn is a column and the id of its sentence on the page.
type labPageColumn struct {
	wire.RuleLabColumn
	Anchor string // "v-edge-off"
}

type labPageRow struct {
	Size  int
	Cells []labPageCell
}

// labPageCell is a cell of the page: its value and best openings as the
// table writes them, the class of its outcome, the link to the analysis
// board, and a sentence for screen readers and the tooltip.
type labPageCell struct {
	Value, Best, Class, Link, Label string
	Solved                          bool
}

func (a *Analysis) handleRuleLabPage(w http.ResponseWriter, r *http.Request) {
	a.cfg.Pages.Render(w, r, "rulelab", pages.Page{Title: "rule lab", Page: "rulelab", Lab: ruleLabPage()})
}

// ruleLabPage draws the lab's table as the page shows it.
func ruleLabPage() *LabPage {
	p := &LabPage{Command: ruleLab.Command}
	for _, c := range ruleLab.Columns {
		p.Columns = append(p.Columns, labPageColumn{c, "v-" + strings.ReplaceAll(c.Variant, "=", "-")})
	}
	for _, row := range ruleLab.Rows {
		pr := labPageRow{Size: row.Size}
		for k, c := range row.Cells {
			col := ruleLab.Columns[k].LabColumn
			pr.Cells = append(pr.Cells, labCellWords(col, row.Size, c))
		}
		p.Rows = append(p.Rows, pr)
	}
	return p
}

// labCellWords writes a cell: "1" and "2 4 6" (or "all", or "no move"),
// and a sentence such as "edge=off on 9 points: Black wins by 1; best
// openings 1 5 9".
func labCellWords(col solve.LabColumn, size int, c *solve.LabCell) labPageCell {
	where := fmt.Sprintf("%s on %d points", col.Variant, size)
	switch {
	case c == nil:
		return labPageCell{Value: "–", Class: "lab-none", Label: where + ": not tried (the column stopped at a smaller size)"}
	case c.Value == nil:
		return labPageCell{Value: "not solved", Class: "lab-none", Label: where + ": not solved (" + c.Error + ")"}
	}
	out := labPageCell{Solved: true, Value: strconv.FormatFloat(*c.Value, 'f', -1, 64), Link: analysisLink(col, size)}
	var says string
	switch c.Outcome {
	case "x":
		out.Class, says = "lab-x", "Black wins by "+out.Value
	case "o":
		out.Class, says = "lab-o", "White wins by "+strconv.FormatFloat(-*c.Value, 'f', -1, 64)
	default:
		out.Class, says = "lab-draw", "a draw"
	}
	switch {
	case len(c.Best) == 0:
		out.Best = "no move"
		says += "; no legal opening"
	case c.All:
		out.Best = "all"
		says += "; every opening keeps it"
	default:
		for i, m := range c.Best {
			if i > 0 {
				out.Best += " "
			}
			out.Best += m
		}
		says += "; best openings " + out.Best
	}
	out.Label = where + ": " + says + ". Open the analysis board."
	return out
}
