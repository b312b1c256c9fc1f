package catalog

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/runhealth"
)

// replacer is a Redactor replacing one planted value.
type replacer struct{ secret, marker string }

func (r replacer) Redact(s string) string { return strings.ReplaceAll(s, r.secret, r.marker) }

func TestRedactorCleansRunsBeforeScoringAndExport(t *testing.T) {
	const secret = "4155550134"
	for _, redactOn := range []bool{false, true} {
		sink := &collectSink{}
		ms, err := NewRegistry().Build([]scorer.MetricConfig{{Name: runhealth.MetricToolArgsValid}})
		if err != nil {
			t.Fatal(err)
		}
		var opts scorer.EngineOptions
		if redactOn {
			opts.Redactor = replacer{secret, "[REDACTED:phone]"}
		}
		e, err := scorer.NewEngine(scorer.DefaultConfig(), telemetry.Settings{}, ms, sink, opts)
		if err != nil {
			t.Fatal(err)
		}
		tr := &agentrun.Trajectory{
			TraceID: "t", Input: "call me at " + secret, Output: "calling " + secret,
			Instructions: "never share " + secret,
			History:      []agentrun.Message{{Role: "user", Content: secret}},
			ToolCalls: []agentrun.ToolCall{
				{Name: "dial", Arguments: `{"number": ` + secret + `}`, ArgumentsValid: true, Result: "dialled " + secret},
				{Name: "sms", Arguments: `{"to": "` + secret + `"}`, ArgumentsValid: true, Error: "blocked " + secret},
			},
			Attributes: map[string]string{"user.phone": secret},
		}
		e.Start(context.Background())
		if err := e.Submit(context.Background(), tr); err != nil {
			t.Fatal(err)
		}
		if err := e.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		got := sink.evs[0]
		text := got.Trajectory.Input + got.Trajectory.Output + got.Trajectory.Instructions +
			got.Trajectory.History[0].Content + got.Trajectory.Attributes["user.phone"]
		for _, c := range got.Trajectory.ToolCalls {
			text += c.Arguments + c.Result + c.Error
		}
		if leaked := strings.Contains(text, secret); leaked == redactOn {
			t.Errorf("redactor on=%v: secret stored=%v", redactOn, leaked)
		}
		// Redacting a JSON number breaks the arguments: the metric sees it.
		wantScore := 1.0
		if redactOn {
			wantScore = 0.5
			if got.Trajectory.ToolCalls[0].ArgumentsValid || !got.Trajectory.ToolCalls[1].ArgumentsValid {
				t.Errorf("ArgumentsValid after redaction: %v, %v", got.Trajectory.ToolCalls[0].ArgumentsValid, got.Trajectory.ToolCalls[1].ArgumentsValid)
			}
		}
		if s := got.Results[0].Score; s != wantScore {
			t.Errorf("redactor on=%v: tool_args_valid = %v, want %v", redactOn, s, wantScore)
		}
	}
}

// collectSink keeps every exported evaluation.
type collectSink struct {
	mu  sync.Mutex
	evs []*scorer.Evaluation
}

func (s *collectSink) Export(_ context.Context, e *scorer.Evaluation) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.evs = append(s.evs, e)
	return nil
}
