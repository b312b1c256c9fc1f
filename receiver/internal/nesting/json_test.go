package nesting

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// jsonTraces is an OTLP/JSON traces request of one span per depth (0: a
// scalar attribute), named after its position, with a resource attribute
// nested resourceDepth levels.
func jsonTraces(t *testing.T, resourceDepth int, depths ...int) []byte {
	t.Helper()
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	nested(rs.Resource().Attributes().PutEmpty("r"), max(resourceDepth, 1))
	ss := rs.ScopeSpans().AppendEmpty()
	for i, d := range depths {
		sp := ss.Spans().AppendEmpty()
		sp.SetName(string(rune('a' + i)))
		sp.SetTraceID([16]byte{1})
		sp.SetSpanID([8]byte{byte(i + 1)})
		nested(sp.Attributes().PutEmpty("a"), max(d, 1))
	}
	b, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestStripJSON(t *testing.T) {
	const limit = 200 // JSON levels; an attribute level is about 3 of them
	names := func(t *testing.T, body []byte) []string {
		req := ptraceotlp.NewExportRequest()
		if err := req.UnmarshalJSON(body); err != nil {
			t.Fatalf("the stripped body does not decode: %v", err)
		}
		var out []string
		spans := req.Traces().ResourceSpans().At(0).ScopeSpans().At(0).Spans()
		for i := range spans.Len() {
			out = append(out, spans.At(i).Name())
		}
		return out
	}
	t.Run("shallow body untouched", func(t *testing.T) {
		in := jsonTraces(t, 1, 3, 5)
		out, cut, err := StripJSON(in, TracesRequest, limit)
		if err != nil || cut != 0 || &out[0] != &in[0] {
			t.Fatalf("cut %d, err %v, same body %v", cut, err, &out[0] == &in[0])
		}
	})
	t.Run("deep spans cut out", func(t *testing.T) {
		out, cut, err := StripJSON(jsonTraces(t, 1, 3, 100, 5, 400), TracesRequest, limit)
		if err != nil || cut != 2 {
			t.Fatalf("cut %d, err %v; want 2 cut", cut, err)
		}
		if got := names(t, out); !slices.Equal(got, []string{"a", "c"}) {
			t.Errorf("spans kept %v, want a and c", got)
		}
		if CheckJSON(out, limit) != nil {
			t.Error("the stripped body still nests too deeply")
		}
	})
	t.Run("snake_case keys", func(t *testing.T) {
		in := strings.NewReplacer(`"resourceSpans"`, `"resource_spans"`, `"scopeSpans"`, `"scope_spans"`).Replace(string(jsonTraces(t, 1, 3, 100)))
		out, cut, err := StripJSON([]byte(in), TracesRequest, limit)
		if err != nil || cut != 1 {
			t.Fatalf("cut %d, err %v; want 1 cut", cut, err)
		}
		if got := names(t, out); !slices.Equal(got, []string{"a"}) {
			t.Errorf("spans kept %v, want a", got)
		}
	})
	t.Run("deep log record cut out", func(t *testing.T) {
		ld := plog.NewLogs()
		lr := ld.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty().LogRecords()
		nested(lr.AppendEmpty().Attributes().PutEmpty("a"), 100)
		lr.AppendEmpty().Body().SetStr("kept")
		in, _ := plogotlp.NewExportRequestFromLogs(ld).MarshalJSON()
		out, cut, err := StripJSON(in, LogsRequest, limit)
		if err != nil || cut != 1 {
			t.Fatalf("cut %d, err %v; want 1 cut", cut, err)
		}
		req := plogotlp.NewExportRequest()
		if err := req.UnmarshalJSON(out); err != nil {
			t.Fatal(err)
		}
		recs := req.Logs().ResourceLogs().At(0).ScopeLogs().At(0).LogRecords()
		if recs.Len() != 1 || recs.At(0).Body().Str() != "kept" {
			t.Errorf("log records kept: %d", recs.Len())
		}
	})
	for _, c := range []struct {
		name string
		body []byte
	}{
		{"deep resource refused whole", jsonTraces(t, 100, 3)},
		{"nested past encoding/json's limit", deepArrays(12000)},
		{"malformed and deep", append(deepArrays(300)[:400], '}')},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, _, err := StripJSON(c.body, TracesRequest, limit); !errors.Is(err, ErrTooDeep) {
				t.Fatalf("err %v, want ErrTooDeep", err)
			}
		})
	}
}

// deepArrays is a JSON text of n nested arrays.
func deepArrays(n int) []byte {
	b := make([]byte, 0, 2*n)
	for range n {
		b = append(b, '[')
	}
	for range n {
		b = append(b, ']')
	}
	return b
}

// FuzzStripJSON: any input either is refused with ErrTooDeep or comes
// back valid JSON (when it was) within the limit, never panicking.
func FuzzStripJSON(f *testing.F) {
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"a"}]}]}]}`), 4)
	f.Add(deepArrays(40), 8)
	f.Fuzz(func(t *testing.T, body []byte, limit int) {
		limit = 8 + abs(limit)%64
		out, _, err := StripJSON(body, TracesRequest, limit)
		if err != nil {
			if !errors.Is(err, ErrTooDeep) {
				t.Fatalf("error %v does not wrap ErrTooDeep", err)
			}
			return
		}
		if CheckJSON(out, limit) != nil {
			t.Fatal("output nests deeper than the limit")
		}
		if json.Valid(body) && !json.Valid(out) {
			t.Fatal("valid input, invalid output")
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
