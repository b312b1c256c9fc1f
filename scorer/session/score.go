package session

import (
	"context"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/dataset"
)

// Session metric ids.
const (
	MetricTurns         = "session_turns"
	MetricFailed        = "session_failed"
	MetricToolErrorRate = "session_tool_error_rate"
	MetricDuration      = "session_duration_seconds"
)

// metric returns a session metric: a scorer.Described metric scoring the
// Instance's Session (not applicable without one, or when score says it
// is undefined), so that the exporters learn its semantics as they learn
// the run metrics'.
func metric(name string, sem scorer.Semantics, score func(s *agentrun.Session) (scorer.Result, bool)) scorer.Metric {
	return scorer.DescribedFunc(name, 0, sem, func(in *scorer.Instance) (scorer.Result, error) {
		if in.Session == nil {
			return scorer.Result{}, scorer.ErrNotApplicable
		}
		r, ok := score(in.Session)
		if !ok {
			return scorer.Result{}, scorer.ErrNotApplicable
		}
		return r, nil
	})
}

// Metrics are the session metrics, in the order Evaluate scores them:
//   - session_turns: the number of runs (turns); a session scored again
//     for late turns has its revision and late_turns in the details;
//   - session_failed: 1 when any turn failed, else 0, with the first
//     failed turn (1-based) and its trace id in the details; passes at 0;
//   - session_tool_error_rate: tool calls that returned an error over all
//     tool calls of the session; not applicable without tool calls;
//     passes at 0, as the run's tool_error_rate;
//   - session_duration_seconds: from the first turn's start to the last
//     turn's end; not applicable when either is unknown.
func Metrics() []scorer.Metric {
	return []scorer.Metric{
		metric(MetricTurns, scorer.Count(scorer.DirectionNone, "number of turns in the session"), turns),
		metric(MetricFailed, scorer.Ratio(scorer.LowerIsBetter, "1 when any turn of the session failed, else 0").WithPass("<=", 0), failed),
		metric(MetricToolErrorRate, scorer.Ratio(scorer.LowerIsBetter, "share of the session's tool calls that errored").WithPass("<=", 0), toolErrorRate),
		metric(MetricDuration, scorer.Seconds("first turn's start to last turn's end in seconds"), duration),
	}
}

// Metrics are the metrics a closed session is scored with here (the
// judge's conversation metrics aside): the session metrics and, with
// Options.Cases, the case metrics.
func (a *Assembler) Metrics() []scorer.Metric {
	return append(Metrics(), a.opts.CaseMetrics...)
}

// Evaluate scores a closed session with the session metrics (Metrics),
// each result with its pass verdict.
func Evaluate(s *agentrun.Session) *scorer.Evaluation {
	ev := &scorer.Evaluation{Session: s, Results: make([]scorer.Result, 0, 4)}
	in := &scorer.Instance{Session: s}
	for _, m := range Metrics() {
		r, err := m.Score(context.Background(), in)
		if err != nil { // only ErrNotApplicable
			ev.NotApplicable = append(ev.NotApplicable, m.Name())
			continue
		}
		r.Passed = scorer.SemanticsOf(m).Pass.Verdict(r.Score)
		if s.Revision > 1 { // readers pick a session's latest revision by it
			if r.Details == nil {
				r.Details = map[string]any{}
			}
			r.Details["revision"] = s.Revision
		}
		ev.Results = append(ev.Results, r)
	}
	return ev
}

func turns(s *agentrun.Session) (scorer.Result, bool) {
	r := scorer.Result{Score: float64(len(s.Turns)),
		Details: map[string]any{"trace_ids": s.TraceIDs(), "close_reason": s.CloseReason}}
	if s.Revision > 1 {
		r.Details["late_turns"] = s.LateTurns
	}
	return r, true
}

func failed(s *agentrun.Session) (scorer.Result, bool) {
	n, first := 0, -1
	for i := range s.Turns {
		if s.Turns[i].Failed {
			n++
			if first < 0 {
				first = i
			}
		}
	}
	r := scorer.Result{Label: "ok", Details: map[string]any{"failed_turns": n}}
	if first >= 0 {
		r.Score, r.Label = 1, "failed"
		r.Details["first_failed_turn"] = first + 1
		r.Details["first_failed_trace_id"] = s.Turns[first].TraceID
		if et := s.Turns[first].ErrorType; et != "" {
			r.Details["error_type"] = et
		}
	}
	return r, true
}

func toolErrorRate(s *agentrun.Session) (scorer.Result, bool) {
	calls, errs := 0, 0
	for i := range s.Turns {
		calls += s.Turns[i].ToolCalls
		errs += s.Turns[i].ToolErrors
	}
	if calls == 0 {
		return scorer.Result{}, false
	}
	return scorer.Result{Score: float64(errs) / float64(calls),
		Details: map[string]any{"tool_calls": calls, "tool_errors": errs}}, true
}

func duration(s *agentrun.Session) (scorer.Result, bool) {
	start, end := s.Start(), s.End()
	if start.IsZero() || end.Before(start) {
		return scorer.Result{}, false
	}
	return scorer.Result{Score: end.Sub(start).Seconds()}, true
}

// Conversation is the instance a session's judge metrics read: the
// earlier turns as user and assistant messages, the last turn's request
// and answer as prompt and response, and every turn's dialogue in order
// as the Transcript (with the turns' tool calls and model replies when
// they were kept). A canary session's case c (nil for none) gives the
// reference topics and, when its last turn has an expected response, the
// reference.
func Conversation(s *agentrun.Session, c *dataset.Case) *scorer.Instance {
	in := &scorer.Instance{Session: s}
	n := len(s.Turns)
	if n == 0 {
		return in
	}
	for i := range s.Turns {
		t := &s.Turns[i]
		if i < n-1 {
			in.Conversation = append(in.Conversation, agentrun.Message{Role: agentrun.RoleUser, Content: t.Input},
				agentrun.Message{Role: agentrun.RoleAssistant, Content: t.Output})
		}
		in.Transcript = append(in.Transcript, t.Dialogue()...)
	}
	last := s.Turns[n-1]
	in.Prompt, in.Response = last.Input, last.Output
	if in.Prompt != "" {
		in.Has |= scorer.InPrompt
	}
	if in.Response != "" {
		in.Has |= scorer.InResponse
	}
	if len(in.Conversation) > 0 {
		in.Has |= scorer.InConversation
	}
	if c != nil {
		in.CaseID = c.ID
		if len(c.Topics) > 0 {
			in.ReferenceTopics = c.Topics
			in.Has |= scorer.InReferenceTopics
		}
		if k := len(c.Turns); k > 0 && c.Turns[k-1].HasResponse {
			in.Reference = c.Turns[k-1].Response
			in.Has |= scorer.InReference
		}
	}
	return in
}
