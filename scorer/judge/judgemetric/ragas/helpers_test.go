package ragas

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
var rawTokens = []string{"RAWPROMPT", "RAWRESPONSE", "RAWREFERENCE", "RAWHISTORY", "RAWARGS", "RAWRESULT", "RAWTOPIC"}

// fixedInstance is a single-turn run with history, a tool call, a
// reference and reference topics.
func fixedInstance() *scorer.Instance {
	return &scorer.Instance{
		Conversation: []agentrun.Message{{Role: "user", Content: "Hello RAWHISTORY"}, {Role: "assistant", Content: "Hi, how can I help?"}},
		Prompt:       "Book a table for two at 8pm. RAWPROMPT",
		Response:     "Your table is booked for 8pm. RAWRESPONSE",
		Reference:    "Table for two booked at 8 pm. RAWREFERENCE",
		PredictedTrajectory: []agentrun.ToolCall{{
			Name: "book_table", Arguments: `{"people":2,"time":"8pm","note":"RAWARGS","vip":false,"x":1.0}`,
			ArgumentsValid: true, Result: "booked RAWRESULT",
		}},
		ReferenceTopics: []string{"restaurant bookings RAWTOPIC"},
		Has: scorer.InPrompt | scorer.InResponse | scorer.InReference | scorer.InConversation |
			scorer.InPredictedTrajectory | scorer.InReferenceTopics,
	}
}
