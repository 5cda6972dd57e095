package accounts

import (
	"net/http"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"alak/server/internal/httpx"
)

// TestCheckEmailUTF8: an address that is not valid UTF-8 is refused (the
// API's JSON decoder refuses it before, 400 bad_json; the server's
// TestEmailWhiteSpace sends the others through PUT /api/me).
func TestCheckEmailUTF8(t *testing.T) {
	t.Parallel()
	if err := checkEmail("\xffa@example.org"); err == nil {
		t.Errorf("invalid UTF-8 taken")
	}
}

// FuzzCheckEmail: what checkEmail takes is "" or valid UTF-8 of at most
// 200 bytes with an @ between a name and a host, and no white space,
// control, formatting character or < > , ;.
func FuzzCheckEmail(f *testing.F) {
	for _, s := range []string{"", "ada@example.org", "a\tb@example.org", "a\u2028b@x", "a@b\r\nBcc: c@d", "<a@b>", "a@b,c@d", "\xff@x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, email string) {
		err := checkEmail(email)
		if err != nil {
			if ae := httpx.AsError(err); ae.Kind.Status() != http.StatusUnprocessableEntity || ae.Code != "bad_email" {
				t.Fatalf("%q: %v", email, err)
			}
			return
		}
		if email == "" {
			return
		}
		if len(email) > 200 || !utf8.ValidString(email) || !strings.Contains(email[1:len(email)-1], "@") {
			t.Fatalf("%q taken: too long, not UTF-8 or not name@host", email)
		}
		for _, c := range email {
			if unicode.IsSpace(c) || unicode.IsControl(c) || unicode.In(c, unicode.Zs, unicode.Zl, unicode.Zp, unicode.Cf) || strings.ContainsRune("<>,;", c) {
				t.Fatalf("%q taken, holding %U", email, c)
			}
		}
	})
}

// TestDummyHash: the hash a sign-in under an unknown name is checked
// against has the server's cost (argon2id over 64 MiB, 3 passes, 2 lanes,
// a 32-byte key: checking it costs what checking a real hash does), is
// matched by no password, differs from server to server, and costs
// nothing to make: New computes no hash (the server's New once hashed a
// password for it, seconds of CPU under the race detector at every
// start). The check itself does compute one, so an unknown name takes as
// long as a known one.
func TestDummyHash(t *testing.T) {
	// Not in parallel: it reads HashesMost, the whole process's count.
	HashesMost.Store(0)
	c := Config{HashCost: RealCost, LoginRate: 10}
	a, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	if n := HashesMost.Load(); n != 0 {
		t.Errorf("New computed %d hashes at once, want none", n)
	}
	d := a.dummyHash
	parts := strings.Split(d, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || parts[3] != "m=65536,t=3,p=2" || len(parts[4]) != 22 || len(parts[5]) != 43 {
		t.Fatalf("the dummy hash %q: want argon2id, m=65536,t=3,p=2, a 16-byte salt and a 32-byte key (22 and 43 base64 characters)", d)
	}
	if other, err := New(c); err != nil || other.dummyHash == d {
		t.Errorf("two servers made the same dummy hash %q (%v)", d, err)
	}
	// The check runs argon2 (at a low cost here, to be quick: the server's
	// tests' cost).
	cheap, err := dummyHash(Cost{Time: 1, Memory: 1024})
	if err != nil {
		t.Fatal(err)
	}
	for _, pw := range []string{"", "a password nobody has", "correct horse"} {
		if CheckPassword(cheap, pw) {
			t.Errorf("the dummy hash matches %q", pw)
		}
	}
	if n := HashesMost.Load(); n != 1 {
		t.Errorf("checking against the dummy hash computed %d hashes at once, want 1", n)
	}
}
