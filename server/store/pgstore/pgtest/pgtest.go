// Package pgtest gives tests a real PostgreSQL database: an empty database
// of their own on the server named by ALAK_TEST_POSTGRES, dropped when the
// test ends. Without the variable the tests that need it skip.
package pgtest

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
)

// Env names the variable that holds the server's URL: a role allowed to
// create databases, such as postgres://postgres@127.0.0.1:5432/postgres.
const Env = "ALAK_TEST_POSTGRES"

// Admin returns the URL of ALAK_TEST_POSTGRES, or skips the test.
func Admin(t testing.TB) string {
	t.Helper()
	u := os.Getenv(Env)
	if u == "" {
		t.Skip(Env + " is not set: no PostgreSQL to test against (see docs/testing.md)")
	}
	return u
}

// Database creates an empty database for one test and returns its URL; it
// is dropped when the test ends.
func Database(t testing.TB) string {
	t.Helper()
	admin := Admin(t)
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	name := "alak_test_" + hex.EncodeToString(b)
	db, err := sql.Open("pgx", admin)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if db, err := sql.Open("pgx", admin); err == nil {
			db.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
			db.Close()
		}
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}
