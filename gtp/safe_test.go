package gtp

import (
	"context"
	"testing"

	"alak/rules"
)

// The safe-eye rule over GTP: a declaration is played and generated as
// * and a vertex (*B1, notation/safe.go), and refused without the rule.
func TestSafeDeclarationGTP(t *testing.T) {
	decl := rules.Declare(1)
	e := newTestEngine(t, "alak size=5 safe=eye", firstPlayer{move: &decl})
	defer e.Close()
	ctx := context.Background()
	for _, v := range []string{"A1", "E1", "C1", "D1"} {
		color := "b"
		if e.Ply()%2 == 1 {
			color = "w"
		}
		if _, err := e.Execute(ctx, "play", color, v); err != nil {
			t.Fatalf("play %s %s: %v", color, v, err)
		}
	}
	got, err := e.Execute(ctx, "genmove", "b")
	if err != nil || got != "*B1" {
		t.Fatalf("genmove b = %q, %v; want *B1", got, err)
	}
	if pos := e.Game().Position(); !pos.Safe(1) || !pos.Over() {
		t.Fatalf("after *B1: safe %v, over %v", pos.Safe(1), pos.Over())
	}
	plain := newTestEngine(t, "alak size=5", firstPlayer{})
	defer plain.Close()
	if _, err := plain.Execute(ctx, "play", "b", "*B1"); err == nil {
		t.Fatal("a declaration was played under rules without safe points")
	}
}
