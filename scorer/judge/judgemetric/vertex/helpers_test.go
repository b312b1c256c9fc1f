package vertex

import (
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

// envelope is how the tests' sanitizers mark content:
// <<field:K3Y>>text<</field:K3Y>>.
var envelope = judgemetrictest.AngleEnvelope()

func testDeps(j judge.Judge) judgemetric.Deps {
	return judgemetrictest.Deps(j, judgemetrictest.NewSanitizers(envelope))
}

// build registers the package on a fresh registry and builds one metric.
func build(t *testing.T, j judge.Judge, name, typ string, params map[string]any) scorer.Metric {
	t.Helper()
	m, err := buildErr(j, name, typ, params)
	if err != nil {
		t.Fatalf("build %s: %v", name, err)
	}
	return m
}

func buildErr(j judge.Judge, name, typ string, params map[string]any) (scorer.Metric, error) {
	return judgemetrictest.Build(Register, testDeps(j), scorer.MetricConfig{Name: name, Type: typ, Params: params})
}

// rawFields maps the raw markers of fixture() to the sanitizer field
// they must travel in.
var rawFields = map[string]string{
	"RAW_PROMPT":      FieldPrompt,
	"RAW_RESPONSE":    FieldResponse,
	"RAW_REFERENCE":   FieldReference,
	"RAW_REFTRAJ":     FieldReference,
	"RAW_CONTEXT":     FieldContext,
	"RAW_COLUMN":      FieldContext,
	"RAW_BASELINE":    FieldResponse,
	"RAW_INSTRUCTION": FieldInstruction,
	"RAW_ARGS":        FieldToolCalls,
	"RAW_RESULT":      FieldToolCalls,
	"RAW_TOOLDESC":    FieldToolDeclarations,
	"RAW_HISTORY":     FieldConversation,
	"RAW_RUBRIC":      FieldRubrics,
	"RAW_CLAIM":       FieldResponse,
}

// fixture is one instance with every field set; each field carries a
// RAW_ marker.
func fixture() *scorer.Instance {
	return &scorer.Instance{
		Prompt:      "RAW_PROMPT Plan one day in Rome in 3 bullet points.",
		Response:    "RAW_RESPONSE Hello!\n- Morning: the Colosseum.\n- Afternoon: the Forum.\n- Evening: Trastevere.",
		Reference:   "RAW_REFERENCE Colosseum, Forum, Trastevere.",
		Context:     "RAW_CONTEXT The Colosseum opens at 9:00.",
		Instruction: "RAW_INSTRUCTION You are a travel agent. Use the tools.",
		PredictedTrajectory: []agentrun.ToolCall{
			{Name: "get_opening_hours", Arguments: `{"place":"RAW_ARGS Colosseum"}`, ArgumentsValid: true, Result: "RAW_RESULT 9:00-19:00"},
		},
		ReferenceTrajectory: []agentrun.ToolCall{
			{Name: "get_opening_hours", Arguments: `{"place":"RAW_REFTRAJ"}`, ArgumentsValid: true},
		},
		ToolDeclarations: []agentrun.ToolDefinition{
			{Name: "get_opening_hours", Description: "RAW_TOOLDESC Opening hours of a place.", Parameters: `{"type":"object","properties":{"place":{"type":"string"}}}`},
		},
		Conversation: []agentrun.Message{
			{Role: "user", Content: "RAW_HISTORY I like old buildings."},
			{Role: "assistant", Content: "RAW_HISTORY Noted: ancient sites."},
		},
		Columns: map[string]any{"style_guide": "RAW_COLUMN Be brief.", BaselineColumn: "RAW_BASELINE Go to the Vatican."},
		Has: scorer.InPrompt | scorer.InResponse | scorer.InReference | scorer.InContext | scorer.InInstruction |
			scorer.InPredictedTrajectory | scorer.InReferenceTrajectory | scorer.InToolDeclarations | scorer.InConversation,
	}
}
