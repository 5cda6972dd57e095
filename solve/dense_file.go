package solve

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc64"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unsafe"

	"alak/rules"
)

// DenseTable holds the margin of every state of the dense index of one
// rule set (dense_index.go): Black's margin under perfect play with a fresh
// history, in half points, one byte a state (a state and its mirror image
// share one). It is made by DenseSolve with DenseOptions.Margins, kept in
// a file (Save, OpenDense) and read by Lookup; Tables loaded with LoadTable
// answer from it (docs/solver-dense.md). A DenseTable is
// never changed after it is made: safe for concurrent use.
type DenseTable struct {
	rules   rules.Rules
	ix      *dindex
	margins []int8
	path    string
}

// Rules returns the rules the table is for.
func (t *DenseTable) Rules() rules.Rules { return t.rules }

// States returns the number of states the table holds (a state and its
// mirror image counted once).
func (t *DenseTable) States() uint64 { return t.ix.total }

// Path returns the file the table was read from or saved to, "" if none.
func (t *DenseTable) Path() string { return t.path }

// Lookup returns the value of pos (Black's margin under perfect play, with a
// fresh history: the graph value that Solve gives when no position of the
// game's history is used up) and true, or false when pos is not one of the
// table's states: other rules, or forbidden points no capture leaves (a
// set-up position).
func (t *DenseTable) Lookup(pos rules.Position) (float64, bool) {
	if pos.Rules().String() != t.rules.String() {
		return 0, false
	}
	if o := pos.Outcome(); o.Over() {
		return o.Margin, true // (under Alter Igo an unchanged board has a live state's stones)
	}
	b, w, f, ok := pos.Line()
	if !ok {
		return 0, false
	}
	v, ok := t.value(b, w, f, pos.ToMove() == rules.White)
	return float64(v)/2 + 0, ok
}

// value is Black's margin in half points of the state (b, w, f, White to
// move if white).
func (t *DenseTable) value(b, w, f uint64, white bool) (int32, bool) {
	i, ok := t.ix.index(b, w, f, white)
	if !ok {
		return 0, false
	}
	return int32(t.margins[i]), true
}

// DenseLookup answers pos from the dense table of its rules in dir
// (OpenDense): Black's margin under perfect play with a fresh history, and
// false when there is no such table or it does not hold pos.
func DenseLookup(dir string, pos rules.Position) (float64, bool) {
	t, err := OpenDense(dir, pos.Rules())
	if err != nil || t == nil {
		return 0, false
	}
	return t.Lookup(pos)
}

// The file of a dense table (all integers little-endian):
//
//	magic    16 bytes  "ALAK-DENSE-TBL\r\n"
//	version  uint32    denseVersion: the layout of the index (dense_index.go)
//	points   uint32    the line's points
//	rules    uint32 length, then the rules as rules.Rules.String writes them
//	states   uint64    the number of states, which the index of the rules gives
//	margins  states bytes: state i's value, Black's margin in half points, as an int8
//	checksum uint64    CRC-64 (ECMA) of every byte before it
//
// A file whose magic, version, rules, points or state count is not what
// the rules give, whose length is not the one they make, or whose checksum
// does not match is refused (ErrDenseFormat), never read in part.
const (
	denseMagic   = "ALAK-DENSE-TBL\r\n"
	denseVersion = 1
)

// ErrDenseFormat is wrapped by the errors about a dense table file that
// cannot be used.
var ErrDenseFormat = errors.New("not a valid dense table file")

var crcTable = crc64.MakeTable(crc64.ECMA)

// DenseFileName returns the name of the dense table file of r in a table
// directory: the name of its results table (FileName) ending in .dense.
func DenseFileName(r rules.Rules) string {
	return strings.TrimSuffix(FileName(r), ".table") + ".dense"
}

// denseHeader returns the header of the file of rules r with count states.
func denseHeader(r rules.Rules, count uint64) []byte {
	name := r.String()
	h := make([]byte, 0, len(denseMagic)+20+len(name))
	h = append(h, denseMagic...)
	h = binary.LittleEndian.AppendUint32(h, denseVersion)
	h = binary.LittleEndian.AppendUint32(h, uint32(r.Width))
	h = binary.LittleEndian.AppendUint32(h, uint32(len(name)))
	h = append(h, name...)
	return binary.LittleEndian.AppendUint64(h, count)
}

// WriteTo writes the table in the file format above.
func (t *DenseTable) WriteTo(w io.Writer) (int64, error) {
	crc := crc64.New(crcTable)
	bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<20)
	head := denseHeader(t.rules, t.ix.total)
	n, err := bw.Write(head)
	written := int64(n)
	if err != nil {
		return written, err
	}
	const chunk = 1 << 20
	buf := make([]byte, chunk)
	for off := 0; off < len(t.margins); off += chunk {
		part := t.margins[off:min(off+chunk, len(t.margins))]
		for i, v := range part {
			buf[i] = byte(v)
		}
		n, err := bw.Write(buf[:len(part)])
		written += int64(n)
		if err != nil {
			return written, err
		}
	}
	if err := bw.Flush(); err != nil {
		return written, err
	}
	n, err = w.Write(binary.LittleEndian.AppendUint64(nil, crc.Sum64()))
	return written + int64(n), err
}

// Save writes the table to DenseFileName(rules) in dir (creating dir),
// replacing any file there atomically, and returns its path.
func (t *DenseTable) Save(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, DenseFileName(t.rules))
	tmp, err := os.CreateTemp(dir, ".dense-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := t.WriteTo(tmp); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", err
	}
	denseCache.Delete(path)
	t.path = path
	return path, nil
}

// ReadDense reads and checks the dense table of rules r in the file path.
// The margins are mapped from the file where the system allows (shared by
// every process that reads it), else read into memory.
func ReadDense(path string, r rules.Rules) (*DenseTable, error) {
	if !denseApplies(r) {
		return nil, fmt.Errorf("dense table of %s: %w", r.String(), ErrUnsupported)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	ix := newDindex(r)
	head := denseHeader(r, ix.total)
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s: %w: "+format, append([]any{path, ErrDenseFormat}, a...)...)
	}
	got := make([]byte, len(head))
	if _, err := io.ReadFull(f, got); err != nil {
		return nil, bad("shorter than its header")
	}
	switch {
	case string(got[:len(denseMagic)]) != denseMagic:
		return nil, bad("no dense table magic")
	case binary.LittleEndian.Uint32(got[len(denseMagic):]) != denseVersion:
		return nil, bad("version %d, this program reads version %d", binary.LittleEndian.Uint32(got[len(denseMagic):]), denseVersion)
	case string(got) != string(head):
		return nil, bad("the header is not that of the rules %q with %d states", r.String(), ix.total)
	}
	want := int64(len(head)) + int64(ix.total) + 8
	if fi.Size() != want {
		return nil, bad("%d bytes, the rules' table has %d (truncated or extended)", fi.Size(), want)
	}
	data, unmap, err := mapFile(f, want)
	if err != nil {
		return nil, err
	}
	crc := crc64.Update(0, crcTable, data[:want-8])
	if crc != binary.LittleEndian.Uint64(data[want-8:]) {
		if unmap != nil {
			unmap()
		}
		return nil, bad("the checksum does not match (the file is corrupt)")
	}
	body := data[len(head) : want-8]
	return &DenseTable{rules: r, ix: ix, margins: bytesAsInt8(body), path: path}, nil
}

// denseCache holds the dense tables OpenDense read, by path, with the
// file's size and time when read.
var denseCache sync.Map // path -> *denseCached

type denseCached struct {
	size int64
	mod  time.Time
	tab  *DenseTable
}

// OpenDense returns the dense table of rules r in the table directory dir,
// nil (and no error) when there is none. A table is read and checked once
// per process (and again when its file changes).
func OpenDense(dir string, r rules.Rules) (*DenseTable, error) {
	if !denseApplies(r) {
		return nil, nil
	}
	path := filepath.Join(dir, DenseFileName(r))
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if c, ok := denseCache.Load(path); ok {
		c := c.(*denseCached)
		if c.size == fi.Size() && c.mod.Equal(fi.ModTime()) {
			return c.tab, nil
		}
	}
	t, err := ReadDense(path, r)
	if err != nil {
		return nil, err
	}
	denseCache.Store(path, &denseCached{size: fi.Size(), mod: fi.ModTime(), tab: t})
	return t, nil
}

// readFile reads the first size bytes of f into memory.
func readFile(f *os.File, size int64) ([]byte, func() error, error) {
	data := make([]byte, size)
	if _, err := f.ReadAt(data, 0); err != nil {
		return nil, nil, err
	}
	return data, nil, nil
}

// bytesAsInt8 views b as int8s.
func bytesAsInt8(b []byte) []int8 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*int8)(unsafe.Pointer(&b[0])), len(b))
}
