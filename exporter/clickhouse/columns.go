package clickhouse

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"time"
)

// kind is a column's value type. Every kind maps to one Go slice type that
// clickhouse-go appends column-wise, and to a portable ClickHouse type.
type kind uint8

const (
	kString    kind = iota + 1 // String
	kLowString                 // LowCardinality(String)
	kFloat64                   // Float64
	kUInt8                     // UInt8 (booleans as 0/1)
	kUInt32                    // UInt32
	kUInt64                    // UInt64
	kTime                      // DateTime, or DateTime64(9) where the server has it
	kStrings                   // Array(String)
	// kNullUInt8 is Nullable(UInt8), a verdict: 0, 1, or nullU8 for
	// NULL. New kinds go at the end: spool files store kinds by number.
	kNullUInt8
)

// nullU8 is a NULL in a kNullUInt8 column.
const nullU8 = 2

func (k kind) valid() bool { return k >= kString && k <= kNullUInt8 }

// chTypes are the kinds' ClickHouse types; kTime's is DateTime64(9, 'UTC')
// where the server has it.
var chTypes = [...]string{kString: "String", kLowString: "LowCardinality(String)", kFloat64: "Float64", kUInt8: "UInt8",
	kUInt32: "UInt32", kUInt64: "UInt64", kTime: "DateTime('UTC')", kStrings: "Array(String)", kNullUInt8: "Nullable(UInt8)"}

// chType is the ClickHouse type of k on a server with features f.
func (k kind) chType(f features) string {
	switch {
	case k == kTime && f.DateTime64:
		return "DateTime64(9, 'UTC')"
	case k.valid():
		return chTypes[k]
	}
	return fmt.Sprintf("unknown kind %d", k)
}

// column is one column of a table.
type column struct {
	name string
	kind kind
	// codec is the compression codec used where the server has codecs.
	codec string
}

// colData holds one column's values; only the slice of its kind is used.
type colData struct {
	str  []string
	f64  []float64
	u8   []uint8
	u32  []uint32
	u64  []uint64
	t    []time.Time
	strs [][]string
}

// values returns the column's slice, as clickhouse-go's column-wise
// Append takes it.
func (c *colData) values(k kind) any { return kinds[k].values(c) }

// kindOps are the operations on the values of one kind.
type kindOps interface {
	init(c *colData, capRows int)
	len(c *colData) int
	values(c *colData) any
	encode(dst []byte, c *colData) []byte
	decode(d *decoder, c *colData, n int)
}

// typed is the kindOps of values of type T, held in one field of colData
// and spooled one by one.
type typed[T any] struct {
	field func(*colData) *[]T
	enc   func([]byte, T) []byte
	dec   func(*decoder) T
	width int // the fewest bytes a spooled value takes
}

func (o typed[T]) init(c *colData, capRows int) { *o.field(c) = make([]T, 0, capRows) }
func (o typed[T]) len(c *colData) int           { return len(*o.field(c)) }
func (o typed[T]) values(c *colData) any        { return *o.field(c) }

func (o typed[T]) encode(dst []byte, c *colData) []byte {
	for _, v := range *o.field(c) {
		dst = o.enc(dst, v)
	}
	return dst
}

// decode reads n values; a row count beyond what is left fails before
// allocating.
func (o typed[T]) decode(d *decoder, c *colData, n int) {
	if !d.fits(n, o.width) {
		return
	}
	vs := make([]T, n)
	for i := range vs {
		vs[i] = o.dec(d)
	}
	*o.field(c) = vs
}

// byteOps are the kUInt8 values, spooled as one byte each, written and
// read in one piece.
type byteOps struct{ typed[uint8] }

func (byteOps) encode(dst []byte, c *colData) []byte { return append(dst, c.u8...) }

func (byteOps) decode(d *decoder, c *colData, n int) {
	c.u8 = append([]uint8(nil), d.bytes(uint64(n))...)
}

// verdicts are the kNullUInt8 values: 0, 1 or nullU8 for NULL.
type verdicts struct{ byteOps }

func (verdicts) values(c *colData) any {
	vs := make([]*uint8, len(c.u8))
	for i := range c.u8 {
		if c.u8[i] != nullU8 {
			vs[i] = &c.u8[i]
		}
	}
	return vs
}

func (o verdicts) decode(d *decoder, c *colData, n int) {
	o.byteOps.decode(d, c, n)
	if slices.ContainsFunc(c.u8, func(v uint8) bool { return v > nullU8 }) {
		d.fail("verdict column holds a value other than 0, 1 or NULL")
	}
}

var (
	stringOps = typed[string]{func(c *colData) *[]string { return &c.str }, appendString, (*decoder).string, 1}
	uint8Ops  = byteOps{typed[uint8]{field: func(c *colData) *[]uint8 { return &c.u8 }}}
)

// kinds are the operations of every kind. The spool encoding of each is
// described in encode.go.
var kinds = [...]kindOps{
	kString:    stringOps,
	kLowString: stringOps,
	kFloat64: typed[float64]{func(c *colData) *[]float64 { return &c.f64 },
		func(b []byte, v float64) []byte { return binary.LittleEndian.AppendUint64(b, math.Float64bits(v)) },
		func(d *decoder) float64 { return math.Float64frombits(d.u64()) }, 8},
	kUInt8: uint8Ops,
	kUInt32: typed[uint32]{func(c *colData) *[]uint32 { return &c.u32 },
		func(b []byte, v uint32) []byte { return binary.AppendUvarint(b, uint64(v)) }, (*decoder).uint32, 1},
	kUInt64: typed[uint64]{func(c *colData) *[]uint64 { return &c.u64 }, binary.LittleEndian.AppendUint64, (*decoder).u64, 8},
	kTime: typed[time.Time]{func(c *colData) *[]time.Time { return &c.t },
		func(b []byte, v time.Time) []byte { return binary.AppendVarint(b, v.UnixNano()) },
		func(d *decoder) time.Time { return time.Unix(0, d.varint()).UTC() }, 1},
	kStrings:   typed[[]string]{func(c *colData) *[][]string { return &c.strs }, appendStringList, (*decoder).stringList, 1},
	kNullUInt8: verdicts{uint8Ops},
}

// batch is a column-wise block of rows of one table.
type batch struct {
	table   tableID
	columns []column
	cols    []colData
	rows    int
}

func newBatch(t tableID, columns []column, capRows int) *batch {
	b := &batch{table: t, columns: columns, cols: make([]colData, len(columns))}
	for i, c := range columns {
		kinds[c.kind].init(&b.cols[i], capRows)
	}
	return b
}

// check reports a batch whose columns disagree on the row count.
func (b *batch) check() error {
	for i, c := range b.columns {
		if n := kinds[c.kind].len(&b.cols[i]); n != b.rows {
			return fmt.Errorf("column %s has %d values, batch has %d rows", c.name, n, b.rows)
		}
	}
	return nil
}

// rowWriter appends one row, column by column in table order.
type rowWriter struct {
	b *batch
	i int
}

func (b *batch) row() rowWriter { return rowWriter{b: b} }

func (w *rowWriter) next(k kind) *colData {
	c := w.b.columns[w.i]
	if c.kind != k && (k != kString || c.kind != kLowString) {
		panic(fmt.Sprintf("clickhouse: column %s is %d, row writer gave %d", c.name, c.kind, k))
	}
	d := &w.b.cols[w.i]
	w.i++
	return d
}

func (w *rowWriter) str(v string)     { d := w.next(kString); d.str = append(d.str, v) }
func (w *rowWriter) f64(v float64)    { d := w.next(kFloat64); d.f64 = append(d.f64, v) }
func (w *rowWriter) u32(v uint32)     { d := w.next(kUInt32); d.u32 = append(d.u32, v) }
func (w *rowWriter) u64(v uint64)     { d := w.next(kUInt64); d.u64 = append(d.u64, v) }
func (w *rowWriter) time(v time.Time) { d := w.next(kTime); d.t = append(d.t, v) }
func (w *rowWriter) strs(v []string)  { d := w.next(kStrings); d.strs = append(d.strs, v) }
func (w *rowWriter) verdict(v *bool) {
	d := w.next(kNullUInt8)
	u := uint8(nullU8)
	if v != nil {
		u = 0
		if *v {
			u = 1
		}
	}
	d.u8 = append(d.u8, u)
}
func (w *rowWriter) bool(v bool) {
	d := w.next(kUInt8)
	var u uint8
	if v {
		u = 1
	}
	d.u8 = append(d.u8, u)
}

// done ends the row; it panics when the row writer skipped columns, which
// is a programming error caught by every test that writes a row.
func (w *rowWriter) done() {
	if w.i != len(w.b.columns) {
		panic(fmt.Sprintf("clickhouse: row wrote %d of %d columns", w.i, len(w.b.columns)))
	}
	w.b.rows++
}
