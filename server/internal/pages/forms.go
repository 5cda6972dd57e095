package pages

import (
	"encoding/json"
	"strings"

	"alak/notation"
	"alak/player"
	"alak/rules"
)

// Forms is the create form's choices, from the rules package and the
// computer's levels.
type Forms struct {
	Presets []PresetForm
	Options []rules.Option
	Levels  []string
	Days    []int
	Choices []LevelChoice // the levels in words, for the create form
}

// PresetForm is a preset as the create form offers it.
type PresetForm struct {
	Name    string
	Size    string
	Shape   string
	Values  string // the preset's option values, as a JSON object
	Applies string // the options it takes, space-separated
}

// LevelChoice is one of the computer's levels on the create form: its
// number, its name and its algorithm in words.
type LevelChoice struct {
	N          int
	Name, Algo string
}

// PresetText is a preset on the rules page: its origin and its rules in
// sentences (notation.RulesText).
type PresetText struct {
	Name, Origin string
	Lines        []string
	// Lessons are the lessons of the preset's rules (/learn).
	Lessons []LessonLink
}

// LessonLink is a lesson as the rules page links to it.
type LessonLink struct{ ID, Title string }

// presetOrigins says where each preset comes from, after docs/rules.md.
var presetOrigins = map[string]string{
	"alak":         "Alan Baljeu's rules, as played by mail: the default.",
	"traditional":  "Go's rules on a line, as Sensei's Library states them.",
	"tromp-taylor": "Linear Go of the research literature: positional superko and area scoring.",
	"alterigo":     "Alter Igo, a two-dimensional variant with a minimal rule set.",
	"dewdney":      "Dewdney's game as Sean Burke read it: pieces slide along the line.",
	"golf":         "The code-golf text: dewdney, and a moved piece left between two enemies is removed.",
}

// newForms makes the create form's choices: every preset with its option
// values, the computer's levels (levels, in words) and the
// correspondence days.
func newForms(levels []LevelChoice, days []int) *Forms {
	f := &Forms{Options: rules.Options(), Days: days, Choices: levels}
	for i := 1; i <= player.Levels(); i++ {
		spec, _ := player.Level(i)
		f.Levels = append(f.Levels, spec)
	}
	for _, name := range rules.Presets() {
		r := rules.MustPreset(name)
		values := map[string]string{}
		var applies []string
		for _, o := range f.Options {
			values[o.Name], _ = r.Get(o.Name)
			if r.Applies(o.Name) || o.Name == "passes" || o.Name == "komi" {
				applies = append(applies, o.Name)
			}
		}
		js, _ := json.Marshal(values)
		f.Presets = append(f.Presets, PresetForm{Name: name, Size: r.SizeString(), Shape: Shape(r), Values: string(js), Applies: strings.Join(applies, " ")})
	}
	return f
}

// rulesTexts are the presets as the rules page states them, each with
// its lessons (lessons, by the preset's name).
func rulesTexts(lessons map[string][]LessonLink) []PresetText {
	var out []PresetText
	for _, name := range rules.Presets() {
		lines := strings.Split(strings.TrimSpace(notation.RulesText(rules.MustPreset(name))), "\n")
		out = append(out, PresetText{Name: name, Origin: presetOrigins[name], Lines: lines[1:], Lessons: lessons[name]}) // the first line names the rules
	}
	return out
}

// choices splits an option's accepted values ("on|off") into a list, or
// returns nil when the option takes free text ("1-9", a number).
func choices(values string) []string {
	if !strings.Contains(values, "|") || strings.ContainsAny(values, " ,") {
		return nil
	}
	return strings.Split(values, "|")
}
