package nesting

import (
	"errors"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
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
