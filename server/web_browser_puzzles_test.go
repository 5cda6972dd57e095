package server

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"alak/learn"
)

// pzPoint is the selector of a point of the puzzles' or the lessons'
// board.
func pzPoint(board, name string) string {
	return fmt.Sprintf(`#%s g[data-name="%s"] .hit`, board, name)
}

// TestBrowserPuzzles: a signed-in player solves a puzzle in the page, a
// move at a time with the opponent's replies, misses another, and sees
// their puzzle rating and each puzzle's move once each (a second attempt
// moves nothing); then plays a lesson through on /learn.
func TestBrowserPuzzles(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ps := storeTestPuzzles(t, h)
	b := newBrowser(t, h)
	ada := h.client().signUp("ada")
	tb := b.user("ada")
	tb.signInAs(ada)
	ctx := context.Background()
	solved, missed := ps[0], ps[1]

	tb.open("/puzzles/" + solved.ID)
	tb.wait("the puzzle", `document.querySelector('#pz-task').textContent.includes('your move')`)
	mine := playerMoves(solved)
	for i, m := range mine {
		tb.click(pzPoint("pz-board", m))
		if i < len(mine)-1 {
			tb.wait("the reply "+solved.Line[2*i+1].Move, fmt.Sprintf(`document.querySelector('#pz-task').textContent.includes('answered %s')`, solved.Line[2*i+1].Move))
			tb.wait("the next move's targets", `document.querySelectorAll('#pz-board .target').length > 0`)
		}
	}
	tb.wait("solved", `document.querySelector('#pz-verdict').textContent.startsWith('✓ Solved')`)
	tb.wait("the rating's change", `document.querySelector('#pz-task').textContent.includes('Your puzzle rating')`)
	if tb.eval(`document.querySelector('#pz-themes').hidden`) != "false" || tb.eval(`document.querySelector('#pz-analyse').getAttribute('href').startsWith('/analysis?rules=alak')`) != "true" {
		t.Errorf("after solving: the themes or the analysis link are not shown%s", tb.state())
	}
	// The solution replayed: its last board.
	tb.click(`#pz-replay [data-step="last"]`)
	tb.wait("the solution's end", fmt.Sprintf(`document.querySelector('#pz-at').textContent.startsWith('%d/')`, len(solved.Line)))
	r1, _ := h.st.PuzzleRating(ctx, mustAccount(t, h, "ada"))
	p1, _ := h.st.Puzzle(ctx, solved.ID)
	if r1.Games != 1 || r1.Rating <= 1500 || p1.Plays != 1 || p1.Rating.Rating >= solved.Rating {
		t.Errorf("after solving: the player %+v, the puzzle %+v", r1, p1)
	}
	// The page shows the rating rounded (from the answer's tenths).
	shown, err := strconv.Atoi(tb.eval(`document.querySelector('#pz-rating').textContent`))
	if err != nil || shown < int(r1.Rating)-1 || shown > int(r1.Rating)+1 {
		t.Errorf("the page shows the rating %d (%v), the store has %v", shown, err, r1.Rating)
	}

	tb.open("/puzzles/" + missed.ID)
	tb.wait("the puzzle", `document.querySelector('#pz-task').textContent.includes('your move')`)
	tb.click(pzPoint("pz-board", wrongMove(missed)))
	tb.wait("missed", `document.querySelector('#pz-verdict').textContent.startsWith('✗')`)
	tb.wait("the rating's change", `document.querySelector('#pz-task').textContent.includes('Your puzzle rating')`)
	// Again, solved this time: it moves nothing.
	tb.click(`#pz-retry`)
	tb.wait("the puzzle again", `document.querySelector('#pz-task').textContent.includes('your move')`)
	again := playerMoves(missed)
	for i, m := range again {
		tb.click(pzPoint("pz-board", m))
		if i < len(again)-1 {
			tb.wait("the reply", fmt.Sprintf(`document.querySelector('#pz-task').textContent.includes('answered %s')`, missed.Line[2*i+1].Move))
		}
	}
	tb.wait("solved unrated", `document.querySelector('#pz-task').textContent.includes('only your first attempt')`)
	r2, _ := h.st.PuzzleRating(ctx, mustAccount(t, h, "ada"))
	p2, _ := h.st.Puzzle(ctx, missed.ID)
	if r2.Games != 2 || r2.Rating >= r1.Rating || p2.Plays != 1 || p2.Solved != 0 || p2.Rating.Rating <= missed.Rating {
		t.Errorf("after the miss and a second attempt: the player %+v (was %v), the puzzle %+v", r2, r1.Rating, p2)
	}

	// On a phone's screen (Lighthouse's 412×823): no sideways scrolling,
	// targets of 44 px (pageChecks, as every page's), with a puzzle's end
	// shown (the verdict's sentence, the replay, the links), and a lesson.
	phone := b.user("ada on a phone")
	phone.signInAs(ada)
	phone.do("sizing the screen", chromedp.EmulateViewport(412, 823, chromedp.EmulateMobile, chromedp.EmulateTouch))
	phone.open("/puzzles/" + ps[3].ID)
	phone.wait("the puzzle", `document.querySelector('#pz-task').textContent.includes('your move')`)
	phone.click(pzPoint("pz-board", wrongMove(ps[3])))
	phone.wait("missed", `document.querySelector('#pz-verdict').textContent.startsWith('✗') && !document.querySelector('#pz-replay').hidden`)
	if bad := phone.eval(pageChecks); bad != "" {
		t.Errorf("/puzzles on a phone: %s", bad)
	}
	phone.open("/learn")
	phone.wait("the lesson", `document.querySelectorAll('#lesson-board .target').length > 0`)
	if bad := phone.eval(pageChecks); bad != "" {
		t.Errorf("/learn on a phone: %s", bad)
	}

	// A lesson, played through.
	l, _ := learn.ByID("capture")
	tb.open("/learn#capture")
	tb.wait("the lesson", `document.querySelector('#lesson-h').textContent === 'Capture' && document.querySelectorAll('#lesson-board .target').length > 0`)
	for _, m := range l.Solution {
		tb.click(pzPoint("lesson-board", m))
	}
	tb.wait("the lesson's success", `document.querySelector('#lesson-say').textContent.includes('Well done')`)
	if tb.eval(`document.querySelector('#lesson-next').hidden`) != "false" {
		t.Errorf("no next lesson offered%s", tb.state())
	}
}
