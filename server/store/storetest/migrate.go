package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
)

// RatingChainMigration checks what migration 12 makes of the rating
// updates stored before it, which had no place in their player's chain:
// db is at migration 11, and migrate brings it up to date. The updates are
// numbered by their time and, within one millisecond, in the order they
// were written.
func RatingChainMigration(t *testing.T, db *sql.DB, migrate func() error) {
	t.Helper()
	ctx := context.Background()
	exec := func(q string) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for i := 1; i <= 3; i++ {
		exec(fmt.Sprintf(`INSERT INTO accounts (id, name, name_key, created_ms) VALUES (%d, 'p%d', 'p%d', 1)`, i, i, i))
	}
	for i := 1; i <= 4; i++ {
		exec(fmt.Sprintf(`INSERT INTO games (id, rules, preset, size, creator_id, color, kind, clock, state, version, ply, entries, created_ms, updated_ms)
			VALUES ('g%d', 'alak', 'alak', '11', 1, 'x', 'named', 'none', 'finished', 2, 0, 0, 1, 1)`, i))
	}
	// p1's updates, written in this order: g2 and g3 ended in the same
	// millisecond, g3's update written first.
	for _, e := range []struct {
		game    string
		account int
		at      int
	}{{"g1", 1, 1000}, {"g1", 2, 1000}, {"g3", 1, 2000}, {"g2", 1, 2000}, {"g4", 1, 3000}, {"g4", 3, 3000}, {"g2", 3, 2000}} {
		exec(fmt.Sprintf(`INSERT INTO rating_history (game_id, account_id, pool, before_rating, before_rd, rating, rd, volatility, at_ms)
			VALUES ('%s', %d, 'alak', 1500, 350, 1500, 350, 0.06, %d)`, e.game, e.account, e.at))
	}
	if err := migrate(); err != nil {
		t.Fatal(err)
	}
	rows, err := db.QueryContext(ctx, `SELECT account_id, game_id, n FROM rating_history ORDER BY account_id, n`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got string
	for rows.Next() {
		var account, n int
		var game string
		if err := rows.Scan(&account, &game, &n); err != nil {
			t.Fatal(err)
		}
		got += fmt.Sprintf("p%d:%s:%d ", account, game, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if want := "p1:g1:1 p1:g3:2 p1:g2:3 p1:g4:4 p2:g1:1 p3:g2:1 p3:g4:2 "; got != want {
		t.Errorf("the updates numbered:\n%s\nwant\n%s", got, want)
	}
}
