package vertex

import (
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

// On an agent run, groundedness checks the response against the tool
// results as well as the prompt; a run without tools shows no tool
// section and needs none.
func TestGroundednessSeesToolResults(t *testing.T) {
	agent := &scorer.Instance{
		Prompt:              "What is the status of order 1234?",
		Response:            "Order 1234 ships tomorrow.",
		PredictedTrajectory: []agentrun.ToolCall{{Name: "order_status", Arguments: `{"id":"1234"}`, ArgumentsValid: true, Result: `{"status":"ships tomorrow"}`}},
		Has:                 scorer.InPrompt | scorer.InResponse | scorer.InPredictedTrajectory,
	}
	chat := &scorer.Instance{Prompt: "Say hi.", Response: "Hi!", Has: scorer.InPrompt | scorer.InResponse, PredictedTrajectory: []agentrun.ToolCall{}}
	for _, tt := range []struct {
		name      string
		in        *scorer.Instance
		withTools bool
	}{{"agent run", agent, true}, {"no tools", chat, false}} {
		t.Run(tt.name, func(t *testing.T) {
			j := judgemetrictest.NewJudge()
			j.Queue(pw("1"))
			m := build(t, j, "groundedness", "", nil)
			if miss := tt.in.Missing(m.Needs()); miss != 0 {
				t.Fatalf("not applicable: missing %b", miss)
			}
			if _, err := m.Score(t.Context(), tt.in); err != nil {
				t.Fatal(err)
			}
			p := j.Requests()[0].Prompt
			if got := strings.Contains(p, `ships tomorrow\"}`) || strings.Contains(p, `"ships tomorrow"}`); got != tt.withTools {
				t.Errorf("tool result in the prompt = %v, want %v:\n%s", got, tt.withTools, p)
			}
			if got := strings.Contains(p, "Tool Calls and Results"); got != tt.withTools {
				t.Errorf("tool section = %v, want %v", got, tt.withTools)
			}
		})
	}
}
