package judgestage

import (
	"strconv"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/sampling"
)

// contentKey is the result-cache key of a judge metric on an instance:
// the metric, the judge and every input field the metric reads, so a
// duplicate delivery of the same run (or an identical run) is judged
// once.
func contentKey(metric, judgeName string, needs scorer.Inputs, in *scorer.Instance) sampling.Key {
	parts := make([]string, 0, 16)
	field := func(bit scorer.Inputs, vs ...string) {
		if needs&bit != 0 || in.Has&bit != 0 {
			parts = append(parts, vs...)
		}
	}
	field(scorer.InPrompt, "p", in.Prompt)
	field(scorer.InResponse, "r", in.Response)
	field(scorer.InReference, "ref", in.Reference)
	field(scorer.InContext, "c", in.Context)
	field(scorer.InInstruction, "i", in.Instruction)
	if needs&scorer.InPredictedTrajectory != 0 || in.Has&scorer.InPredictedTrajectory != 0 {
		parts = append(parts, "t", strconv.Itoa(len(in.PredictedTrajectory)))
		for _, c := range in.PredictedTrajectory {
			parts = append(parts, c.Name, c.Arguments, c.Result, c.Error)
		}
	}
	if in.Has&scorer.InToolDeclarations != 0 {
		parts = append(parts, "d", strconv.Itoa(len(in.ToolDeclarations)))
		for _, d := range in.ToolDeclarations {
			parts = append(parts, d.Name, d.Description, d.Parameters)
		}
	}
	if in.Has&scorer.InConversation != 0 {
		parts = append(parts, "h", strconv.Itoa(len(in.Conversation)))
		for _, m := range in.Conversation {
			parts = append(parts, m.Role, m.Content)
		}
	}
	if in.Has&scorer.InReferenceTopics != 0 {
		parts = append(parts, "topics", strconv.Itoa(len(in.ReferenceTopics)))
		parts = append(parts, in.ReferenceTopics...)
	}
	return sampling.NewKey(metric, judgeName, parts...)
}
