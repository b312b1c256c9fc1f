package scorer

import (
	"context"
	"reflect"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/testtext"
)

// TestInstanceMemoSharesResults checks that metrics scoring one shared
// Instance get the results they get each on a new Instance, and that
// setting a field to another value after scoring is seen.
func TestInstanceMemoSharesResults(t *testing.T) {
	pred, ref := benchTrajectories()
	newIn := func(toolCall bool) *Instance {
		in := &Instance{
			Response: testtext.Answer(60, 0), Reference: testtext.Answer(60, 3),
			PredictedTrajectory: pred, ReferenceTrajectory: ref,
			Has: InResponse | InReference | InPredictedTrajectory | InReferenceTrajectory,
		}
		if toolCall {
			in.Prediction, in.Reference = benchToolCallOutput(pred), benchToolCallOutput(ref)
			in.Has |= InPrediction
		}
		return in
	}
	shared := map[bool]*Instance{false: newIn(false), true: newIn(true)}
	ctx := context.Background()
	for _, c := range catalog() {
		var params map[string]any
		if c.name == MetricTrajectorySingleToolUse {
			params = map[string]any{ParamToolName: "tool_3"}
		}
		m, err := c.factory(params)
		if err != nil {
			t.Fatal(err)
		}
		_, tc := m.(vertexToolCall)
		// Twice on the shared instance: the second call reads the memo.
		for range 2 {
			got, gerr := m.Score(ctx, shared[tc])
			want, werr := m.Score(ctx, newIn(tc))
			if !reflect.DeepEqual(got, want) || (gerr == nil) != (werr == nil) {
				t.Fatalf("%s: shared %+v %v, new %+v %v", c.name, got, gerr, want, werr)
			}
		}
	}

	m := mustMetric(t, MetricTrajectoryExactMatch, nil)
	in := newIn(false)
	r, err := m.Score(ctx, in)
	if err != nil || r.Score != 0 {
		t.Fatalf("before: %+v %v, want 0", r, err)
	}
	in.ReferenceTrajectory = append([]agentrun.ToolCall(nil), pred...)
	if r, err = m.Score(ctx, in); err != nil || r.Score != 1 {
		t.Fatalf("after setting the reference to the run: %+v %v, want 1", r, err)
	}
	rm := mustMetric(t, MetricRouge1, nil)
	in.Reference = in.Response
	if r, err = rm.Score(ctx, in); err != nil || r.Score != 1 {
		t.Fatalf("rouge1 after setting the reference to the response: %+v %v, want 1", r, err)
	}
}
