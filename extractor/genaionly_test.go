package extractor

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// TestGenAIOnlyIsAHint checks that span.genaiOnly and span.absent only save
// work: every golden input's traces extract to the same trajectories
// whether the converter's flags are kept or cleared (as on spans built
// without them).
func TestGenAIOnlyIsAHint(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.otlp.json")
	if err != nil || len(paths) == 0 {
		t.Fatal("no golden inputs", err)
	}
	conv := converter{maxValue: DefaultConfig().MaxAttributeValueBytes, runKeys: newRunKeys([]string{"eval.case_id", "http.route"})}
	flagged, absent := 0, 0
	for _, path := range paths {
		for _, r := range readGoldenInput(t, path).Requests {
			if r.Traces == nil {
				continue
			}
			td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(r.Traces)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range conv.traces(td).groups {
				hinted := &Trace{id: g.id, spans: g.spans}
				plain := &Trace{id: g.id, spans: append([]span(nil), g.spans...)}
				for i := range plain.spans {
					if plain.spans[i].genaiOnly {
						flagged++
					}
					if plain.spans[i].absent == absentAll {
						absent++
					}
					checkAbsent(t, &plain.spans[i])
					plain.spans[i].genaiOnly = false
					plain.spans[i].absent = 0
				}
				if got, want := extractTrace(hinted), extractTrace(plain); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: trace %x extracts differently with genaiOnly set", path, g.id)
				}
			}
		}
	}
	if flagged == 0 || absent == 0 {
		t.Errorf("%d spans flagged genaiOnly, %d with every absent bit", flagged, absent)
	}
}

// checkAbsent checks that the converter's absent bits of s say exactly
// what the detectors' scans of its attributes find.
func checkAbsent(t *testing.T, s *span) {
	t.Helper()
	var want genaiAbsent
	if !hasFlat(s.attrs, keyTLPrompt) && !hasFlat(s.attrs, keyTLCompletion) {
		want |= absentTLFlat
	}
	agg, strands := false, false
	for _, a := range s.attrs {
		agg = agg || strings.HasPrefix(a.key, keyAggregatedUsage)
		strands = strands || (a.key == keySystem || a.key == keyProvider) && a.value == strandsProvider
	}
	if !agg {
		want |= absentAggregatedUsage
	}
	if !strands {
		want |= absentStrandsProvider
	}
	if s.absent != want {
		t.Errorf("span %q: absent %03b, its attributes say %03b", s.name, s.absent, want)
	}
}

// absentCases are span attributes around the keys genaiPresent looks for.
var absentCases = [][]string{
	{},
	{keyOperation, "chat", keyProvider, "openai"},
	{keyTLPrompt + ".0.content", "q"},
	{keyTLPrompt, "not flat"},
	{keyTLPrompt + ".", "bare dot"},
	{keyTLCompletion + ".0.role", "assistant"},
	{"gen_ai.completions.0", "near miss"},
	{keyAggregatedUsage + "input_tokens", "3"},
	{"gen_ai.aggregated_usage", "no dot"},
	{keySystem, strandsProvider},
	{keyProvider, strandsProvider},
	{keyProvider, strandsProvider + " "},
	{keySystem, "openai", "agent_name", "a"},
	{"gen_ai.", "empty name"},
	{"gen_ai", "no namespace"},
	{keyTLCompletion + ".1.content", "a", keyAggregatedUsage + "x", "1", keySystem, strandsProvider, "http.route", "/"},
}

// convertedSpan converts one span with attributes kv (key, value pairs).
func convertedSpan(t testing.TB, kv []string) span {
	td := ptrace.NewTraces()
	sp := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	sp.SetTraceID([16]byte{1})
	sp.SetSpanID([8]byte{1})
	sp.SetName("s")
	for i := 0; i+1 < len(kv); i += 2 {
		sp.Attributes().PutStr(kv[i], kv[i+1])
	}
	conv := converter{maxValue: DefaultConfig().MaxAttributeValueBytes}
	gs := conv.traces(td).groups
	if len(gs) != 1 || len(gs[0].spans) != 1 {
		t.Fatalf("%q: converted to %d groups", kv, len(gs))
	}
	return gs[0].spans[0]
}

func TestGenAIAbsent(t *testing.T) {
	for _, kv := range absentCases {
		s := convertedSpan(t, kv)
		checkAbsent(t, &s)
	}
}

// FuzzGenAIAbsent checks the converter's absent bits against the
// detectors' scans for spans of two attributes.
func FuzzGenAIAbsent(f *testing.F) {
	for _, kv := range absentCases {
		if len(kv) >= 4 {
			f.Add(kv[0], kv[1], kv[2], kv[3])
		} else if len(kv) == 2 {
			f.Add(kv[0], kv[1], "", "")
		}
	}
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string) {
		s := convertedSpan(t, []string{k1, v1, k2, v2})
		checkAbsent(t, &s)
	})
}

// TestGenAIPresentKnownKeys checks the shortcut of genaiPresentKnown: of
// the well-known keys, only gen_ai.system and gen_ai.provider.name can be
// in absentAll.
func TestGenAIPresentKnownKeys(t *testing.T) {
	for _, k := range knownKeys {
		for _, v := range []string{strandsProvider, "x"} {
			if got, want := genaiPresentKnown(k, v, true), genaiPresent(k, v); got != want {
				t.Errorf("genaiPresentKnown(%q, %q) = %03b, genaiPresent %03b", k, v, got, want)
			}
		}
	}
}
