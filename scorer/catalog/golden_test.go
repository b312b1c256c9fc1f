package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/jsonobj"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// runFixture is a recorded agent run: the ground truth of a real
// instrumentation capture, optionally with declared tools.
type runFixture struct {
	UserInput string `json:"user_input"`
	ToolCalls []struct {
		Name   string          `json:"name"`
		Args   json.RawMessage `json:"args"` // an object, or a string holding raw text
		CallID string          `json:"call_id"`
		Result json.RawMessage `json:"result"`
		Error  string          `json:"error"`
	} `json:"tool_calls"`
	FinalResponse string `json:"final_response"`
	Failed        bool   `json:"expect_failure_flag"`
	AgentName     string `json:"agent_name"`
	LLMCalls      int    `json:"llm_calls"`
	ToolDefs      []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"tool_defs"`
}

// loadRun builds a trajectory from a fixture in testdata/runs. The run
// starts at a fixed time and lasts one second per model call.
func loadRun(t testing.TB, path string) *agentrun.Trajectory {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f runFixture
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	start := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	tr := &agentrun.Trajectory{
		TraceID: strings.TrimSuffix(filepath.Base(path), ".json"),
		Agent:   f.AgentName, Input: f.UserInput, Output: f.FinalResponse, Failed: f.Failed,
		Start: start, End: start.Add(time.Duration(f.LLMCalls) * time.Second),
	}
	for _, c := range f.ToolCalls {
		args := string(c.Args)
		var s string
		if json.Unmarshal(c.Args, &s) == nil {
			args = s
		}
		tr.ToolCalls = append(tr.ToolCalls, agentrun.ToolCall{
			ID: c.CallID, Name: c.Name, Arguments: args, ArgumentsValid: jsonobj.Valid(args),
			Result: string(c.Result), Error: c.Error,
		})
	}
	for _, d := range f.ToolDefs {
		tr.ToolDefs = append(tr.ToolDefs, agentrun.ToolDefinition{Name: d.Name, Description: d.Description, Parameters: string(d.Parameters)})
	}
	return tr
}

// goldenEvaluation is the stable, comparable form of an Evaluation.
type goldenEvaluation struct {
	Results []struct {
		Metric  string         `json:"metric"`
		Score   float64        `json:"score"`
		Label   string         `json:"label,omitempty"`
		Details map[string]any `json:"details,omitempty"`
	} `json:"results"`
	NotApplicable []string `json:"not_applicable"`
	Errors        []string `json:"errors"`
}

func toGolden(ev *scorer.Evaluation) goldenEvaluation {
	var g goldenEvaluation
	for _, r := range ev.Results {
		g.Results = append(g.Results, struct {
			Metric  string         `json:"metric"`
			Score   float64        `json:"score"`
			Label   string         `json:"label,omitempty"`
			Details map[string]any `json:"details,omitempty"`
		}{r.Metric, r.Score, r.Label, r.Details})
	}
	g.NotApplicable = append([]string{}, ev.NotApplicable...)
	g.Errors = []string{}
	for _, e := range ev.Errors {
		g.Errors = append(g.Errors, e.Metric+": "+e.Reason)
	}
	return g
}

// TestGoldenRuns scores recorded runs with every built-in metric and
// compares with testdata/golden. Run with -update to rewrite them.
func TestGoldenRuns(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "runs", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no runs: %v", err)
	}
	ms, err := NewRegistry().Build(DefaultMetrics())
	if err != nil {
		t.Fatal(err)
	}
	e, err := scorer.NewEngine(scorer.DefaultConfig(), telemetry.Settings{}, ms, nil, scorer.EngineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".json")
		t.Run(name, func(t *testing.T) {
			ev := e.Evaluate(context.Background(), scorer.FromTrajectory(loadRun(t, p)))
			got, err := json.MarshalIndent(toGolden(ev), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("testdata", "golden", name+".json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the evaluation:\n%s", golden, got)
			}
		})
	}
}
