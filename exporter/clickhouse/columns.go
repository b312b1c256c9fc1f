package clickhouse

import (
	"fmt"
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
func (c *colData) values(k kind) any {
	switch k {
	case kString, kLowString:
		return c.str
	case kFloat64:
		return c.f64
	case kUInt8:
		return c.u8
	case kUInt32:
		return c.u32
	case kUInt64:
		return c.u64
	case kTime:
		return c.t
	case kStrings:
		return c.strs
	case kNullUInt8:
		vs := make([]*uint8, len(c.u8))
		for i := range c.u8 {
			if c.u8[i] != nullU8 {
				vs[i] = &c.u8[i]
			}
		}
		return vs
	}
	return nil
}

func (c *colData) len(k kind) int {
	switch k {
	case kString, kLowString:
		return len(c.str)
	case kFloat64:
		return len(c.f64)
	case kUInt8, kNullUInt8:
		return len(c.u8)
	case kUInt32:
		return len(c.u32)
	case kUInt64:
		return len(c.u64)
	case kTime:
		return len(c.t)
	case kStrings:
		return len(c.strs)
	}
	return 0
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
		d := &b.cols[i]
		switch c.kind {
		case kString, kLowString:
			d.str = make([]string, 0, capRows)
		case kFloat64:
			d.f64 = make([]float64, 0, capRows)
		case kUInt8, kNullUInt8:
			d.u8 = make([]uint8, 0, capRows)
		case kUInt32:
			d.u32 = make([]uint32, 0, capRows)
		case kUInt64:
			d.u64 = make([]uint64, 0, capRows)
		case kTime:
			d.t = make([]time.Time, 0, capRows)
		case kStrings:
			d.strs = make([][]string, 0, capRows)
		}
	}
	return b
}

// check reports a batch whose columns disagree on the row count.
func (b *batch) check() error {
	for i, c := range b.columns {
		if n := b.cols[i].len(c.kind); n != b.rows {
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
