package toolmatch

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/scorertest"
)

func trajBuild(t *testing.T, name string, params map[string]any) scorer.Metric {
	t.Helper()
	ms, err := scorertest.Registry(Metrics()).Build([]scorer.MetricConfig{{Name: name, Params: params}})
	if err != nil {
		t.Fatal(err)
	}
	return ms[0]
}

func TestTrajectoryParamErrors(t *testing.T) {
	tests := []struct {
		name   string
		params map[string]any
		want   string
	}{
		{MetricTrajectorySingleToolUse, nil, `param "tool_name": required`},
		{MetricTrajectorySingleToolUse, map[string]any{"tool_name": 3}, `param "tool_name": must be a string`},
		{MetricTrajectoryPrecision, map[string]any{"tool_name": "x"}, `param "tool_name": unknown parameter`},
		{MetricToolTrajectoryAvgScore, map[string]any{"match_type": "fuzzy"}, `param "match_type"`},
		{MetricToolTrajectoryAvgScore, map[string]any{"match_type": 3}, `param "match_type": must be between 0 and 2`},
		{MetricToolTrajectoryAvgScore, map[string]any{"threshold": 1.5}, `param "threshold": must be between 0 and 1`},
		{MetricToolTrajectoryAvgScore, map[string]any{"ignore_args": "yes"}, `param "ignore_args": must be true or false`},
		{MetricRagasToolCallAccuracy, map[string]any{"arg_comparison": "llm"}, `param "arg_comparison"`},
		{MetricRagasToolCallAccuracy, map[string]any{"strict_order": 1}, `param "strict_order"`},
		{MetricToolParameterKVMatch, map[string]any{"use_strict_string_match": "maybe"}, `param "use_strict_string_match"`},
		{MetricRagasToolCallF1, map[string]any{"x": 1}, `param "x": unknown parameter`},
	}
	for _, tt := range tests {
		_, err := scorertest.Registry(Metrics()).Build([]scorer.MetricConfig{{Name: tt.name, Params: tt.params}})
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.name) {
			t.Errorf("%s %v: error %v, want it to name the metric and %q", tt.name, tt.params, err, tt.want)
		}
	}
}

// TestTrajectoryOnline checks the metrics on an online run: without a
// reference they are not applicable; with one they score.
func TestTrajectoryOnline(t *testing.T) {
	run := &agentrun.Trajectory{
		Output: "done",
		ToolCalls: []agentrun.ToolCall{
			{Name: "search", Arguments: `{"q":"x","n":1}`},
			{Name: "book", Arguments: `{"id":7}`},
		},
	}
	in := scorer.FromTrajectory(run)
	for _, name := range []string{
		MetricTrajectoryExactMatch, MetricTrajectoryPrecision, MetricRagasToolCallF1,
		MetricRagasToolCallAccuracy, MetricToolNameMatch,
	} {
		m := trajBuild(t, name, nil)
		if in.Missing(m.Needs()) == 0 {
			t.Errorf("%s applies without a reference", name)
		}
	}
	adk := trajBuild(t, MetricToolTrajectoryAvgScore, nil)
	if _, err := adk.Score(context.Background(), in); !errors.Is(err, scorer.ErrNotApplicable) {
		t.Errorf("ADK without reference: %v", err)
	}
	single := trajBuild(t, MetricTrajectorySingleToolUse, map[string]any{"tool_name": "book"})
	if in.Missing(single.Needs()) != 0 {
		t.Fatal("single tool use needs a reference")
	}
	if r, err := single.Score(context.Background(), in); err != nil || r.Score != 1 {
		t.Errorf("single tool use: %v %v", r.Score, err)
	}

	// A reference arrives (as the reference lookup would set it).
	in.ReferenceTrajectory = []agentrun.ToolCall{{Name: "book", Arguments: `{"id":7.0}`}, {Name: "search", Arguments: `{"n":1,"q":"x"}`}}
	in.Has |= scorer.InReferenceTrajectory
	want := map[string]float64{
		MetricTrajectoryExactMatch:    0,
		MetricTrajectoryInOrderMatch:  0,
		MetricTrajectoryAnyOrderMatch: 1,
		MetricTrajectoryPrecision:     1,
		MetricTrajectoryRecall:        1,
		MetricRagasToolCallF1:         1,
		MetricRagasToolCallAccuracy:   0, // order differs under strict_order
		MetricToolTrajectoryAvgScore:  0, // EXACT
	}
	for name, w := range want {
		m := trajBuild(t, name, nil)
		if miss := in.Missing(m.Needs()); miss != 0 {
			t.Fatalf("%s: missing %b", name, miss)
		}
		r, err := m.Score(context.Background(), in)
		if err != nil || r.Score != w {
			t.Errorf("%s = %v, %v; want %v", name, r.Score, err, w)
		}
	}
	r, err := trajBuild(t, MetricRagasToolCallAccuracy, map[string]any{"strict_order": false}).Score(context.Background(), in)
	if err != nil || r.Score != 0.5 {
		// str(7) != str(7.0): the book call scores 0, search 1.
		t.Errorf("unordered accuracy = %v, %v; want 0.5", r.Score, err)
	}
	r, err = trajBuild(t, MetricToolTrajectoryAvgScore, map[string]any{"match_type": "any-order", "threshold": 0.5}).Score(context.Background(), in)
	if err != nil || r.Score != 1 || r.Label != "passed" || r.Details["match_type"] != "ANY_ORDER" {
		t.Errorf("ADK any order = %+v, %v", r, err)
	}
}

func TestADKInvocations(t *testing.T) {
	call := func(name, args string) []agentrun.ToolCall {
		return []agentrun.ToolCall{{Name: name, Arguments: args}}
	}
	in := &scorer.Instance{Has: scorer.InInvocations, Invocations: []scorer.Invocation{
		{PredictedToolCalls: call("f", `{"a":1}`), ReferenceToolCalls: call("f", `{"a":1.0}`), HasReference: true},
		{PredictedToolCalls: call("f", `{"a":1}`)}, // no expected side: not scored
		{PredictedToolCalls: call("g", ``), ReferenceToolCalls: call("g", `{}`), HasReference: true},
	}}
	r, err := trajBuild(t, MetricToolTrajectoryAvgScore, map[string]any{"threshold": 0.5}).Score(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	per := r.Details["per_invocation"].([]float64)
	if len(per) != 2 || per[0] != 1 || per[1] != 0 || r.Score != 0.5 || r.Label != "passed" {
		t.Errorf("got %v per %v label %q", r.Score, per, r.Label)
	}
	r, _ = trajBuild(t, MetricToolTrajectoryAvgScore, map[string]any{"match_type": 0, "ignore_args": true}).Score(context.Background(), in)
	if r.Score != 1 {
		t.Errorf("ignore_args: %v", r.Score)
	}
}

func TestVertexToolCallInputs(t *testing.T) {
	ref := `{"content":"","tool_calls":[{"name":"f","arguments":{"a":1,"b":"x"}}]}`
	tests := []struct {
		metric, pred string
		params       map[string]any
		want         float64
	}{
		{MetricToolCallValid, `not json`, nil, 0},
		{MetricToolCallValid, `{"content":"","tool_calls":[]}`, nil, 0},
		{MetricToolCallValid, `{"tool_calls":[{"name":"f","arguments":"{\"a\":1}"}]}`, nil, 1},
		{MetricToolCallValid, `{"tool_calls":[{"name":"f","arguments":"not json"}]}`, nil, 0},
		{MetricToolNameMatch, `{"tool_calls":[{"name":"f"},{"name":"g"}]}`, nil, 0},
		{MetricToolNameMatch, `not json`, nil, 0},
		{MetricToolParameterKeyMatch, `{"tool_calls":[{"name":"f","arguments":{"a":5,"c":1}}]}`, nil, 0.5},
		{MetricToolParameterKeyMatch, `{"tool_calls":[{"name":"f","arguments":{"a":1,"b":"x"}},{"name":"g"}]}`, nil, 0.5},
		{MetricToolParameterKVMatch, `{"tool_calls":[{"name":"f","arguments":"{\"b\":\"x\",\"a\":1.0}"}]}`, nil, 1},
		{MetricToolParameterKVMatch, `{"tool_calls":[{"name":"f","arguments":{"b":"x","a":1.0}}]}`, map[string]any{"use_strict_string_match": true}, 0.5},
	}
	for _, tt := range tests {
		m := trajBuild(t, tt.metric, tt.params)
		in := &scorer.Instance{Prediction: tt.pred, Reference: ref, Has: scorer.InPrediction | scorer.InReference}
		r, err := m.Score(context.Background(), in)
		if err != nil || r.Score != tt.want {
			t.Errorf("%s(%s) = %v, %v; want %v", tt.metric, tt.pred, r.Score, err, tt.want)
		}
	}
	// Response stands in for a missing prediction; neither: not applicable.
	m := trajBuild(t, MetricToolNameMatch, nil)
	in := &scorer.Instance{Response: ref, Reference: ref, Has: scorer.InResponse | scorer.InReference}
	if r, err := m.Score(context.Background(), in); err != nil || r.Score != 1 {
		t.Errorf("response fallback: %v %v", r.Score, err)
	}
	if _, err := m.Score(context.Background(), &scorer.Instance{Reference: ref, Has: scorer.InReference}); !errors.Is(err, scorer.ErrNotApplicable) {
		t.Errorf("no prediction: %v", err)
	}
	bad := &scorer.Instance{Prediction: ref, Reference: "{oops", Has: scorer.InPrediction | scorer.InReference}
	if _, err := m.Score(context.Background(), bad); err == nil {
		t.Error("malformed reference accepted")
	}
}

// TestSharedArgsKey: the keys computed once per instance are the keys of
// appendArgsKey, for the instance's calls and for any other text.
func TestSharedArgsKey(t *testing.T) {
	in := &scorer.Instance{
		PredictedTrajectory: []agentrun.ToolCall{{Name: "f", Arguments: `{"a":1}`}},
		Invocations:         []scorer.Invocation{{ReferenceToolCalls: []agentrun.ToolCall{{Name: "f", Arguments: ` {"a":true} `}}}},
	}
	for _, eq := range []Equality{JSONEqual, PythonEqual} {
		key := sharedArgsKey(in, eq)
		for _, args := range []string{`{"a":1}`, ` {"a":true} `, `{"a":1.0}`, ``, `not json`} {
			if got, want := key(args), argsKey(args, eq); got != want {
				t.Errorf("eq %d, %q: shared key %q, want %q", eq, args, got, want)
			}
		}
	}
	if sharedArgsKey(in, NameOnly) != nil {
		t.Error("NameOnly has a key")
	}
}
