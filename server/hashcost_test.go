package server

import (
	"strings"
	"testing"

	"alak/internal/testlong"
	"alak/server/internal/accounts"
)

// The package's tests hash passwords at a lower cost than a server does
// (accounts.RealCost, 3 passes over 64 MiB: seconds of CPU a hash under the race
// detector): one pass over 1 MiB, for the tests about accounts, sessions
// and limits rather than the hash. TestAttackPasswordHashMemory keeps
// accounts.RealCost and checks the hash it stores; the password-guessing tests
// take accounts.RealCost with ALAK_LONG=1 (guessingCost); cmd/alak's TestServeKill9
// checks that a real alak serve stores hashes at accounts.RealCost.
func init() {
	defaultCost = accounts.Cost{Time: 1, Memory: 1024}
}

// guessingCost is the hash cost of the password-guessing tests: the
// server's own with ALAK_LONG=1, the tests' lower one otherwise (their
// checks are the sign-in limits, which count attempts, not time).
func guessingCost(t *testing.T) accounts.Cost {
	if testlong.Enabled(t) {
		return accounts.RealCost
	}
	return defaultCost
}

// TestTestsHashCheaply: a server of these tests left at the zero cost
// hashes at the tests' cost, which the stored hash names and
// accounts.CheckPassword reads back (TestAttackPasswordHashMemory checks the server's cost).
func TestTestsHashCheaply(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	h.client().signUp("ada")
	a, err := h.st.AccountByName(t.Context(), "ada")
	if want := "$argon2id$v=19$m=1024,t=1,p=2$"; err != nil || !strings.HasPrefix(a.PassHash, want) {
		t.Errorf("ada's hash %.40s (%v), want the prefix %s", a.PassHash, err, want)
	}
	if !accounts.CheckPassword(a.PassHash, "correct horse") || accounts.CheckPassword(a.PassHash, "correct horsE") {
		t.Error("CheckPassword does not tell the password from another")
	}
}
