package glicko2

import (
	"math"
	"testing"
)

// TestPaperExample reproduces the worked example of Glickman's "Example of
// the Glicko-2 system" (2012, sections "Example calculation"): a player
// rated 1500, RD 200, volatility 0.06 plays three games in a rating
// period, τ = 0.5. The expected values are the paper's: 1464.06, 151.52
// and 0.05999. The paper carries its intermediate values rounded (E to
// three digits, g and v to four), so exact arithmetic lands a little off
// its last digit (r' = 1464.0507, σ' = 0.059996): the tolerances are one
// unit of the last digit printed.
func TestPaperExample(t *testing.T) {
	p := Rating{Rating: 1500, RD: 200, Volatility: 0.06}
	results := []Result{
		{Opponent: Rating{Rating: 1400, RD: 30}, Score: Win},
		{Opponent: Rating{Rating: 1550, RD: 100}, Score: Loss},
		{Opponent: Rating{Rating: 1700, RD: 300}, Score: Loss},
	}
	got := p.Update(results, 0.5)
	check := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.6f, the paper gives %v", name, got, want)
		}
	}
	check("r'", got.Rating, 1464.06, 0.01)
	check("RD'", got.RD, 151.52, 0.01)
	check("σ'", got.Volatility, 0.05999, 0.00001)
}

// TestPaperSteps checks the intermediate quantities the paper prints for
// the same example: v = 1.7785 (step 3), Δ = -0.4834 (step 4), and the
// Illinois iteration of step 5 giving σ' = 0.05999; φ* = 1.152862 (step 6), μ' = -0.2069, φ' = 0.8722
// (step 7).
func TestPaperSteps(t *testing.T) {
	mu, phi := 0.0, 1.1513
	type opp struct{ mu, phi, s float64 }
	opps := []opp{{-0.5756, 0.1727, 1}, {0.2878, 0.5756, 0}, {1.1513, 1.7269, 0}}
	var vinv, sum float64
	for _, o := range opps {
		gj, e := g(o.phi), expect(mu, o.mu, o.phi)
		vinv += gj * gj * e * (1 - e)
		sum += gj * (o.s - e)
	}
	v := 1 / vinv
	delta := v * sum
	near := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.6f, the paper gives %v", name, got, want)
		}
	}
	near("v", v, 1.7785, 0.0005)
	// The paper's Δ comes from E rounded to three digits: -0.4834
	// against -0.48392 exactly.
	near("Δ", delta, -0.4834, 0.001)
	// Step 5 from the paper's own rounded inputs (φ = 1.1513, v =
	// 1.7785, Δ = -0.4834): the Illinois iteration must stop at a root
	// of the paper's f (checked here by computing f independently) and
	// give the paper's σ'.
	paperSigma := volatility(phi, 0.06, 1.7785, -0.4834, 0.5)
	A, a := 2*math.Log(paperSigma), math.Log(0.06*0.06)
	ex, d := math.Exp(A), phi*phi+1.7785+math.Exp(A)
	near("f(A)", ex*(0.4834*0.4834-phi*phi-1.7785-ex)/(2*d*d)-(A-a)/0.25, 0, 1e-6)
	near("σ' from the paper's inputs", paperSigma, 0.05999, 0.00001)
	sigma := volatility(phi, 0.06, v, delta, 0.5)
	near("σ'", sigma, 0.05999, 0.00001)
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	near("φ*", phiStar, 1.152862, 0.00001)
	phi2 := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	near("φ'", phi2, 0.8722, 0.0001)
	near("μ'", mu+phi2*phi2*sum, -0.2069, 0.0001)
}

// TestIdle: a rating period without games grows the deviation to
// sqrt(φ² + σ²) (step 6 alone, as the paper says for a player who does
// not compete) and leaves rating and volatility; it stops at MaxRD.
func TestIdle(t *testing.T) {
	r := Rating{Rating: 1700, RD: 50, Volatility: 0.06}
	want := 173.7178 * math.Sqrt(math.Pow(50/173.7178, 2)+0.06*0.06)
	got := r.Idle(1)
	if math.Abs(got.RD-want) > 1e-9 || got.Rating != 1700 || got.Volatility != 0.06 {
		t.Errorf("one idle period: %+v, want RD %.6f and the rest unchanged", got, want)
	}
	if got := r.Idle(100000); got.RD != MaxRD {
		t.Errorf("many idle periods: RD %.3f, want the cap %d", got.RD, MaxRD)
	}
	if got := Default().Idle(3); got != Default() {
		t.Errorf("a new player idle: %+v, want %+v", got, Default())
	}
	if got := r.Idle(0); got != r {
		t.Errorf("no idle period changed the rating: %+v", got)
	}
}

// TestDrawBetweenEquals: a draw between two equal ratings leaves the
// rating where it was (Δ = 0), and only the deviation moves.
func TestDrawBetweenEquals(t *testing.T) {
	a := Default()
	got := a.Update([]Result{{Opponent: a, Score: Draw}}, Tau)
	if math.Abs(got.Rating-1500) > 1e-9 || got.RD >= a.RD {
		t.Errorf("draw between two new players: %+v, want rating 1500 and a smaller RD", got)
	}
}
