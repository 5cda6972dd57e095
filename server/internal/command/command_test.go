package command

import (
	"errors"
	"strings"
	"testing"

	"alak/rules"
	"alak/server/internal/httpx"
	"alak/wire"
)

// TestParseCommand: what the API's move call and a mailed reply read from
// the same texts. The refusals' sentences are those each path wrote
// before they shared the parser (docs/api.md's bad_move, docs/mail.md's
// replies).
func TestParseCommand(t *testing.T) {
	r, err := rules.Parse("alak size=9")
	if err != nil {
		t.Fatal(err)
	}
	three, err := r.ParseMoveText("3")
	if err != nil {
		t.Fatal(err)
	}
	pass := rules.Pass
	long := strings.Repeat("3", MaxLen+1)
	for _, c := range []struct {
		name   string
		syntax Syntax
		text   string
		kind   Kind
		move   *rules.Move
		refuse string // the refusal's sentence; "" when read
	}{
		{"api: a point", API, "3", Move, &three, ""},
		{"api: a pass", API, "pass", Move, &pass, ""},
		{"api: resign", API, "resign", Resign, nil, ""},
		{"api: draw is no move", API, "draw", 0, nil, `cannot read "draw": `},
		{"api: too long", API, long, 0, nil, "a move is a point (3, c, C1), a slide (1-4), pass or resign"},
		{"api: unreadable", API, "zz", 0, nil, `cannot read "zz": `},
		{"mail: a point", Mail, "3", Move, &three, ""},
		{"mail: resign", Mail, "resign", Resign, nil, ""},
		{"mail: draw", Mail, "Draw", Draw, nil, ""},
		{"mail: board", Mail, "BOARD", Board, nil, ""},
		{"mail: nothing", Mail, "", Empty, nil, ""},
		{"mail: too long", Mail, long, 0, nil, "a move is a point (3, c, C1), a slide (1-4), pass, resign, draw or board"},
		{"mail: unreadable", Mail, "zz", 0, nil, `cannot read "zz" as a move: `},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd, err := c.syntax.Parse(r, c.text)
			if c.refuse != "" {
				var ae *httpx.Error
				if !errors.As(err, &ae) || ae.Kind != wire.BadInput || ae.Code != "bad_move" || !strings.HasPrefix(ae.Msg, c.refuse) {
					t.Fatalf("parse(%q) = %+v, %v; want a bad_move refusal starting %q", c.text, cmd, err, c.refuse)
				}
				if c.syntax.words && c.text == "zz" && !strings.HasSuffix(ae.Msg, "(a move is a point such as 3, pass, resign; or write draw or board)") {
					t.Errorf("the mail's refusal does not say what it takes: %q", ae.Msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("parse(%q): %v", c.text, err)
			}
			if cmd.Kind != c.kind || c.move != nil && cmd.Move != *c.move {
				t.Errorf("parse(%q) = %+v, want kind %d move %v", c.text, cmd, c.kind, c.move)
			}
		})
	}
}

// FuzzParseCommand: any text is read or refused as bad input, never a
// panic; a move read is written by the rules' move form and read back the
// same.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"3", "c", "C1", "1-4", "pass", "resign", "draw", "board", "", "zz", "-1", "99", "3 4"} {
		f.Add(s)
	}
	r, err := rules.Parse("alak size=9")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, cs := range []Syntax{API, Mail} {
			cmd, err := cs.Parse(r, text)
			if err != nil {
				var ae *httpx.Error
				if !errors.As(err, &ae) || ae.Kind != wire.BadInput || ae.Msg == "" {
					t.Fatalf("parse(%q): %v, want a bad-input refusal", text, err)
				}
				continue
			}
			if cmd.Kind != Move {
				continue
			}
			again, err := cs.Parse(r, r.MoveText(cmd.Move))
			if err != nil || again != cmd {
				t.Fatalf("parse(%q) = %+v; its move text %q reads %+v, %v", text, cmd, r.MoveText(cmd.Move), again, err)
			}
		}
	})
}
