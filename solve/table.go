package solve

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"alak/rules"
)

// Table holds exact values of solved positions for one rule set and size,
// kept in a file so that later queries answer at once, and the dense table
// of the rules when the directory has one (every position's value: see
// DenseTable). A Table is safe for use by one solve at a time; its methods
// lock. A frozen table (Freeze) is safe for any number of solves at once.
type Table struct {
	mu      sync.Mutex
	rules   rules.Rules
	path    string
	vals    map[ttKey]int16
	changed bool
	dense   *DenseTable
	frozen  bool
}

// tableMagic starts every table file; the version is its last byte.
const tableMagic = "ALAK-SOLVE-TABLE-1\n"

// maxTableEntries bounds what one solve adds from its transposition table.
const maxTableEntries = 1 << 21

// DefaultDir returns the directory tables are kept in:
// $XDG_CACHE_HOME/alak, else ~/.cache/alak.
func DefaultDir() (string, error) {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "alak"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no table directory: %w (set XDG_CACHE_HOME or pass a directory)", err)
	}
	return filepath.Join(home, ".cache", "alak"), nil
}

// FileName returns the name of the table file of r: the rules as
// rules.Rules.String writes them, with spaces turned into underscores.
func FileName(r rules.Rules) string {
	name := strings.NewReplacer(" ", "_", "/", "_", string(filepath.Separator), "_").Replace(r.String())
	return name + ".table"
}

// LoadTable opens the table of rules r in dir, or an empty one if the file
// does not exist yet, with the dense table of r in dir if there is one
// (OpenDense; a dense file that fails its checks is an error).
func LoadTable(dir string, r rules.Rules) (*Table, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	t := &Table{rules: r, path: filepath.Join(dir, FileName(r)), vals: map[ttKey]int16{}}
	d, err := OpenDense(dir, r)
	if err != nil {
		return nil, err
	}
	t.dense = d
	f, err := os.Open(t.path)
	if errors.Is(err, os.ErrNotExist) {
		return t, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := t.read(bufio.NewReader(f)); err != nil {
		return nil, fmt.Errorf("table %s: %w", t.path, err)
	}
	return t, nil
}

// ErrTableFormat is wrapped by errors about a table file that cannot be read.
var ErrTableFormat = errors.New("not a table file of this version")

func (t *Table) read(rd io.Reader) error {
	head := make([]byte, len(tableMagic))
	if _, err := io.ReadFull(rd, head); err != nil || string(head) != tableMagic {
		return ErrTableFormat
	}
	var n uint32
	if err := binary.Read(rd, binary.LittleEndian, &n); err != nil || n > 4096 {
		return ErrTableFormat
	}
	name := make([]byte, n)
	if _, err := io.ReadFull(rd, name); err != nil {
		return ErrTableFormat
	}
	if string(name) != t.rules.String() {
		return fmt.Errorf("%w: it holds %q, not %q", ErrTableFormat, name, t.rules.String())
	}
	var count uint64
	if err := binary.Read(rd, binary.LittleEndian, &count); err != nil {
		return ErrTableFormat
	}
	var rec [34]byte
	for i := uint64(0); i < count; i++ {
		if _, err := io.ReadFull(rd, rec[:]); err != nil {
			return fmt.Errorf("%w: truncated after %d of %d entries", ErrTableFormat, i, count)
		}
		k := ttKey{
			binary.LittleEndian.Uint64(rec[0:]), binary.LittleEndian.Uint64(rec[8:]),
			binary.LittleEndian.Uint64(rec[16:]), binary.LittleEndian.Uint64(rec[24:]),
		}
		t.vals[k] = int16(binary.LittleEndian.Uint16(rec[32:]))
	}
	return nil
}

// Rules returns the rules the table is for.
func (t *Table) Rules() rules.Rules { return t.rules }

// Path returns the table's file.
func (t *Table) Path() string { return t.path }

// Len returns the number of positions the table holds.
func (t *Table) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.vals)
}

// Dense returns the dense table the table answers from, nil if none.
func (t *Table) Dense() *DenseTable {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.dense
}

// SetDense makes the table answer from d (nil: no dense table) for the
// positions its entries do not hold; d must be of the table's rules.
func (t *Table) SetDense(d *DenseTable) error {
	if d != nil && d.rules.String() != t.rules.String() {
		return fmt.Errorf("a dense table of %q given to the table of %q: %w", d.rules.String(), t.rules.String(), ErrDenseFormat)
	}
	t.mu.Lock()
	t.dense = d
	t.mu.Unlock()
	return nil
}

// get returns the value of the position keyed k for its player to move
// (half points): from the entries, else from the dense table, which keys
// alak positions (no pass, no prisoners: k.x is the player to move).
func (t *Table) get(k ttKey) (int16, bool) {
	t.mu.Lock()
	v, ok := t.vals[k]
	d := t.dense
	t.mu.Unlock()
	if !ok && d != nil && k.x <= 1 {
		m, found := d.value(k.b, k.w, k.f, k.x == 1)
		if found {
			if k.x == 1 {
				m = -m
			}
			return int16(m), true
		}
	}
	return v, ok
}

// Freeze makes the table take nothing more: solves answer from it and add
// nothing, so its memory stays what it was when loaded, and Save writes
// nothing. A server freezes the tables it shares between games (each solve
// of an unfrozen table may add up to maxTableEntries entries).
func (t *Table) Freeze() {
	t.mu.Lock()
	t.frozen = true
	t.mu.Unlock()
}

// Frozen reports whether Freeze was called.
func (t *Table) Frozen() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.frozen
}

func (t *Table) put(k ttKey, v int16) {
	t.mu.Lock()
	if t.frozen {
		t.mu.Unlock()
		return
	}
	if old, ok := t.vals[k]; !ok || old != v {
		t.vals[k] = v
		t.changed = true
	}
	t.mu.Unlock()
}

// Save writes the table to its file (creating the directory), replacing the
// file atomically. It does nothing when nothing changed.
func (t *Table) Save() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.changed {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(t.path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(t.path), ".table-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	name := t.rules.String()
	w.WriteString(tableMagic)
	binary.Write(w, binary.LittleEndian, uint32(len(name)))
	w.WriteString(name)
	binary.Write(w, binary.LittleEndian, uint64(len(t.vals)))
	var rec [34]byte
	for k, v := range t.vals {
		binary.LittleEndian.PutUint64(rec[0:], k.b)
		binary.LittleEndian.PutUint64(rec[8:], k.w)
		binary.LittleEndian.PutUint64(rec[16:], k.f)
		binary.LittleEndian.PutUint64(rec[24:], k.x)
		binary.LittleEndian.PutUint16(rec[32:], uint16(v))
		w.Write(rec[:])
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), t.path); err != nil {
		return err
	}
	t.changed = false
	return nil
}

// fill adds what a complete solve proved: the root's value and the exact
// values in the transposition table (up to a bound).
func (s *searcher) fill(hist []rules.Position, v int32) {
	if s.table.Frozen() {
		return
	}
	pos := hist[len(hist)-1]
	k := s.keys(pos)
	if s.graph {
		counts := map[uint64]int{}
		for _, p := range hist[:len(hist)-1] {
			counts[s.keys(p).rep]++
		}
		for h, c := range counts {
			if h != k.rep && c+1 >= s.rep {
				return // history-dependent: not a value of the position alone
			}
		}
	} else {
		s.counts, s.boards, s.hctx, s.hctxM = map[uint64]int{}, map[uint64]int{}, 0, 0
		for i := range hist {
			hk := s.keys(hist[i])
			s.push(&hk)
		}
		s.withContext(&k)
	}
	s.table.put(k.tt, int16(v))
	added := 0
	if s.retro != nil && s.retro.compact != nil {
		added = s.retro.compact.fill(s.table, maxTableEntries)
	}
	if s.retro != nil {
		for i, p := range s.retro.pos {
			if added >= maxTableEntries {
				break
			}
			if s.retro.term[i] == noTerm {
				pv, _ := s.retro.valueOf(p)
				s.table.put(s.key(p), int16(pv))
				added++
			}
		}
	}
	s.tt.each(func(e *entry) {
		if e.lo == e.hi && added < maxTableEntries {
			s.table.put(e.key, e.lo)
			added++
		}
	})
}
