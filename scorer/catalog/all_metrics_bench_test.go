package catalog

import (
	"context"
	"errors"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/extractor"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/internal/testpayload"
	"github.com/evalsidecar/evalsidecar/internal/testtext"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/scorertest"
	"github.com/evalsidecar/evalsidecar/scorer/text/bleu"
	"github.com/evalsidecar/evalsidecar/scorer/text/ngram"
	"github.com/evalsidecar/evalsidecar/scorer/text/rouge"
	"github.com/evalsidecar/evalsidecar/scorer/toolmatch"
)

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
	var onRuns, toolCall []scorer.Metric
	r := NewRegistry()
	for _, name := range r.Names() {
		mc := scorer.MetricConfig{Name: name}
		switch name {
		case "cel":
			continue // a custom metric: no expression to run
		case toolmatch.MetricTrajectorySingleToolUse:
			mc.Params = map[string]any{toolmatch.ParamToolName: "tool_3"}
		}
		ms, err := r.Build([]scorer.MetricConfig{mc})
		if err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		m := ms[0]
		switch name {
		case toolmatch.MetricToolCallValid, toolmatch.MetricToolNameMatch, toolmatch.MetricToolParameterKeyMatch, toolmatch.MetricToolParameterKVMatch:
			toolCall = append(toolCall, m)
		default:
			onRuns = append(onRuns, m)
		}
	}
	pred, ref := scorertest.Trajectories()
	refText := testtext.Answer(200, 3)
	predOut, refOut := scorertest.ToolCallOutput(pred), scorertest.ToolCallOutput(ref)
	traced := benchCaseRun(b)
	// run is the Instance of the traced run with the reference side as
	// the reference store's Enrich sets it for a turn with a response and
	// tool calls.
	run := func() *scorer.Instance {
		in := scorer.FromTrajectory(traced)
		in.Reference, in.ReferenceTrajectory = refText, ref
		in.Has |= scorer.InReference | scorer.InReferenceTrajectory | scorer.InInvocations
		in.Invocations = []scorer.Invocation{{
			UserContent: in.Prompt, Response: in.Response, Reference: refText,
			PredictedToolCalls: in.PredictedTrajectory, ReferenceToolCalls: ref, HasReference: true,
		}}
		return in
	}
	row := func() *scorer.Instance {
		return &scorer.Instance{
			Prediction: predOut, Reference: refOut,
			PredictedTrajectory: pred, ReferenceTrajectory: ref,
			Has: scorer.InPrediction | scorer.InReference | scorer.InPredictedTrajectory | scorer.InReferenceTrajectory,
		}
	}
	b.Run("canary", func(b *testing.B) { benchMetrics(b, onRuns, nil, run, nil) })
	b.Run("tool_call_json", func(b *testing.B) { benchMetrics(b, toolCall, nil, row, nil) })
	b.Run("all", func(b *testing.B) { benchMetrics(b, onRuns, toolCall, run, row) })
}

// BenchmarkReferenceSteps times, on the texts and tool calls of the
// canary case, the steps the reference metrics of
// BenchmarkAllReferenceMetrics take, each alone and with its inputs
// ready, in the same binary as BenchmarkDecodeCase so that each compares
// with decoding the case's trace: ROUGE's tokenizing and numbering of
// the pair, its stemming, each ROUGE type on the numbered pair (rougeL
// and rougeLsum are dynamic-programming LCS tables), BLEU's 13a
// tokenizing and numbering, its n-gram overlap for orders 1 to 4 (a map
// per order), and decoding each distinct tool-call argument text of the
// run and the reference.
func BenchmarkReferenceSteps(b *testing.B) {
	target, prediction := testtext.Answer(200, 3), testtext.Answer(200, 0)
	pair := rouge.NewPair(target, prediction, false)
	b.Run("rouge_pair", func(b *testing.B) {
		for b.Loop() {
			rouge.NewPair(target, prediction, false)
		}
	})
	b.Run("rouge_stem", func(b *testing.B) {
		for b.Loop() {
			pair.Stemmed()
		}
	})
	for _, typ := range []string{"rouge1", "rouge2", "rougeL", "rougeLsum"} {
		s, err := rouge.NewScorer(typ, rouge.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(typ, func(b *testing.B) {
			for b.Loop() {
				s.ScorePair(pair)
			}
		})
	}
	numbered := func() (hyp, ref []int32, size int) {
		var v ngram.Vocabulary
		hyp = v.IDs(bleu.Tokenize13a(prediction))
		ref = v.IDs(bleu.Tokenize13a(target))
		return hyp, ref, v.Len()
	}
	b.Run("bleu_tokens", func(b *testing.B) {
		for b.Loop() {
			numbered()
		}
	})
	hyp, ref, size := numbered()
	b.Run("bleu_overlap", func(b *testing.B) {
		for b.Loop() {
			ngram.Overlap(hyp, [][]int32{ref}, size, bleu.MaxOrder)
		}
	})
	pred, refCalls := scorertest.Trajectories()
	var args []string // each distinct argument text once, as the metrics decode them
	seen := map[string]bool{}
	for _, c := range append(pred, refCalls...) {
		if !seen[c.Arguments] {
			seen[c.Arguments] = true
			args = append(args, c.Arguments)
		}
	}
	b.Run("tool_arguments", func(b *testing.B) {
		for b.Loop() {
			for _, a := range args {
				if _, err := toolmatch.Decode(a); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// benchMetrics scores ms on a new Instance from newA and more on one from
// newB per iteration.
func benchMetrics(b *testing.B, ms, more []scorer.Metric, newA, newB func() *scorer.Instance) {
	ctx := context.Background()
	scored := 0
	score := func(ms []scorer.Metric, in *scorer.Instance) {
		for _, m := range ms {
			if in.Missing(m.Needs()) != 0 {
				continue
			}
			if _, err := m.Score(ctx, in); err != nil {
				if errors.Is(err, scorer.ErrNotApplicable) {
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
	pred, _ := scorertest.Trajectories()
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
	in := scorer.FromTrajectory(benchCaseRun(t))
	if in.Response != testtext.Answer(200, 0) {
		t.Errorf("response = %q", in.Response)
	}
	pred, _ := scorertest.Trajectories()
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
