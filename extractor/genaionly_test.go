package extractor

import (
	"path/filepath"
	"reflect"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// TestGenAIOnlyIsAHint checks that span.genaiOnly only saves work: every
// golden input's traces extract to the same trajectories whether the
// converter's flag is kept or cleared (as on spans built without it).
func TestGenAIOnlyIsAHint(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.otlp.json")
	if err != nil || len(paths) == 0 {
		t.Fatal("no golden inputs", err)
	}
	conv := converter{maxValue: DefaultConfig().MaxAttributeValueBytes, runKeys: newRunKeys([]string{"eval.case_id", "http.route"})}
	flagged := 0
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
					plain.spans[i].genaiOnly = false
				}
				if got, want := Extract(hinted), Extract(plain); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: trace %x extracts differently with genaiOnly set", path, g.id)
				}
			}
		}
	}
	if flagged == 0 {
		t.Error("no span was flagged genaiOnly")
	}
}
