package puzzles

import (
	"net/http"

	"alak/puzzle"
	"alak/server/internal/pages"
)

// The pages /puzzles, /puzzles/{id} and /learn (web/templates/puzzles.html
// and learn.html): each draws its frame, and its module (puzzles.js,
// learn.js) plays through the API of api.go.
func (pz *Puzzles) pageRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /puzzles", func(w http.ResponseWriter, r *http.Request) {
		pz.cfg.Pages.Render(w, r, "puzzles", pages.Page{Title: "puzzles", Page: "puzzles", Forms: pz.cfg.Pages.Forms, Themes: puzzleThemes})
	})
	mux.HandleFunc("GET /puzzles/{id}", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if !puzzleIDRE.MatchString(id) {
			pz.cfg.Pages.NotFound(w, r, "There is no such puzzle: a puzzle's address is /puzzles/ and 16 hex digits.")
			return
		}
		pz.cfg.Pages.Render(w, r, "puzzles", pages.Page{Title: "puzzle " + id, Page: "puzzles", Forms: pz.cfg.Pages.Forms, Themes: puzzleThemes, Puzzle: id})
	})
	mux.HandleFunc("GET /learn", func(w http.ResponseWriter, r *http.Request) {
		pz.cfg.Pages.Render(w, r, "learn", pages.Page{Title: "learn", Page: "learn", Lessons: lessonViews})
	})
}

// puzzleThemes are the themes the puzzles page offers to choose from.
var puzzleThemes = []string{puzzle.ThemeWin, puzzle.ThemeDraw, puzzle.ThemeCapture, puzzle.ThemeEdgeCapture,
	puzzle.ThemeForbidden, puzzle.ThemeRepetition, "end-in"}

// PresetLessons are the lessons of each preset's rules, by the preset's
// name, for the rules page (pages.Config.Lessons).
var PresetLessons = func() map[string][]pages.LessonLink {
	out := map[string][]pages.LessonLink{}
	for _, v := range lessonViews {
		out[v.Preset] = append(out[v.Preset], pages.LessonLink{ID: v.ID, Title: v.Title})
	}
	return out
}()
