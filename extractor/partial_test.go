package extractor

import (
	"context"
	"testing"
	"time"
)

// TestPartialTraces splits runs as two replicas would see them and checks
// that each half is counted under its reason, and a whole run under none.
func TestPartialTraces(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spans func() []spanSpec
		want  string
	}{
		{"whole run", func() []spanSpec { return agentRun(1) }, ""},
		{"children without the root", func() []spanSpec { return agentRun(1)[1:] }, PartialNoRoot},
		{"root without a model call", func() []spanSpec {
			r := agentRun(1)
			return append(r[:1:1], r[2:]...)
		}, ""},
		{"model call whose parent is missing", func() []spanSpec {
			r := agentRun(1)
			r[3].parent = 9 // a span that went elsewhere
			return r
		}, PartialMissingParent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ta := newTestAssembler(t, DefaultConfig())
			if err := ta.ConsumeTraces(context.Background(), buildTraces(tc.spans()...)); err != nil {
				t.Fatal(err)
			}
			ta.Cut(ta.now.Add(10*time.Minute), false)
			if len(ta.sink.all()) == 0 {
				t.Fatal("no trajectory released")
			}
			for _, r := range []string{PartialNoRoot, PartialMissingParent} {
				want := 0.0
				if r == tc.want {
					want = 1
				}
				if got := counterValue(ta.m.partial.WithLabelValues(r)); got != want {
					t.Errorf("partial{%s} = %v, want %v", r, got, want)
				}
			}
		})
	}
}
