package clickhouse

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
)

// A spooled batch is stored exactly as it will be inserted, so that a
// replay sends the same rows, in the same order, under the same
// deduplication token. Layout (little endian, uvarint lengths):
//
//	magic "ESB1" | header | columns | crc32c(all previous bytes)
//	header:  table name | token | seq (8 bytes) | rows (uvarint)
//	columns: count (uvarint), then per column: name | kind (1 byte) | rows values
//
// Strings are a uvarint length then the bytes; times are int64 unix
// nanoseconds; arrays are a uvarint count then their strings.

var spoolMagic = [4]byte{'E', 'S', 'B', '1'}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// Decoding limits: a corrupt or hostile file must fail cleanly, never
// allocate without bound.
const (
	maxSpoolColumns = 256
	maxSpoolRows    = 1 << 24
)

// spoolHeader is what a spool file says about itself.
type spoolHeader struct {
	table tableID
	token string
	seq   uint64
	rows  int
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// encodeBatch appends b's spool encoding to dst.
func encodeBatch(dst []byte, b *batch, token string, seq uint64) []byte {
	start := len(dst)
	dst = append(dst, spoolMagic[:]...)
	dst = appendString(dst, b.table.String())
	dst = appendString(dst, token)
	dst = binary.LittleEndian.AppendUint64(dst, seq)
	dst = binary.AppendUvarint(dst, uint64(b.rows))
	dst = binary.AppendUvarint(dst, uint64(len(b.columns)))
	for i, c := range b.columns {
		dst = appendString(dst, c.name)
		dst = append(dst, byte(c.kind))
		dst = kinds[c.kind].encode(dst, &b.cols[i])
	}
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], crcTable))
}

// appendStringList appends a count, then that many strings.
func appendStringList(dst []byte, vs []string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(vs)))
	for _, v := range vs {
		dst = appendString(dst, v)
	}
	return dst
}

// errCorrupt marks a spool file that cannot be decoded.
var errCorrupt = errors.New("corrupt spool batch")

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(format string, a ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", errCorrupt, fmt.Sprintf(format, a...))
	}
}

func (d *decoder) uvarint() uint64 { return next(d, binary.Uvarint, "bad uvarint") }
func (d *decoder) varint() int64   { return next(d, binary.Varint, "bad varint") }

// next reads one value with read, failing d with msg when it cannot (read
// then returns 0, as encoding/binary's varint readers do).
func next[T any](d *decoder, read func([]byte) (T, int), msg string) (v T) {
	if d.err != nil {
		return v
	}
	v, n := read(d.b)
	if n <= 0 {
		d.fail("%s", msg)
	} else {
		d.b = d.b[n:]
	}
	return v
}

func (d *decoder) bytes(n uint64) []byte {
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)) {
		d.fail("length %d beyond end", n)
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) string() string { return string(d.bytes(d.uvarint())) }

// stringList reads a count, then that many strings.
func (d *decoder) stringList() []string {
	vs := make([]string, d.count(maxSpoolRows, 1))
	for i := range vs {
		vs[i] = d.string()
	}
	return vs
}

func (d *decoder) uint32() uint32 {
	v := d.uvarint()
	if v > math.MaxUint32 {
		d.fail("uint32 overflow")
	}
	return uint32(v)
}

func (d *decoder) u64() uint64 {
	v := d.bytes(8)
	if v == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(v)
}

// count reads a count that must be <= limit and, since every element takes
// at least minBytes, fit in what is left.
func (d *decoder) count(limit int, minBytes int) int {
	v := d.uvarint()
	if d.err != nil {
		return 0
	}
	if v > uint64(limit) || (minBytes > 0 && v > uint64(len(d.b)/minBytes)) {
		d.fail("count %d out of range", v)
		return 0
	}
	return int(v)
}

// fits reports whether n values of at least width bytes each fit in what
// is left, and fails d when they do not.
func (d *decoder) fits(n, width int) bool {
	if n > len(d.b)/width {
		d.fail("rows beyond end")
		return false
	}
	return true
}

// checkFrame verifies the magic and the checksum and returns the body.
func checkFrame(data []byte) ([]byte, error) {
	if len(data) < len(spoolMagic)+4 || [4]byte(data[:4]) != spoolMagic {
		return nil, fmt.Errorf("%w: bad magic", errCorrupt)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, crcTable) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", errCorrupt)
	}
	return body[4:], nil
}

func decodeHeader(d *decoder) spoolHeader {
	var h spoolHeader
	name := d.string()
	t, ok := tableByName(name)
	if d.err == nil && !ok {
		d.fail("unknown table %q", name)
	}
	h.table = t
	h.token = d.string()
	h.seq = d.u64()
	h.rows = d.count(maxSpoolRows, 0)
	return h
}

// decodeSpoolHeader reads only the header of a spool file.
func decodeSpoolHeader(data []byte) (spoolHeader, error) {
	body, err := checkFrame(data)
	if err != nil {
		return spoolHeader{}, err
	}
	d := &decoder{b: body}
	h := decodeHeader(d)
	return h, d.err
}

// decodeBatch decodes a spool file into its header and batch.
func decodeBatch(data []byte) (spoolHeader, *batch, error) {
	body, err := checkFrame(data)
	if err != nil {
		return spoolHeader{}, nil, err
	}
	d := &decoder{b: body}
	h := decodeHeader(d)
	ncols := d.count(maxSpoolColumns, 2)
	if d.err != nil {
		return h, nil, d.err
	}
	if ncols == 0 {
		return h, nil, fmt.Errorf("%w: no columns", errCorrupt)
	}
	b := &batch{table: h.table, columns: make([]column, ncols), cols: make([]colData, ncols), rows: h.rows}
	seen := make(map[string]bool, ncols)
	for i := range b.columns {
		c, err := decodeColumn(d, seen)
		if err != nil {
			return h, nil, err
		}
		b.columns[i] = c
		kinds[c.kind].decode(d, &b.cols[i], h.rows)
		if d.err != nil {
			return h, nil, d.err
		}
	}
	if len(d.b) != 0 {
		return h, nil, fmt.Errorf("%w: %d trailing bytes", errCorrupt, len(d.b))
	}
	return h, b, b.check()
}

// decodeColumn reads a column's name and kind. Names must be identifiers
// and not in seen; the name read is added to seen.
func decodeColumn(d *decoder, seen map[string]bool) (column, error) {
	name := d.string()
	kb := d.bytes(1)
	if d.err != nil {
		return column{}, d.err
	}
	k := kind(kb[0])
	if !k.valid() || !identRE.MatchString(name) || seen[name] {
		return column{}, fmt.Errorf("%w: bad column %q kind %d", errCorrupt, name, k)
	}
	seen[name] = true
	return column{name: name, kind: k}, nil
}
