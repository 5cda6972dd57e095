package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"alak/server/store"
	"alak/server/store/sqlitestore"
)

// storeWriter writes games to st until stop is closed, as a running
// server does: an account, a game, then its first two moves in one
// update. It counts the games written whole.
func storeWriter(st store.Store, w int, stop <-chan struct{}, whole *atomic.Int64) error {
	ctx := context.Background()
	for i := 0; ; i++ {
		select {
		case <-stop:
			return nil
		default:
		}
		now := time.Now()
		a, err := st.CreateAccount(ctx, store.Account{Name: fmt.Sprintf("w%d_%d", w, i), PassHash: "x", Created: now})
		if err != nil {
			return err
		}
		g := store.Game{ID: fmt.Sprintf("g%d_%d", w, i), Rules: "alak size=9", Preset: "alak", Size: "9", Black: store.Seat{AccountID: a.ID},
			White: store.Seat{Bot: "level:1"}, Creator: a.ID, Color: "x", Kind: store.KindComputer, Clock: "none", State: store.StateActive,
			Version: 1, WarnedEntry: -1, Created: now, Updated: now}
		if err := st.CreateGame(ctx, g); err != nil {
			return err
		}
		created := g
		g.Version, g.Ply, g.Entries = 2, 2, 2
		if err := st.Update(ctx, g, created, []store.Entry{{Move: "1", By: a.ID, At: now}, {Move: "5", At: now}}); err != nil {
			return err
		}
		whole.Add(1)
	}
}

// waitCount waits (bounded: a minute) until n reaches at least want.
func waitCount(t *testing.T, n *atomic.Int64, want int64) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for n.Load() < want {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d writes in a minute", n.Load(), want)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestBackupUnderWrites: alak backup copies a database that two writers
// (another connection pool, as a running server is) keep writing to; the
// copy opens as a store, passes SQLite's integrity check, holds every game
// written whole before the backup began and no more than were written by
// its end, and each game in it is whole: its log has the entries its row
// counts (Store.Game checks it).
func TestBackupUnderWrites(t *testing.T) {
	t.Parallel() // an alak serve process of its own: its waits overlap the other tests
	dir := t.TempDir()
	db, out := filepath.Join(dir, "alak.db"), filepath.Join(dir, "copy.db")
	st, err := sqlitestore.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var whole atomic.Int64
	stop := make(chan struct{})
	errs := make(chan error, 2)
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- storeWriter(st, w, stop, &whole)
		}()
	}
	waitCount(t, &whole, 100)
	before := whole.Load()
	var stdout, stderr bytes.Buffer
	code := run(&env{stdout: &stdout, stderr: &stderr}, []string{"backup", "--db", db, "--out", out})
	atEnd := whole.Load()
	waitCount(t, &whole, atEnd+20) // the writers were not stopped by it
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("a writer: %v", err)
		}
	}
	if code != 0 || !strings.Contains(stdout.String(), "integrity ok") {
		t.Fatalf("alak backup: %d %s %s", code, stdout.String(), stderr.String())
	}
	cp, err := sqlitestore.Open(context.Background(), out)
	if err != nil {
		t.Fatalf("the copy does not open: %v", err)
	}
	defer cp.Close()
	var check string
	if err := cp.DB().QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity of the copy: %q %v", check, err)
	}
	rows, err := cp.DB().Query(`SELECT id FROM games`)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for rows.Next() {
		var id string
		rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	complete := int64(0)
	for _, id := range ids {
		g, log, err := cp.Game(context.Background(), id)
		if err != nil {
			t.Errorf("game %s in the copy: %v", id, err)
			continue
		}
		if g.Entries == 2 && len(log) == 2 {
			complete++
		}
	}
	if complete < before || int64(len(ids)) > atEnd+2 {
		t.Errorf("the copy holds %d games (%d whole); %d were whole before the backup, %d at its end", len(ids), complete, before, atEnd)
	}
	t.Logf("%d games whole before the backup, %d in the copy (%d whole), %d at its end: %s", before, len(ids), complete, atEnd, strings.TrimSpace(stdout.String()))
}

// TestBackupRefusals: alak backup never overwrites, never creates an
// empty database from a wrong path, and sends PostgreSQL to pg_dump.
func TestBackupRefusals(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "alak.db")
	st, err := sqlitestore.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	existing := filepath.Join(dir, "existing.db")
	os.WriteFile(existing, []byte("keep me"), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--db", db, "--out", existing}, "exists"},
		{[]string{"--db", filepath.Join(dir, "missing.db"), "--out", filepath.Join(dir, "a.db")}, "no such file"},
		{[]string{"--db", "postgres://u@127.0.0.1/alak", "--out", filepath.Join(dir, "b.db")}, "pg_dump"},
		{[]string{"--db", db}, "--out"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(&env{stdout: &stdout, stderr: &stderr}, append([]string{"backup"}, c.args...))
		if code == 0 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: %d %q, want an error saying %q", c.args, code, stderr.String(), c.want)
		}
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep me" {
		t.Errorf("the existing file was changed: %q", b)
	}
	for _, f := range []string{"missing.db", "a.db", "b.db"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s was created", f)
		}
	}
}
