package server

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
	long := strings.Repeat("3", maxCommand+1)
	for _, c := range []struct {
		name   string
		syntax commandSyntax
		text   string
		kind   commandKind
		move   *rules.Move
		refuse string // the refusal's sentence; "" when read
	}{
		{"api: a point", apiCommands, "3", commandMove, &three, ""},
		{"api: a pass", apiCommands, "pass", commandMove, &pass, ""},
		{"api: resign", apiCommands, "resign", commandResign, nil, ""},
		{"api: draw is no move", apiCommands, "draw", 0, nil, `cannot read "draw": `},
		{"api: too long", apiCommands, long, 0, nil, "a move is a point (3, c, C1), a slide (1-4), pass or resign"},
		{"api: unreadable", apiCommands, "zz", 0, nil, `cannot read "zz": `},
		{"mail: a point", mailCommands, "3", commandMove, &three, ""},
		{"mail: resign", mailCommands, "resign", commandResign, nil, ""},
		{"mail: draw", mailCommands, "Draw", commandDraw, nil, ""},
		{"mail: board", mailCommands, "BOARD", commandBoard, nil, ""},
		{"mail: nothing", mailCommands, "", commandEmpty, nil, ""},
		{"mail: too long", mailCommands, long, 0, nil, "a move is a point (3, c, C1), a slide (1-4), pass, resign, draw or board"},
		{"mail: unreadable", mailCommands, "zz", 0, nil, `cannot read "zz" as a move: `},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd, err := c.syntax.parse(r, c.text)
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
			if cmd.kind != c.kind || c.move != nil && cmd.move != *c.move {
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
		for _, cs := range []commandSyntax{apiCommands, mailCommands} {
			cmd, err := cs.parse(r, text)
			if err != nil {
				var ae *httpx.Error
				if !errors.As(err, &ae) || ae.Kind != wire.BadInput || ae.Msg == "" {
					t.Fatalf("parse(%q): %v, want a bad-input refusal", text, err)
				}
				continue
			}
			if cmd.kind != commandMove {
				continue
			}
			again, err := cs.parse(r, r.MoveText(cmd.move))
			if err != nil || again != cmd {
				t.Fatalf("parse(%q) = %+v; its move text %q reads %+v, %v", text, cmd, r.MoveText(cmd.move), again, err)
			}
		}
	})
}
