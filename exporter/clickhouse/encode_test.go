package clickhouse

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"reflect"
	"strings"
	"testing"
	"time"
)

func testBatches(t testing.TB, n int) [numTables]*batch {
	t.Helper()
	var bs [numTables]*batch
	for tb := range numTables {
		bs[tb] = newBatch(tb, tableDefs[tb].columns, 0)
	}
	rb := rowBuilder{sidecarVersion: "v"}
	for i := range n {
		rb.append(&bs, testEvaluation(i), baseTime.Add(time.Hour+time.Duration(i)*time.Millisecond))
	}
	for tb := range numTables {
		if err := bs[tb].check(); err != nil {
			t.Fatal(err)
		}
		if bs[tb].rows != n*rowsPerEvaluation[tb] {
			t.Fatalf("%s: %d rows, want %d", tb, bs[tb].rows, n*rowsPerEvaluation[tb])
		}
	}
	return bs
}

func TestEncodeRoundTrip(t *testing.T) {
	for _, b := range testBatches(t, 7) {
		data := encodeBatch(nil, b, "tok", 42)
		h, got, err := decodeBatch(data)
		if err != nil {
			t.Fatalf("%s: %v", b.table, err)
		}
		if h.token != "tok" || h.seq != 42 || h.rows != b.rows || h.table != b.table {
			t.Errorf("%s: header %+v", b.table, h)
		}
		for i, c := range b.columns {
			if got.columns[i].name != c.name || got.columns[i].kind != c.kind {
				t.Errorf("%s: column %d is %v, want %v", b.table, i, got.columns[i], c)
			}
			if !reflect.DeepEqual(normalize(got.cols[i].values(c.kind)), normalize(b.cols[i].values(c.kind))) {
				t.Errorf("%s.%s: values differ after a round trip", b.table, c.name)
			}
		}
		// Byte-identical re-encoding: a replay sends the same batch.
		if again := encodeBatch(nil, got, "tok", 42); !bytes.Equal(again, data) {
			t.Errorf("%s: re-encoding differs", b.table)
		}
	}
}

// normalize makes times comparable with DeepEqual (locations differ).
func normalize(v any) any {
	if ts, ok := v.([]time.Time); ok {
		out := make([]int64, len(ts))
		for i, t := range ts {
			out[i] = t.UnixNano()
		}
		return out
	}
	return v
}

func TestDecodeRejectsCorruption(t *testing.T) {
	b := testBatches(t, 2)[tToolCalls]
	good := encodeBatch(nil, b, "tok", 1)
	cases := map[string][]byte{
		"empty":     nil,
		"magic":     append([]byte("XXXX"), good[4:]...),
		"truncated": good[:len(good)/2],
		"bit flip":  flip(good, len(good)/3),
		"crc":       flip(good, len(good)-1),
	}
	for name, data := range cases {
		if _, _, err := decodeBatch(data); !errors.Is(err, errCorrupt) {
			t.Errorf("%s: err = %v, want errCorrupt", name, err)
		}
	}
}

func flip(b []byte, i int) []byte {
	c := append([]byte(nil), b...)
	c[i] ^= 0x40
	return c
}

// FuzzDecodeBatch: spool files are read back after crashes and disk
// faults; any bytes must decode cleanly or fail with errCorrupt, never
// panic or allocate without bound. The checksum is recomputed so that the
// fuzzer reaches the body decoder.
func FuzzDecodeBatch(f *testing.F) {
	for _, b := range testBatches(f, 2) {
		f.Add(encodeBatch(nil, b, "seed", 1)[:0])
		f.Add(stripCRC(encodeBatch(nil, b, "seed", 1)))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		data := withCRC(body)
		h, b, err := decodeBatch(data)
		if err != nil {
			if !errors.Is(err, errCorrupt) {
				t.Fatalf("error %v does not wrap errCorrupt", err)
			}
			return
		}
		if err := b.check(); err != nil || b.rows != h.rows {
			t.Fatalf("decoded an inconsistent batch: %v", err)
		}
		again := encodeBatch(nil, b, h.token, h.seq)
		h2, b2, err := decodeBatch(again)
		if err != nil || h2 != h || !reflect.DeepEqual(b2.columns, b.columns) {
			t.Fatalf("re-encoded batch does not decode the same: %v", err)
		}
	})
}

func stripCRC(b []byte) []byte { return b[:len(b)-4] }

func withCRC(body []byte) []byte {
	b := append([]byte(nil), body...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
}

// spoolFile frames a hand-built spool body: a tool_calls header with rows
// rows, then the given column encodings.
func spoolFile(rows int, cols ...[]byte) []byte {
	b := append([]byte(nil), spoolMagic[:]...)
	b = appendString(b, tToolCalls.String())
	b = appendString(b, "tok")
	b = binary.LittleEndian.AppendUint64(b, 1)
	b = binary.AppendUvarint(b, uint64(rows))
	b = binary.AppendUvarint(b, uint64(len(cols)))
	for _, c := range cols {
		b = append(b, c...)
	}
	return withCRC(b)
}

// spoolColumn encodes a column head followed by raw value bytes.
func spoolColumn(name string, k kind, values ...[]byte) []byte {
	b := appendString(nil, name)
	b = append(b, byte(k))
	for _, v := range values {
		b = append(b, v...)
	}
	return b
}

func TestDecodeColumns(t *testing.T) {
	str := func(s string) []byte { return appendString(nil, s) }
	uv := func(v uint64) []byte { return binary.AppendUvarint(nil, v) }
	le := func(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
	cases := []struct {
		name string
		data []byte
		want string // error text; "" for a good file
	}{
		{"every kind", spoolFile(2,
			spoolColumn("s", kString, str("a"), str("")),
			spoolColumn("l", kLowString, str("x"), str("y")),
			spoolColumn("f", kFloat64, le(0), le(1)),
			spoolColumn("u8", kUInt8, []byte{1, 2}),
			spoolColumn("u32", kUInt32, uv(0), uv(1<<32-1)),
			spoolColumn("u64", kUInt64, le(7), le(1<<63)),
			spoolColumn("t", kTime, binary.AppendVarint(nil, -1), binary.AppendVarint(nil, 1)),
			spoolColumn("ss", kStrings, uv(0), uv(2), str("a"), str("b")),
		), ""},
		{"no rows", spoolFile(0, spoolColumn("s", kString), spoolColumn("ss", kStrings)), ""},
		{"no columns", spoolFile(2), "no columns"},
		{"unknown kind", spoolFile(1, spoolColumn("s", 0, str("a"))), `bad column "s" kind 0`},
		{"kind beyond the last", spoolFile(1, spoolColumn("s", kNullUInt8+1, str("a"))), "bad column"},
		{"bad name", spoolFile(1, spoolColumn("1s", kString, str("a"))), `bad column "1s"`},
		{"duplicate name", spoolFile(1, spoolColumn("s", kString, str("a")), spoolColumn("s", kString, str("b"))), `bad column "s"`},
		{"strings beyond end", spoolFile(3, spoolColumn("s", kString, str(""), str(""))), "rows beyond end"},
		{"floats beyond end", spoolFile(2, spoolColumn("f", kFloat64, le(0), []byte{1, 2, 3, 4, 5, 6, 7})), "rows beyond end"},
		{"uint8 beyond end", spoolFile(3, spoolColumn("u8", kUInt8, []byte{1, 2})), "length 3 beyond end"},
		{"bad verdict", spoolFile(2, spoolColumn("v", kNullUInt8, []byte{1, 3})), "verdict column"},
		{"verdicts beyond end", spoolFile(3, spoolColumn("v", kNullUInt8, []byte{1, nullU8})), "length 3 beyond end"},
		{"uint32 overflow", spoolFile(1, spoolColumn("u32", kUInt32, uv(1<<32))), "uint32 overflow"},
		{"uint64 beyond end", spoolFile(1, spoolColumn("u64", kUInt64, []byte{1})), "rows beyond end"},
		{"time beyond end", spoolFile(2, spoolColumn("t", kTime, uv(0))), "rows beyond end"},
		{"bad varint", spoolFile(1, spoolColumn("t", kTime, []byte{0x80})), "bad varint"},
		{"list count beyond end", spoolFile(1, spoolColumn("ss", kStrings, uv(5), str("a"))), "count 5 out of range"},
		{"trailing bytes", withCRC(append(stripCRC(spoolFile(1, spoolColumn("s", kString, str("a")))), 0)), "1 trailing bytes"},
	}
	for _, c := range cases {
		h, b, err := decodeBatch(c.data)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				continue
			}
			if b.rows != h.rows || !bytes.Equal(encodeBatch(nil, b, h.token, h.seq), c.data) {
				t.Errorf("%s: does not re-encode to the same bytes", c.name)
			}
			continue
		}
		if !errors.Is(err, errCorrupt) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want errCorrupt with %q", c.name, err, c.want)
		}
	}
}
