package adk

import (
	"flag"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// newEnv is the package's metrics on a judge that gives answers in order.
func newEnv(answers ...string) *judgemetrictest.Env {
	return judgemetrictest.NewEnv(Register, judgemetrictest.BracketEnvelope(), answers...)
}

// Raw tokens of the fixed instance: each must reach the judge only inside
// a sanitizer marker.
var rawTokens = []string{"RAWPROMPT", "RAWRESPONSE", "RAWREFERENCE", "RAWINSTRUCTION", "RAWARGS", "RAWRESULT", "RAWDECL"}

// fixedInstance is a single-turn run with every kind of content.
func fixedInstance() *scorer.Instance {
	return &scorer.Instance{
		Prompt:      "What is the weather in Paris? RAWPROMPT",
		Response:    "It is sunny in Paris. RAWRESPONSE Enjoy!",
		Reference:   "Sunny in Paris. RAWREFERENCE",
		Instruction: "You answer weather questions. RAWINSTRUCTION",
		PredictedTrajectory: []agentrun.ToolCall{{
			ID: "c1", Name: "get_weather", Arguments: `{"city":"Paris","note":"RAWARGS","n":1.0}`,
			ArgumentsValid: true, Result: `{"forecast":"sunny RAWRESULT","temp_c":21}`,
		}},
		ToolDeclarations: []agentrun.ToolDefinition{{
			Name: "get_weather", Description: "Weather by city. RAWDECL",
			Parameters: `{"type":"object","properties":{"city":{"type":"string"}}}`,
		}},
		Has: scorer.InPrompt | scorer.InResponse | scorer.InReference | scorer.InInstruction |
			scorer.InPredictedTrajectory | scorer.InToolDeclarations,
	}
}

func near(a, b, tol float64) bool { d := a - b; return d <= tol && -d <= tol }
