package nesting

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/protobuf/encoding/protowire"
)

// nested returns a value nested depth levels (1 = scalar), alternating
// arrays and maps so that both paths are exercised.
func nested(v pcommon.Value, depth int) {
	for i := range depth - 1 {
		if i%2 == 0 {
			v = v.SetEmptySlice().AppendEmpty()
		} else {
			v = v.SetEmptyMap().PutEmpty("k")
		}
	}
	v.SetStr("leaf")
}

func tracesWithDepth(depth int, where string) []byte {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	ss := rs.ScopeSpans().AppendEmpty()
	sp := ss.Spans().AppendEmpty()
	sp.SetName("s")
	var v pcommon.Value
	switch where {
	case "resource":
		v = rs.Resource().Attributes().PutEmpty("a")
	case "scope":
		v = ss.Scope().Attributes().PutEmpty("a")
	case "span":
		v = sp.Attributes().PutEmpty("a")
	case "event":
		v = sp.Events().AppendEmpty().Attributes().PutEmpty("a")
	case "link":
		v = sp.Links().AppendEmpty().Attributes().PutEmpty("a")
	}
	nested(v, depth)
	b, _ := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	return b
}

func TestCheckProtoTraces(t *testing.T) {
	for _, where := range []string{"resource", "scope", "span", "event", "link"} {
		for _, tc := range []struct {
			depth   int
			wantErr bool
		}{{1, false}, {10, false}, {10, false}, {11, true}, {300, true}} {
			err := CheckProto(tracesWithDepth(tc.depth, where), TracesRequest, 10)
			if got := errors.Is(err, ErrTooDeep); got != tc.wantErr {
				t.Errorf("%s depth %d: err = %v, want too deep = %v", where, tc.depth, err, tc.wantErr)
			}
		}
	}
}

func TestCheckProtoLogs(t *testing.T) {
	for _, where := range []string{"body", "attributes"} {
		for _, tc := range []struct {
			depth   int
			wantErr bool
		}{{10, false}, {11, true}} {
			req := plogotlp.NewExportRequest()
			lr := req.Logs().ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty().LogRecords().AppendEmpty()
			v := lr.Body()
			if where == "attributes" {
				v = lr.Attributes().PutEmpty("a")
			}
			nested(v, tc.depth)
			b, _ := req.MarshalProto()
			err := CheckProto(b, LogsRequest, 10)
			if got := errors.Is(err, ErrTooDeep); got != tc.wantErr {
				t.Errorf("%s depth %d: err = %v, want too deep = %v", where, tc.depth, err, tc.wantErr)
			}
		}
	}
}

func TestCheckProtoMalformedIsLeftToTheDecoder(t *testing.T) {
	for _, b := range [][]byte{nil, {0xff}, {0x0a, 0x80}, {0x0a, 0x05, 0x01}} {
		if err := CheckProto(b, TracesRequest, 10); err != nil {
			t.Errorf("%x: %v", b, err)
		}
	}
}

func TestCheckJSON(t *testing.T) {
	f := func(in string, limit int, wantErr bool) {
		t.Helper()
		if got := errors.Is(CheckJSON([]byte(in), limit), ErrTooDeep); got != wantErr {
			t.Errorf("CheckJSON(%q, %d) too deep = %v, want %v", in, limit, got, wantErr)
		}
	}
	f(`{}`, 1, false)
	f(`{"a":[]}`, 1, true)
	f(`{"a":[]}`, 2, false)
	f(`{"a":"[[[[[[[["}`, 1, false)
	f(`{"a":"\"[[[["}`, 1, false)
	f(strings.Repeat("[", 100), 99, true)
	f(`]]]]`, 1, false)
}

// FuzzCheckProto checks that the guard never panics and that whatever it
// lets through decodes without exhausting the stack.
func FuzzCheckProto(f *testing.F) {
	f.Add(tracesWithDepth(3, "span"))
	f.Add(tracesWithDepth(12, "event"))
	f.Add([]byte{0x0a, 0x02, 0x0a, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		if CheckProto(b, TracesRequest, 16) != nil {
			return
		}
		_ = ptraceotlp.NewExportRequest().UnmarshalProto(b)
		_ = CheckProto(b, LogsRequest, 16)
	})
}

// anyValue returns the wire form of an AnyValue nesting depth AnyValues
// through array values, built by hand from the OTLP field numbers.
func anyValue(depth int) []byte {
	v := protowire.AppendTag(nil, 1, protowire.BytesType) // string_value
	v = protowire.AppendString(v, "leaf")
	for range depth - 1 {
		arr := protowire.AppendTag(nil, 1, protowire.BytesType) // ArrayValue.values
		arr = protowire.AppendBytes(arr, v)
		v = protowire.AppendTag(nil, 5, protowire.BytesType) // array_value
		v = protowire.AppendBytes(v, arr)
	}
	return v
}

// message returns the wire form of one bytes field holding body.
func message(field protowire.Number, body []byte) []byte {
	b := protowire.AppendTag(nil, field, protowire.BytesType)
	return protowire.AppendBytes(b, body)
}

// TestCheckProtoFieldPaths walks hand-built requests through every
// container field, the deprecated instrumentation_library_* fields (1000)
// included, and checks that bytes fields off the path are not walked.
func TestCheckProtoFieldPaths(t *testing.T) {
	keyValue := func(depth int) []byte { return message(2, anyValue(depth)) }
	// request holds one resource whose field resourceField holds scope.
	request := func(resourceField protowire.Number, scope []byte) []byte {
		return message(1, message(resourceField, scope))
	}
	// span is a scope holding one span whose field field holds body.
	span := func(field protowire.Number, body []byte) []byte { return message(2, message(field, body)) }
	cases := []struct {
		name    string
		body    func(depth int) []byte
		root    Kind
		checked bool
	}{
		{"span attributes", func(d int) []byte { return request(2, span(9, keyValue(d))) }, TracesRequest, true},
		{"instrumentation_library_spans", func(d int) []byte { return request(1000, span(9, keyValue(d))) }, TracesRequest, true},
		{"event attributes", func(d int) []byte { return request(2, span(11, message(3, keyValue(d)))) }, TracesRequest, true},
		{"link attributes", func(d int) []byte { return request(2, span(13, message(4, keyValue(d)))) }, TracesRequest, true},
		{"resource attributes", func(d int) []byte { return message(1, message(1, message(1, keyValue(d)))) }, TracesRequest, true},
		{"scope attributes", func(d int) []byte { return message(1, message(2, message(1, message(3, keyValue(d))))) }, TracesRequest, true},
		{"kvlist value", func(d int) []byte {
			kvlist := message(6, message(1, keyValue(d-1)))
			return request(2, span(9, message(2, kvlist)))
		}, TracesRequest, true},
		{"span name", func(d int) []byte { return request(2, span(5, keyValue(d))) }, TracesRequest, false},
		{"event name", func(d int) []byte { return request(2, span(11, message(2, keyValue(d)))) }, TracesRequest, false},
		{"resource schema_url", func(d int) []byte { return request(3, span(9, keyValue(d))) }, TracesRequest, false},
		{"log body", func(d int) []byte { return request(2, message(2, message(5, anyValue(d)))) }, LogsRequest, true},
		{"log attributes", func(d int) []byte { return request(2, message(2, message(6, keyValue(d)))) }, LogsRequest, true},
		{"instrumentation_library_logs", func(d int) []byte { return request(1000, message(2, message(5, anyValue(d)))) }, LogsRequest, true},
		{"log severity_text", func(d int) []byte { return request(2, message(2, message(3, anyValue(d)))) }, LogsRequest, false},
		{"traces request read as logs", func(d int) []byte { return request(2, span(9, keyValue(d))) }, LogsRequest, false},
	}
	for _, c := range cases {
		for _, depth := range []int{10, 11, 200} {
			err := CheckProto(c.body(depth), c.root, 10)
			if got, want := errors.Is(err, ErrTooDeep), c.checked && depth > 10; got != want {
				t.Errorf("%s depth %d: err = %v, want too deep = %v", c.name, depth, err, want)
			}
		}
	}
}

// FuzzStripProto checks that what StripProto keeps passes the guard and
// decodes, and that a body the guard passes is kept as it is.
func FuzzStripProto(f *testing.F) {
	f.Add(tracesWithDepth(3, "span"))
	f.Add(tracesWithDepth(40, "span"))
	f.Add(tracesWithDepth(40, "event"))
	f.Add([]byte{0x0a, 0x02, 0x0a, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		out, dropped, err := StripProto(b, TracesRequest, 16)
		if err != nil {
			return
		}
		if CheckProto(out, TracesRequest, 16) != nil {
			t.Fatalf("StripProto kept a body the guard refuses")
		}
		if CheckProto(b, TracesRequest, 16) == nil && (dropped != 0 || !bytes.Equal(out, b)) {
			t.Fatalf("StripProto changed a body the guard passes")
		}
		_ = ptraceotlp.NewExportRequest().UnmarshalProto(out)
	})
}
