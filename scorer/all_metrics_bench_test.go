package scorer

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/extractor"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/internal/testpayload"
	"github.com/evalsidecar/evalsidecar/internal/testtext"
)

// benchTrajectories returns a 10-call run and its 10-call reference: the
// reference changes one call's arguments (a number written 4.0, a
// different value, fewer keys) and swaps two calls.
func benchTrajectories() (pred, ref []agentrun.ToolCall) {
	for i := 0; i < 10; i++ {
		pred = append(pred, agentrun.ToolCall{
			Name:      fmt.Sprintf("tool_%d", i%4),
			Arguments: fmt.Sprintf(`{"query": "weather in city %d", "limit": %d, "units": "metric", "filters": {"days": 3, "hourly": true}}`, i, i+1),
		})
	}
	ref = append([]agentrun.ToolCall(nil), pred...)
	ref[3].Arguments = `{"query": "weather in city 3", "limit": 4.0, "units": "imperial"}`
	ref[5], ref[6] = ref[6], ref[5]
	return pred, ref
}

// benchToolCallOutput writes calls as a Vertex tool-call output.
func benchToolCallOutput(cs []agentrun.ToolCall) string {
	s := `{"content": "", "tool_calls": [`
	for i, c := range cs {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf(`{"name": %q, "arguments": %s}`, c.Name, c.Arguments)
	}
	return s + "]}"
}

// BenchmarkAllReferenceMetrics runs every metric of the registry's
// catalog once on one realistic case, on a new Instance per iteration, so
// ns/op is the total deterministic cost per case: a 200-word response
// against a 200-word reference, a 10-call run against a 10-call reference
// trajectory, latency and failure. A metric whose inputs are missing is
// skipped, as the engine does.
//
//   - canary: the Instance of the run extracted from the trace that
//     BenchmarkDecodeCase decodes, with the reference side as the
//     reference store sets it for a canary run. Every metric but
//     Vertex's tool-call ones, which read tool-call JSON that traces do
//     not carry (on a traced run they are not applicable);
//   - tool_call_json: Vertex's tool-call metrics on a dataset row whose
//     prediction and reference are the run and the reference trajectory
//     written as tool-call outputs;
//   - all: canary and tool_call_json, the cost of a dataset row with
//     every column.
func BenchmarkAllReferenceMetrics(b *testing.B) {
	var onRuns, toolCall []Metric
	for _, c := range catalog() {
		var params map[string]any
		if c.name == MetricTrajectorySingleToolUse {
			params = map[string]any{ParamToolName: "tool_3"}
		}
		m, err := c.factory(params)
		if err != nil {
			b.Fatalf("%s: %v", c.name, err)
		}
		if _, tc := m.(vertexToolCall); tc {
			toolCall = append(toolCall, m)
		} else {
			onRuns = append(onRuns, m)
		}
	}
	pred, ref := benchTrajectories()
	refText := testtext.Answer(200, 3)
	predOut, refOut := benchToolCallOutput(pred), benchToolCallOutput(ref)
	traced := benchCaseRun(b)
	// run is the Instance of the traced run with the reference side as
	// the reference store's Enrich sets it for a turn with a response and
	// tool calls.
	run := func() *Instance {
		in := FromTrajectory(traced)
		in.Reference, in.ReferenceTrajectory = refText, ref
		in.Has |= InReference | InReferenceTrajectory | InInvocations
		in.Invocations = []Invocation{{
			UserContent: in.Prompt, Response: in.Response, Reference: refText,
			PredictedToolCalls: in.PredictedTrajectory, ReferenceToolCalls: ref, HasReference: true,
		}}
		return in
	}
	row := func() *Instance {
		return &Instance{
			Prediction: predOut, Reference: refOut,
			PredictedTrajectory: pred, ReferenceTrajectory: ref,
			Has: InPrediction | InReference | InPredictedTrajectory | InReferenceTrajectory,
		}
	}
	b.Run("canary", func(b *testing.B) { benchMetrics(b, onRuns, nil, run, nil) })
	b.Run("tool_call_json", func(b *testing.B) { benchMetrics(b, toolCall, nil, row, nil) })
	b.Run("all", func(b *testing.B) { benchMetrics(b, onRuns, toolCall, run, row) })
}

// benchMetrics scores ms on a new Instance from newA and more on one from
// newB per iteration.
func benchMetrics(b *testing.B, ms, more []Metric, newA, newB func() *Instance) {
	ctx := context.Background()
	scored := 0
	score := func(ms []Metric, in *Instance) {
		for _, m := range ms {
			if in.Missing(m.Needs()) != 0 {
				continue
			}
			if _, err := m.Score(ctx, in); err != nil {
				if errors.Is(err, ErrNotApplicable) {
					continue
				}
				b.Fatalf("%s: %v", m.Name(), err)
			}
			scored++
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		scored = 0
		score(ms, newA())
		if newB != nil {
			score(more, newB())
		}
	}
	b.ReportMetric(float64(scored), "metrics/op")
}

// benchCaseTrace returns the OTLP request of the agent run
// BenchmarkAllReferenceMetrics scores: the bench's 10-call trajectory and
// 200-word response in a trace shaped as the medium profile's.
func benchCaseTrace(tb testing.TB) []byte {
	tb.Helper()
	pred, _ := benchTrajectories()
	calls := make([]testpayload.CaseCall, len(pred))
	for i, c := range pred {
		calls[i] = testpayload.CaseCall{Name: c.Name, Arguments: c.Arguments}
	}
	raw, err := ptraceotlp.NewExportRequestFromTraces(testpayload.Case(testtext.Answer(200, 0), calls)).MarshalProto()
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

// benchCaseRun decodes and extracts the run of benchCaseTrace.
func benchCaseRun(tb testing.TB) *agentrun.Trajectory {
	tb.Helper()
	req := ptraceotlp.NewExportRequest()
	if err := req.UnmarshalProto(benchCaseTrace(tb)); err != nil {
		tb.Fatal(err)
	}
	var got []*agentrun.Trajectory
	sink := extractor.SinkFunc(func(_ context.Context, tr *agentrun.Trajectory) error {
		got = append(got, tr)
		return nil
	})
	a, err := extractor.NewAssembler(extractor.DefaultConfig(), telemetry.Settings{}, sink)
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	if err := a.ConsumeTraces(ctx, req.Traces()); err != nil {
		tb.Fatal(err)
	}
	if err := a.Flush(ctx); err != nil {
		tb.Fatal(err)
	}
	if len(got) != 1 {
		tb.Fatalf("%d trajectories, want 1", len(got))
	}
	return got[0]
}

// TestBenchCaseTrace checks that the trace of BenchmarkDecodeCase holds
// the case BenchmarkAllReferenceMetrics scores, so that the two compare
// scoring a run with decoding it.
func TestBenchCaseTrace(t *testing.T) {
	in := FromTrajectory(benchCaseRun(t))
	if in.Response != testtext.Answer(200, 0) {
		t.Errorf("response = %q", in.Response)
	}
	pred, _ := benchTrajectories()
	if len(in.PredictedTrajectory) != len(pred) {
		t.Fatalf("%d calls, want %d", len(in.PredictedTrajectory), len(pred))
	}
	for i, c := range in.PredictedTrajectory {
		if c.Name != pred[i].Name || c.Arguments != pred[i].Arguments || !c.ArgumentsValid {
			t.Errorf("call %d = %s %s (valid %v), want %s %s", i, c.Name, c.Arguments, c.ArgumentsValid, pred[i].Name, pred[i].Arguments)
		}
	}
}

// BenchmarkDecodeCase is protobuf decode of the trace of the case that
// BenchmarkAllReferenceMetrics scores (17 spans, ~34 KB): the cost every
// deterministic metric together is measured against.
func BenchmarkDecodeCase(b *testing.B) {
	raw := benchCaseTrace(b)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		req := ptraceotlp.NewExportRequest()
		if err := req.UnmarshalProto(raw); err != nil {
			b.Fatal(err)
		}
	}
}
