package scorer

import (
	"strings"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// ModelText is the text one model call of a run produced, with the number
// of the run's tool calls made before it: the calls it could draw on are
// PredictedTrajectory[:CallsBefore].
type ModelText struct {
	Text        string
	CallsBefore int
}

// IntermediateResponses returns the natural-language texts the run's
// model calls produced before the final response, in execution order (the
// run's replies, agentrun.Replies). The last model text is left out when it
// is the final response. Nil when the run recorded no steps or no model
// text.
func (in *Instance) IntermediateResponses() []ModelText {
	if in.Trajectory == nil {
		return nil
	}
	var out []ModelText
	calls := 0
	for _, r := range agentrun.Replies(in.Trajectory) {
		if r.Text != "" {
			out = append(out, ModelText{Text: r.Text, CallsBefore: min(calls, len(in.PredictedTrajectory))})
		}
		for _, i := range r.Calls {
			calls = max(calls, i+1)
		}
	}
	if n := len(out); n > 0 && strings.TrimSpace(out[n-1].Text) == strings.TrimSpace(in.Response) {
		out = out[:n-1]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
