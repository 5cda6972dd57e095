// Package glicko2 is Mark Glickman's Glicko-2 rating system, as his
// "Example of the Glicko-2 system" (2012) states it, step by step: pure
// arithmetic, no I/O.
//
// The play server treats each rated game as its own rating period: after
// a game both players are updated from their ratings before it, each with
// one result, and a player idle in a pool has their deviation grown by one
// empty rating period a week (Idle).
//
//	a := glicko2.Default()
//	b := glicko2.Rating{Rating: 1400, RD: 30, Volatility: 0.06}
//	a2 := a.Update([]glicko2.Result{{Opponent: b, Score: glicko2.Win}}, glicko2.Tau)
package glicko2

import "math"

// The system's constants as the server uses them: a new player's rating,
// deviation and volatility, the system constant τ (the paper suggests 0.3
// to 1.2), and the convergence tolerance ε of step 5.
const (
	StartRating     = 1500
	StartRD         = 350
	StartVolatility = 0.06
	Tau             = 0.5
	Epsilon         = 0.000001
	// MaxRD caps a deviation grown by idle periods: a player is never
	// less certain than a new one.
	MaxRD = StartRD
	// scale converts between the Glicko scale and Glicko-2's (step 2).
	scale = 173.7178
)

// Scores of a game.
const (
	Loss = 0.0
	Draw = 0.5
	Win  = 1.0
)

// Rating is a player's rating on the Glicko scale.
type Rating struct {
	Rating     float64 // r
	RD         float64 // rating deviation
	Volatility float64 // σ
}

// Default is a new player's rating: 1500, RD 350, volatility 0.06.
func Default() Rating {
	return Rating{Rating: StartRating, RD: StartRD, Volatility: StartVolatility}
}

// Result is one game of a rating period: the opponent's rating before it,
// and the player's score (Win, Draw or Loss).
type Result struct {
	Opponent Rating
	Score    float64
}

func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

func expect(mu, muj, phij float64) float64 {
	return 1 / (1 + math.Exp(-g(phij)*(mu-muj)))
}

// Update returns the player's rating after a rating period with these
// results, by steps 2 to 8 of the paper; with none, only the deviation
// grows (step 6). tau is the system constant.
func (r Rating) Update(results []Result, tau float64) Rating {
	// Step 2: to the Glicko-2 scale.
	mu := (r.Rating - StartRating) / scale
	phi := r.RD / scale
	sigma := r.Volatility
	if len(results) == 0 {
		return Rating{Rating: r.Rating, RD: math.Min(scale*math.Sqrt(phi*phi+sigma*sigma), MaxRD), Volatility: sigma}
	}
	// Steps 3 and 4: the estimated variance v and improvement Δ.
	var vinv, sum float64
	for _, res := range results {
		muj := (res.Opponent.Rating - StartRating) / scale
		phij := res.Opponent.RD / scale
		gj, e := g(phij), expect(mu, muj, phij)
		vinv += gj * gj * e * (1 - e)
		sum += gj * (res.Score - e)
	}
	v := 1 / vinv
	delta := v * sum
	// Step 5: the new volatility.
	sigma2 := volatility(phi, sigma, v, delta, tau)
	// Step 6: the pre-period deviation.
	phiStar := math.Sqrt(phi*phi + sigma2*sigma2)
	// Step 7: the new deviation and rating.
	phi2 := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu2 := mu + phi2*phi2*sum
	// Step 8: back to the Glicko scale.
	return Rating{Rating: scale*mu2 + StartRating, RD: math.Min(scale*phi2, MaxRD), Volatility: sigma2}
}

// volatility is step 5: σ' = e^(A/2), where A is the root of f found by
// the Illinois algorithm (a regula falsi that halves the retained end's
// value when the same end is kept twice), as the paper gives it.
func volatility(phi, sigma, v, delta, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > Epsilon && i < 1000; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

// Idle returns the rating after n rating periods without a game: the
// deviation grows by step 6 each period (the rating and volatility stay),
// up to MaxRD.
func (r Rating) Idle(n int) Rating {
	for i := 0; i < n && r.RD < MaxRD; i++ {
		r = r.Update(nil, Tau)
	}
	return r
}

// Provisional reports whether the rating is still uncertain: RD above
// ProvisionalRD. A provisional rating is shown with a question mark
// ("1662?").
func (r Rating) Provisional() bool { return r.RD > ProvisionalRD }

// ProvisionalRD is the deviation above which a rating is provisional.
const ProvisionalRD = 110
