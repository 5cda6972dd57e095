package pages

import (
	"math"
	"strconv"
	"strings"

	"alak/rules"
	"alak/server/store"
	"alak/wire"
)

// Page is what a page's template is given: who is signed in, and what the
// page shows. The scripts read the body's data attributes; everything else
// they take from the JSON API.
//
// The fields a single part of the server fills for its own template and
// that package pages never reads (the analysis board's, the rule lab's)
// are held as any: their types live with the part that makes them, which
// imports this package to render them, so that this package need not
// import it back. Plain data of the wire (the ratings, the lessons) is
// typed.
type Page struct {
	Title string
	Page  string // home, game, archive, rules, missing
	Me    *wire.Me

	Game  *GameBoard // the game page
	Name  string     // the player of /p/{name}; the missing page's sentence
	Forms *Forms     // the create form and the archive's filter
	Rules []PresetText

	// Ratings are the player's ratings on /p/{name}, drawn with the page
	// (as profile.js draws them again) so that the table and the chart's
	// place are there from the first paint and nothing below them moves.
	Ratings []wire.PoolRating

	// HouseBots are the house bots' names by level, HouseBotTop the
	// strongest's (home page).
	HouseBots   []string
	HouseBotTop string
	// Tournament is the id of the tournament on /t/{id}.
	Tournament string
	// Board is the analysis board's game to open (/analysis).
	Board any
	// Lab is the rule lab's table (/rulelab).
	Lab any

	// Puzzle is the puzzle of /puzzles/{id}; Themes the puzzles' themes
	// to choose from; Lessons the lessons of /learn.
	Puzzle  string
	Themes  []string
	Lessons []wire.Lesson

	// Private: the page holds what only its reader may see (an account's
	// settings, its email address): never kept by a cache.
	Private bool
}

// GameBoard is what the game page needs to know of a game's rules before
// its first state arrives: the board's shape and the rules that change
// what the page offers (passing, counting, why a point is forbidden).
type GameBoard struct {
	ID    string
	Shape string // line, grid, slide
	W, H  int
	Ko    string
	Pass  bool
	Score string

	// Over: the game was finished when the page was drawn, so the page
	// shows its replay, SGF and analysis from the first paint. Box and
	// Width are the board drawing's viewBox and width (BoardBox): an
	// empty drawing of that size holds the board's place until the
	// script draws it, so that nothing below it moves; Rows empty lines
	// hold the move list's place in the same way (a line for two moves),
	// and Result is the status line's sentence, as game.js writes it.
	Over   bool
	Box    string
	Width  int
	Rows   int
	Result string

	// Cards are the players' cards as game.js fills them (the name, and
	// the rating as ratings.js's cardRating writes it), x then o, so that
	// a card that wraps onto a second line does so from the first paint.
	Cards [2]Card

	// Tournament is a tournament's game's tournament and round.
	Tournament *wire.TournamentRef
}

// Card is a player card's name and rating.
type Card struct {
	Name        string
	Link        bool   // an account's name, linked to its page
	Rating      string // "1753?", "1862? (+109)", "1500 · unrated"
	RatingClass string // "up" or "down" once a rated game is over
	Bot         bool   // a bot account
}

// signedWords writes a rating change as ratings.js's signed does: +162,
// −41 (a true minus), ±0.
func signedWords(x float64) string {
	n := int(math.Round(x))
	switch {
	case n == 0:
		return "±0"
	case n > 0:
		return "+" + strconv.Itoa(n)
	}
	return "−" + strconv.Itoa(-n)
}

// Cards are the players' cards of the game's view v and, for a finished
// rated game, the sentence ratings.js's endWords adds to the result
// (" Ratings: ada +162, bo −162.").
func Cards(v wire.Game) (cards [2]Card, end string) {
	var parts []string
	for i, c := range []string{"x", "o"} {
		p := v.Players[c]
		cards[i] = Card{Name: p.Name, Link: p.Name != "" && !p.Computer && !p.Guest, Bot: p.Bot}
		switch {
		case p.Name == "" && v.Invitee != "":
			cards[i].Name = v.Invitee + " (invited)"
		case p.Name == "":
			cards[i].Name = "waiting for a player"
		}
		r, ok := v.Ratings[c]
		if !ok {
			continue
		}
		cards[i].Rating = r.Shown
		if !v.Rated {
			cards[i].Rating += " · unrated"
		}
		if r.RatingChange != nil && r.RatingAfter != nil {
			q := ""
			if r.Provisional {
				q = "?"
			}
			cards[i].Rating = strconv.Itoa(int(math.Round(*r.RatingAfter))) + q + " (" + signedWords(*r.RatingChange) + ")"
			cards[i].RatingClass = "up"
			if *r.RatingChange < 0 {
				cards[i].RatingClass = "down"
			}
			parts = append(parts, p.Name+" "+signedWords(*r.RatingChange))
		}
	}
	if v.Rated && v.State == store.StateFinished && len(parts) > 0 {
		end = " Ratings: " + strings.Join(parts, ", ") + "."
	}
	return cards, end
}

// BoardBox is the size of the board's drawing as web/static/board.js
// makes it (Geometry.size and draw: 40 units a point, the width
// attribute 1.3 to 2 times the units): its viewBox and its width in CSS
// pixels. TestBrowserPageChecks checks that the drawing has this size.
func BoardBox(shape string, w, h int) (string, int) {
	const u = 40.0
	var bw, bh float64
	switch {
	case shape == "grid":
		bw, bh = u*float64(w+1)+u*0.3, u*float64(h)+u*1.25
	case shape == "line" && w <= 26:
		bw, bh = u*float64(w+1), u*2.75
	default:
		bw, bh = u*float64(w+1), u*2.3
	}
	scale := min(2, max(1.3, 600/bw))
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	return "0 0 " + f(bw) + " " + f(bh), int(math.Floor(bw*scale + 0.5))
}

// Shape is the shape of r's board as the pages draw it: slide (pieces
// that move along a line), line or grid.
func Shape(r rules.Rules) string {
	switch {
	case r.Movement == rules.Sliding:
		return "slide"
	case r.IsLine():
		return "line"
	}
	return "grid"
}
