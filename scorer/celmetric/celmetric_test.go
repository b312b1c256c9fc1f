package celmetric

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// essentialTools is the seed's essential_tools_present(instance,
// required_tools=["tool1", "tool2"]) as one expression.
const essentialTools = `double(["tool1", "tool2"].filter(t, t in predicted_trajectory.map(c, c.tool_name)).size()) / 2.0`

func traj(names ...string) []agentrun.ToolCall {
	out := make([]agentrun.ToolCall, len(names))
	for i, n := range names {
		out[i] = agentrun.ToolCall{Name: n, Arguments: `{"q": 1}`, ArgumentsValid: true}
	}
	return out
}

func TestEssentialToolsPresent(t *testing.T) {
	m, err := New("essential_tools_present", essentialTools)
	if err != nil {
		t.Fatal(err)
	}
	if m.Needs() != scorer.InPredictedTrajectory {
		t.Errorf("needs %b, want only the predicted trajectory", m.Needs())
	}
	tests := []struct {
		calls []agentrun.ToolCall
		want  float64
	}{
		{traj("tool1", "tool2", "other"), 1},
		{traj("tool2"), 0.5},
		{traj("tool2", "tool2"), 0.5},
		{traj(), 0},
		{nil, 0},
	}
	for _, tt := range tests {
		in := &scorer.Instance{PredictedTrajectory: tt.calls, Has: scorer.InPredictedTrajectory}
		r, err := m.Score(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if r.Score != tt.want || r.Metric != "essential_tools_present" {
			t.Errorf("%v: got %+v, want %v", tt.calls, r, tt.want)
		}
	}
}

func TestExpressions(t *testing.T) {
	in := &scorer.Instance{
		Prompt: "hi", Response: "Hello there", Reference: "hello there",
		PredictedTrajectory: traj("search"),
		ReferenceTopics:     []string{"greeting"},
		Columns:             map[string]any{"lang": "en", "n": 2.0},
		Invocations:         []scorer.Invocation{{UserContent: "hi", PredictedToolCalls: traj("search")}},
		Has:                 scorer.InPrompt | scorer.InResponse | scorer.InReference | scorer.InPredictedTrajectory | scorer.InReferenceTopics | scorer.InInvocations,
	}
	tests := []struct {
		expr  string
		want  float64
		needs scorer.Inputs
	}{
		{`response.lowerAscii() == reference`, 1, scorer.InResponse | scorer.InReference},
		{`size(response)`, 11, scorer.InResponse},
		{`predicted_trajectory[0].tool_input.q`, 1, scorer.InPredictedTrajectory},
		{`columns.lang == "en" && columns.n > 1.0`, 1, 0},
		{`"greeting" in reference_topics`, 1, scorer.InReferenceTopics},
		{`invocations.all(i, size(i.predicted_tool_calls) > 0)`, 1, scorer.InInvocations},
		{`case_id == ""`, 1, 0},
	}
	for _, tt := range tests {
		m, err := New("x", tt.expr)
		if err != nil {
			t.Fatalf("%s: %v", tt.expr, err)
		}
		if m.Needs() != tt.needs {
			t.Errorf("%s: needs %b, want %b", tt.expr, m.Needs(), tt.needs)
		}
		r, err := m.Score(context.Background(), in)
		if err != nil || r.Score != tt.want {
			t.Errorf("%s: got %v, %v; want %v", tt.expr, r.Score, err, tt.want)
		}
	}
}

func TestCompileErrorsNameMetricAndPosition(t *testing.T) {
	reg := scorer.NewRegistry()
	if err := Register(reg); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		expr string
		want []string
	}{
		{"size(response) >", []string{`metric "bad": param "expression": line 1, column 17`}},
		{"size(response) > 1 &&\n  nosuch == 2", []string{`metric "bad"`, "line 2, column 3", "undeclared reference to 'nosuch'"}},
		{`"text"`, []string{`metric "bad"`, "a bool or a number"}},
	}
	for _, tt := range tests {
		_, err := reg.Build([]scorer.MetricConfig{{Name: "bad", Type: Type, Params: map[string]any{"expression": tt.expr}}})
		if err == nil {
			t.Errorf("%q compiled", tt.expr)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error %q lacks %q", tt.expr, err, w)
			}
		}
	}
	_, err := reg.Build([]scorer.MetricConfig{{Name: "bad", Type: Type, Params: map[string]any{"expresion": "true"}}})
	if err == nil || !strings.Contains(err.Error(), `param "expresion"`) {
		t.Errorf("unknown param: %v", err)
	}
}

func TestRuntimeErrorsAreErrors(t *testing.T) {
	m, err := New("x", `predicted_trajectory[3].tool_name == "a"`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Score(context.Background(), &scorer.Instance{PredictedTrajectory: traj("a")})
	if err == nil || errors.Is(err, scorer.ErrNotApplicable) {
		t.Errorf("out-of-range index: %v", err)
	}
	m, err = New("x", `1.0 / 0.0`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Score(context.Background(), &scorer.Instance{}); err == nil {
		t.Error("an infinite score must be an error")
	}
}

func TestThroughEngineNotApplicable(t *testing.T) {
	reg := scorer.NewRegistry()
	if err := Register(reg); err != nil {
		t.Fatal(err)
	}
	ms, err := reg.Build([]scorer.MetricConfig{{Name: "ref_len", Type: Type, Params: map[string]any{"expression": "size(reference) > 0"}}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := scorer.NewEngine(scorer.DefaultConfig(), telemetry.Settings{}, ms, nil, scorer.EngineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ev := e.Evaluate(context.Background(), &scorer.Instance{Response: "x", Has: scorer.InResponse})
	if len(ev.NotApplicable) != 1 || ev.NotApplicable[0] != "ref_len" {
		t.Errorf("without a reference: %+v", ev)
	}
	ev = e.Evaluate(context.Background(), &scorer.Instance{Reference: "x", Has: scorer.InReference})
	if len(ev.Results) != 1 || ev.Results[0].Score != 1 {
		t.Errorf("with a reference: %+v", ev)
	}
}
