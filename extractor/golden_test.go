package extractor

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenInput is a test input: OTLP/JSON requests in arrival order, each
// either {"traces": ...} or {"logs": ...}.
type goldenInput struct {
	Requests []struct {
		Traces json.RawMessage `json:"traces"`
		Logs   json.RawMessage `json:"logs"`
	} `json:"requests"`
}

// goldenOutput is what a golden file holds.
type goldenOutput struct {
	Trajectories []*agentrun.Trajectory `json:"trajectories"`
	Outcomes     map[string]int         `json:"outcomes"`
	Dropped      map[string]int         `json:"dropped,omitempty"`
	LateSpans    int                    `json:"late_spans,omitempty"`
	Extra        map[string]string      `json:"extra,omitempty"`
}

// readGoldenInput reads a golden input file.
func readGoldenInput(t *testing.T, path string) goldenInput {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var in goldenInput
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatal(err)
	}
	return in
}

// replay feeds a golden input file to a fresh assembler and flushes it.
func replay(t *testing.T, path string) (*testAssembler, goldenOutput) {
	t.Helper()
	in := readGoldenInput(t, path)
	ta := newTestAssembler(t, DefaultConfig())
	ctx := context.Background()
	for i, r := range in.Requests {
		switch {
		case r.Traces != nil:
			td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(r.Traces)
			if err != nil {
				t.Fatalf("request %d: %v", i, err)
			}
			if err := ta.ConsumeTraces(ctx, td); err != nil {
				t.Fatal(err)
			}
		case r.Logs != nil:
			ld, err := (&plog.JSONUnmarshaler{}).UnmarshalLogs(r.Logs)
			if err != nil {
				t.Fatalf("request %d: %v", i, err)
			}
			if err := ta.ConsumeLogs(ctx, ld); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := ta.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	out := goldenOutput{Trajectories: ta.sink.all(), Outcomes: map[string]int{}}
	for _, o := range []string{OutcomeComplete, OutcomeMaxAge, OutcomeEvicted, OutcomeTooLarge, OutcomeNoGenAI} {
		if n := int(ta.outcome(o)); n > 0 {
			out.Outcomes[o] = n
		}
	}
	for _, r := range []string{reasonDuplicate, reasonSpansPer, reasonLate, reasonTruncated, reasonInvalidID, reasonLogUnjoined, reasonLogNoTraceID} {
		if n := int(ta.dropped(r)); n > 0 {
			if out.Dropped == nil {
				out.Dropped = map[string]int{}
			}
			out.Dropped[r] = n
		}
	}
	out.LateSpans = int(counterValue(ta.m.late))
	return ta, out
}

func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/*.otlp.json")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".otlp.json")
		t.Run(name, func(t *testing.T) {
			_, out := replay(t, in)
			got, err := json.MarshalIndent(out, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("testdata", name+".trajectory.golden.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("updated golden file: %s", golden)
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("trajectories differ from %s (run with -update after checking):\n%s", golden, got)
			}
		})
	}
}
