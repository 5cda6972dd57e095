package solve

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"testing"

	"alak/proofcheck"
	"alak/rules"
)

// TestProveCertificate proves every goal Prove can prove on small boards
// (from the start and after every first move; the goals are those of
// TestProveAgainstBruteForce, whose values the brute force confirms), writes
// each proof's certificate and has the independent checker of package
// proofcheck verify it: the claim it reads is the goal proved, and the
// checker replays every line of it with the kernel. It also splits each
// certificate into parts of 40 bytes of tree and checks the set.
func TestProveCertificate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		preset string
		sizes  []int
	}{
		{"alak", []int{2, 3, 4, 5}},
		{"traditional", []int{2, 3, 4}}, // 5 points: 5 s under -race; cmd/alak checks its certificates
		{"tromp-taylor", []int{2, 3}},
	}
	for _, c := range cases {
		for _, n := range c.sizes {
			t.Run(fmt.Sprintf("%s/%d", c.preset, n), func(t *testing.T) {
				games := rootAndReplies(t, c.preset, n)
				proved := 0
				for _, g := range games {
					for _, w := range []rules.Color{rules.Black, rules.White} {
						for _, draw := range []bool{false, true} {
							pr, err := Prove(context.Background(), g, w, ProveOptions{Draw: draw, Depth: 20, Certificate: true})
							if err != nil {
								t.Fatal(err)
							}
							if !pr.Proved {
								if pr.Tree != nil {
									t.Errorf("after %v: no proof, but a tree of %d bytes", g.Moves(), len(pr.Tree))
								}
								continue
							}
							proved++
							checkCertificate(t, g, w, draw, pr.Tree)
							// Recorded by a prover whose move ordering knows
							// nothing yet, the search tries losing moves and
							// meets refutations: what it records of them must
							// be dropped.
							fresh := &prover{ctx: context.Background(), g: g.Clone(), w: w, draw: draw, cut: map[uint64]rules.Move{}}
							tree, err := fresh.certificate(pr.Plies, 0, true)
							if err != nil {
								t.Fatal(err)
							}
							checkCertificate(t, g, w, draw, tree)
						}
					}
				}
				if proved == 0 {
					t.Error("nothing proved: every game has a value, so some goal holds")
				}
			})
		}
	}
}

// checkCertificate writes tree under its header, whole and in parts, and
// checks both with proofcheck.
func checkCertificate(t *testing.T, g *rules.Game, w rules.Color, draw bool, tree []byte) proofcheck.Summary {
	t.Helper()
	var whole proofcheck.Summary
	h, err := proofcheck.NewHeader(g, w, draw, "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{1 << 20, 40} {
		parts := map[int]*bytes.Buffer{}
		if _, err := proofcheck.Write(h, tree, limit, func(k int) (io.WriteCloser, error) {
			parts[k] = &bytes.Buffer{}
			return nopWriteCloser{parts[k]}, nil
		}); err != nil {
			if limit < len(tree) && strings.Contains(err.Error(), "has shared subtrees") {
				continue // such a tree is not split (proofcheck.Write)
			}
			t.Fatal(err)
		}
		sum, err := proofcheck.CheckAll(context.Background(), func(k int) (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(parts[k].Bytes())), nil
		}, nil)
		if err != nil {
			t.Fatalf("after %v, %v (draw %v), parts of %d bytes: %v", g.Moves(), w, draw, limit, err)
		}
		if sum.For != w || sum.Draw != draw || len(sum.Line) != g.Len() || sum.Parts != len(parts) {
			t.Errorf("after %v: checked %q in %d parts of %d", g.Moves(), sum.Claim(), sum.Parts, len(parts))
		}
		if limit == 1<<20 {
			whole = sum
		}
	}
	return whole
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// A proof that is not asked for records no tree.
func TestProveNoCertificate(t *testing.T) {
	t.Parallel()
	pr, err := Prove(context.Background(), newGame(t, "traditional", 3), rules.Black, ProveOptions{Depth: 5})
	if err != nil || !pr.Proved || pr.Tree != nil {
		t.Errorf("%+v, %v: want a proof and no tree", pr, err)
	}
}

// A certificate under safe=field, whose replies include declarations of
// safe points (rules.Declare, codes below -2^20), reads and checks: the
// reader took moves from -3 up only and refused every such file as
// unreadable.
func TestProveCertificateSafe(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"alak size=3 safe=field", "traditional size=3 safe=field"} {
		r, err := rules.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		g, err := rules.NewGame(r)
		if err != nil {
			t.Fatal(err)
		}
		declared := false
		for _, w := range []rules.Color{rules.Black, rules.White} {
			for _, draw := range []bool{false, true} {
				pr, err := Prove(context.Background(), g, w, ProveOptions{Draw: draw, Depth: 12, Certificate: true})
				if err != nil {
					t.Fatal(err)
				}
				if pr.Proved {
					checkCertificate(t, g, w, draw, pr.Tree)
					for p := range r.Points() {
						declared = declared || bytes.Contains(pr.Tree, binary.AppendVarint(nil, int64(rules.Declare(p))))
					}
				}
			}
		}
		if !declared {
			t.Errorf("%s: no certificate holds a declaration; the test shows nothing", text)
		}
	}
}
