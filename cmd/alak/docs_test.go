package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// The documents a reader follows links through: the README, every page of
// docs/ and proofdata's README, relative to this package's folder.
func docFiles(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("docs/*.md: %v, %d pages", err, len(pages))
	}
	return append([]string{filepath.Join("..", "..", "README.md"), filepath.Join("..", "..", "proofdata", "README.md")}, pages...)
}

// mdLink is a Markdown link's target: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// withoutCode drops fenced code blocks and inline code spans, where a
// bracket is text, not a link.
func withoutCode(text string) string {
	var b strings.Builder
	fence := false
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		parts := strings.Split(line, "`")
		for i := 0; i < len(parts); i += 2 {
			b.WriteString(parts[i])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// anchors returns the fragment of each heading of a Markdown page as
// GitHub makes it: lower case, every character but letters, digits,
// spaces, hyphens and underscores dropped, spaces made hyphens.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	fence := false
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		heading := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(heading) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		out[b.String()] = true
	}
	return out
}

// TestDocLinks: every relative link of the README and the docs names a file
// or folder of the repository, and every link to a section names a heading
// of that page, so that a page split or a section moved leaves no link
// behind.
func TestDocLinks(t *testing.T) {
	links := 0
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(withoutCode(string(data)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			path, fragment, _ := strings.Cut(target, "#")
			resolved := file
			if path != "" {
				resolved = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
			}
			info, err := os.Stat(resolved)
			if err != nil {
				t.Errorf("%s: the link %q names nothing: %v", file, target, err)
				continue
			}
			if fragment == "" || info.IsDir() || !strings.HasSuffix(resolved, ".md") {
				continue
			}
			page, err := os.ReadFile(resolved)
			if err != nil {
				t.Fatal(err)
			}
			if !anchors(string(page))[fragment] {
				t.Errorf("%s: the link %q names no heading of %s", file, target, resolved)
			}
		}
	}
	if links < 100 {
		t.Errorf("%d relative links found in the docs, want 100 or more: is the link pattern still right?", links)
	}
}

// TestDocsIndex: docs/README.md, the index of the docs, links every page
// of docs/.
func TestDocsIndex(t *testing.T) {
	index, err := os.ReadFile(filepath.Join("..", "..", "docs", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, m := range mdLink.FindAllStringSubmatch(string(index), -1) {
		path, _, _ := strings.Cut(m[1], "#")
		linked[path] = true
	}
	for _, file := range docFiles(t)[2:] {
		name := filepath.Base(file)
		if name != "README.md" && !linked[name] {
			t.Errorf("docs/README.md does not list docs/%s", name)
		}
	}
}

// commandFlags returns the flags `alak CMD -h` lists, by name without
// dashes: what the command's flag set accepts.
func commandFlags(t *testing.T, name string) map[string]bool {
	t.Helper()
	out, errOut, _ := solveSession(t, name, "-h")
	flags := map[string]bool{"h": true, "help": true}
	for _, m := range flagLine.FindAllStringSubmatch(out+errOut, -1) {
		flags[m[1]] = true
	}
	return flags
}

// flagLine is one flag of a flag set's usage: "  -name" at the start of a
// line, then its type or the end of the line.
var flagLine = regexp.MustCompile(`(?m)^  -([a-z0-9][a-z0-9-]*)(?:\s|$)`)

// docCode returns the code of a Markdown page a line at a time: each line
// of a fenced block (a line ending in a backslash joined to the next) and
// each inline code span, with the line number it starts on.
func docCode(text string) (code []string, lines []int) {
	fence := false
	pending, start := "", 0
	for i, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if fence {
			if pending == "" {
				start = i + 1
			}
			if joined, ok := strings.CutSuffix(line, `\`); ok {
				pending += joined + " "
				continue
			}
			code, lines = append(code, pending+line), append(lines, start)
			pending = ""
			continue
		}
		parts := strings.Split(line, "`")
		for j := 1; j < len(parts); j += 2 {
			code, lines = append(code, parts[j]), append(lines, i+1)
		}
	}
	return code, lines
}

// TestDocCommandFlags: every flag of every alak command the README and the
// docs print is a flag that command accepts, so that a command copied from
// the docs does not fail on a flag renamed, removed or never there.
// Placeholders in capitals (--OPTION) and negative numbers are not flags.
func TestDocCommandFlags(t *testing.T) {
	known := map[string]map[string]bool{}
	checked := 0
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		code, lines := docCode(string(data))
		for k, piece := range code {
			name := "" // the alak command whose flags follow, if any
			fields := strings.Fields(piece)
			for i, tok := range fields {
				// "alak CMD" starts a command, also inside a quoted
				// spec ("gtp:alak gtp --player greedy").
				if i+1 < len(fields) && (tok == "alak" || strings.HasSuffix(tok, ":alak") || strings.HasSuffix(tok, `"alak`)) {
					if _, ok := commands[fields[i+1]]; ok {
						name = fields[i+1]
						continue
					}
				}
				// A pipe, a redirection, a comment or a sentence ends it.
				if strings.ContainsAny(tok, "|;>#") || tok == "&&" {
					name = ""
				}
				if name == "" || !strings.HasPrefix(tok, "-") {
					continue
				}
				flag, _, _ := strings.Cut(strings.TrimLeft(tok, "-"), "=")
				flag = strings.TrimRight(flag, `.,:)"`)
				if flag == "" || !unicode.IsLower(rune(flag[0])) || strings.ToLower(flag) != flag {
					continue
				}
				if known[name] == nil {
					known[name] = commandFlags(t, name)
				}
				checked++
				if !known[name][flag] {
					t.Errorf("%s:%d: alak %s has no flag -%s (in %q)", file, lines[k], name, flag, piece)
				}
			}
		}
	}
	t.Logf("%d flags of %d commands checked", checked, len(known))
	if checked < 500 {
		t.Errorf("%d flags of alak commands found in the docs, want 500 or more: is the command pattern still right?", checked)
	}
}
