package extractor

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// groundTruth is the part of a realclients ground_truth.json the test checks.
type groundTruth struct {
	UserInput string `json:"user_input"`
	ToolCalls []struct {
		Name   string          `json:"name"`
		Args   json.RawMessage `json:"args"`
		CallID string          `json:"call_id"`
		Error  string          `json:"error"`
	} `json:"tool_calls"`
	FinalResponse string `json:"final_response"`
	AgentName     string `json:"agent_name"`
	SystemPrompt  string `json:"system_prompt"`
	Files         []string
}

func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func TestRealClientsOTelGenAIManual(t *testing.T) {
	dirs, err := filepath.Glob("testdata/realclients/otel-genai-manual/json/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, "ground_truth.json"))
			if err != nil {
				t.Fatal(err)
			}
			var gt groundTruth
			if err := json.Unmarshal(raw, &gt); err != nil {
				t.Fatal(err)
			}
			ta := newTestAssembler(t, DefaultConfig())
			payloads, _ := filepath.Glob(filepath.Join(dir, "payload-*.json"))
			for _, p := range payloads {
				body, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(body)
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				if err := ta.ConsumeTraces(context.Background(), td); err != nil {
					t.Fatal(err)
				}
			}
			if err := ta.Flush(context.Background()); err != nil {
				t.Fatal(err)
			}
			trajs := ta.sink.all()
			if len(trajs) != 1 {
				t.Fatalf("got %d trajectories, want 1", len(trajs))
			}
			tr := trajs[0]
			if tr.Input != gt.UserInput {
				t.Errorf("input = %q, want %q", tr.Input, gt.UserInput)
			}
			if tr.Output != gt.FinalResponse {
				t.Errorf("output = %q, want %q", tr.Output, gt.FinalResponse)
			}
			if tr.Agent != gt.AgentName {
				t.Errorf("agent = %q, want %q", tr.Agent, gt.AgentName)
			}
			if tr.Instructions != gt.SystemPrompt {
				t.Errorf("instructions = %q, want %q", tr.Instructions, gt.SystemPrompt)
			}
			if len(tr.ToolCalls) != len(gt.ToolCalls) {
				t.Fatalf("got %d tool calls, want %d: %+v", len(tr.ToolCalls), len(gt.ToolCalls), tr.ToolCalls)
			}
			for i, want := range gt.ToolCalls {
				got := tr.ToolCalls[i]
				if got.Name != want.Name {
					t.Errorf("tool %d name = %q, want %q", i, got.Name, want.Name)
				}
				if !got.ArgumentsValid || !sameJSON(t, got.Arguments, string(want.Args)) {
					t.Errorf("tool %d arguments = %s (valid %v), want %s", i, got.Arguments, got.ArgumentsValid, want.Args)
				}
				if got.ID != want.CallID {
					t.Errorf("tool %d id = %q, want %q", i, got.ID, want.CallID)
				}
				if (got.Error != "") != (want.Error != "") {
					t.Errorf("tool %d error = %q, want error %v", i, got.Error, want.Error != "")
				}
			}
			if len(tr.LLMCalls) == 0 || tr.LLMCalls[0].Model == "" {
				t.Errorf("llm calls missing model: %+v", tr.LLMCalls)
			}
		})
	}
}
