package extractor

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// TestPlainStringsJSON checks the one-allocation rendering of string
// slices against pdata's own AsString, and that it declines other slices.
func TestPlainStringsJSON(t *testing.T) {
	tests := []struct {
		name  string
		fill  func(pcommon.Slice)
		plain bool
	}{
		{"empty", func(pcommon.Slice) {}, true},
		{"one", func(s pcommon.Slice) { s.AppendEmpty().SetStr("stop") }, true},
		{"several", func(s pcommon.Slice) {
			s.AppendEmpty().SetStr("tool_calls")
			s.AppendEmpty().SetStr("")
			s.AppendEmpty().SetStr("length <&> ok")
		}, true},
		{"quote", func(s pcommon.Slice) { s.AppendEmpty().SetStr(`say "hi"`) }, false},
		{"backslash", func(s pcommon.Slice) { s.AppendEmpty().SetStr(`a\b`) }, false},
		{"newline", func(s pcommon.Slice) { s.AppendEmpty().SetStr("a\nb") }, false},
		{"non-ascii", func(s pcommon.Slice) { s.AppendEmpty().SetStr("é") }, false},
		{"int", func(s pcommon.Slice) { s.AppendEmpty().SetInt(3) }, false},
		{"mixed", func(s pcommon.Slice) {
			s.AppendEmpty().SetStr("stop")
			s.AppendEmpty().SetBool(true)
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := pcommon.NewValueSlice()
			tt.fill(v.Slice())
			got, ok := plainStringsJSON(v.Slice())
			if ok != tt.plain {
				t.Fatalf("plain = %v, want %v", ok, tt.plain)
			}
			if ok && got != v.AsString() {
				t.Fatalf("got %s, AsString %s", got, v.AsString())
			}
		})
	}
}

// TestDroppedAttrTruncation checks that an attribute the kept-key policy
// drops still marks its span truncated when it would have been cut.
func TestDroppedAttrTruncation(t *testing.T) {
	c := converter{maxValue: 16}
	tests := []struct {
		name string
		set  func(pcommon.Map)
		cut  bool
	}{
		{"short string", func(m pcommon.Map) { m.PutStr("server.address", "a.example") }, false},
		{"long string", func(m pcommon.Map) { m.PutStr("server.address", "api.openai.example.com") }, true},
		{"int", func(m pcommon.Map) { m.PutInt("server.port", 443) }, false},
		{"long int", func(m pcommon.Map) { m.PutInt("server.port", math.MinInt64) }, true},
		{"long double", func(m pcommon.Map) { m.PutDouble("x.temperature", 0.30000000000000004) }, true},
		{"bool", func(m pcommon.Map) { m.PutBool("x.flag", false) }, false},
		{"bytes", func(m pcommon.Map) { m.PutEmptyBytes("x.blob").FromRaw(make([]byte, 13)) }, true},
		{"map", func(m pcommon.Map) { m.PutEmptyMap("x.map").PutStr("k", "0123456789") }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ptrace.NewSpan()
			s.SetTraceID(pcommon.TraceID{1})
			s.SetSpanID(pcommon.SpanID{1})
			tt.set(s.Attributes())
			rec, cut := c.span(s, nil, "", nil)
			if cut != tt.cut {
				t.Fatalf("truncated = %v, want %v", cut, tt.cut)
			}
			if len(rec.attrs) != 0 {
				t.Fatalf("kept %v", rec.attrs)
			}
		})
	}
}

// TestStringList checks string array attributes, rendered as JSON, and
// the values that are not one.
func TestStringList(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{`[]`, []string{}},
		{`["stop"]`, []string{"stop"}},
		{` ["a", "b" ] `, []string{"a", "b"}},
		{`["é"]`, []string{"é"}},
		{`["a\"b"]`, []string{`a"b`}},
		{`["a\u00e9"]`, []string{"aé"}},
		{"[\"a\xffb\"]", []string{"a\ufffdb"}},
		{`[1]`, []string{`[1]`}},
		{`["a", null]`, []string{"a", ""}},
		{`[`, []string{`[`}},
		{`stop`, []string{`stop`}},
		{`["a"] x`, []string{`["a"] x`}},
		{`[[]]`, []string{`[[]]`}},
		{``, nil},
	} {
		got := stringList(tt.in)
		if !reflect.DeepEqual(got, tt.want) || (got == nil) != (tt.want == nil) {
			t.Errorf("stringList(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

// TestOpenInferenceValuesKept checks which spans keep input.value and
// output.value: the run (an AGENT span, a root CHAIN span) and TOOL spans,
// whose values the decoder reads; not an LLM span's request echo, a nested
// CHAIN's graph state, or a span of another convention.
func TestOpenInferenceValuesKept(t *testing.T) {
	c := converter{maxValue: DefaultConfig().MaxAttributeValueBytes}
	tests := []struct {
		kind string // openinference.span.kind; "" for none
		root bool
		keep bool
	}{
		{"AGENT", false, true},
		{"AGENT", true, true},
		{"CHAIN", true, true},
		{"CHAIN", false, false},
		{"TOOL", false, true},
		{"LLM", false, false},
		{"RETRIEVER", false, false},
		{"", true, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s root=%v", tt.kind, tt.root), func(t *testing.T) {
			s := ptrace.NewSpan()
			s.SetTraceID(pcommon.TraceID{1})
			s.SetSpanID(pcommon.SpanID{1})
			if !tt.root {
				s.SetParentSpanID(pcommon.SpanID{2})
			}
			if tt.kind != "" {
				s.Attributes().PutStr(keyOISpanKind, tt.kind)
			}
			s.Attributes().PutStr(keyOIInput, `{"messages":["hi"]}`)
			s.Attributes().PutStr(keyOIOutput, "hello")
			rec, _ := c.span(s, nil, "", nil)
			_, in := rec.attrs.get(keyOIInput)
			_, out := rec.attrs.get(keyOIOutput)
			if in != tt.keep || out != tt.keep {
				t.Errorf("kept input %v output %v, want %v", in, out, tt.keep)
			}
		})
	}
}
