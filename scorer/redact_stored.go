package scorer

import (
	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/jsonobj"
)

// Redactor replaces personal data and secrets in text.
type Redactor interface {
	Redact(s string) string
}

// redactTrajectory redacts t's content in place. Tool arguments whose
// redaction broke their JSON (a number replaced by a marker) are flagged
// invalid again.
func redactTrajectory(t *agentrun.Trajectory, r Redactor) {
	t.Input = r.Redact(t.Input)
	t.Output = r.Redact(t.Output)
	t.Instructions = r.Redact(t.Instructions)
	for i := range t.History {
		t.History[i].Content = r.Redact(t.History[i].Content)
	}
	for i := range t.ToolCalls {
		c := &t.ToolCalls[i]
		if args := r.Redact(c.Arguments); args != c.Arguments {
			c.Arguments = args
			c.ArgumentsValid = c.ArgumentsValid && jsonobj.Valid(args)
		}
		c.Result = r.Redact(c.Result)
		c.Error = r.Redact(c.Error)
	}
	for k, v := range t.Attributes {
		t.Attributes[k] = r.Redact(v)
	}
}
