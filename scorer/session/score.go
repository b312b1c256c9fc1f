package session

import (
	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// Session metric ids.
const (
	MetricTurns         = "session_turns"
	MetricFailed        = "session_failed"
	MetricToolErrorRate = "session_tool_error_rate"
	MetricDuration      = "session_duration_seconds"
)

// Evaluate scores a closed session with the session metrics:
//   - session_turns: the number of runs (turns);
//   - session_failed: 1 when any turn failed, else 0, with the first
//     failed turn (1-based) and its trace id in the details;
//   - session_tool_error_rate: tool calls that returned an error over all
//     tool calls of the session; not applicable without tool calls;
//   - session_duration_seconds: from the first turn's start to the last
//     turn's end; not applicable when either is unknown.
func Evaluate(s *agentrun.Session) *scorer.Evaluation {
	ev := &scorer.Evaluation{Session: s, Results: make([]scorer.Result, 0, 4)}
	failed, first, calls, toolErrors := 0, -1, 0, 0
	for i := range s.Turns {
		t := &s.Turns[i]
		if t.Failed {
			failed++
			if first < 0 {
				first = i
			}
		}
		calls += t.ToolCalls
		toolErrors += t.ToolErrors
	}
	ev.Results = append(ev.Results, scorer.Result{Metric: MetricTurns, Score: float64(len(s.Turns)),
		Details: map[string]any{"trace_ids": s.TraceIDs(), "close_reason": s.CloseReason}})

	fr := scorer.Result{Metric: MetricFailed, Label: "ok", Details: map[string]any{"failed_turns": failed}}
	if first >= 0 {
		fr.Score, fr.Label = 1, "failed"
		fr.Details["first_failed_turn"] = first + 1
		fr.Details["first_failed_trace_id"] = s.Turns[first].TraceID
		if et := s.Turns[first].ErrorType; et != "" {
			fr.Details["error_type"] = et
		}
	}
	ev.Results = append(ev.Results, fr)

	if calls > 0 {
		ev.Results = append(ev.Results, scorer.Result{Metric: MetricToolErrorRate, Score: float64(toolErrors) / float64(calls),
			Details: map[string]any{"tool_calls": calls, "tool_errors": toolErrors}})
	} else {
		ev.NotApplicable = append(ev.NotApplicable, MetricToolErrorRate)
	}

	start, end := s.Start(), s.End()
	if !start.IsZero() && !end.Before(start) {
		ev.Results = append(ev.Results, scorer.Result{Metric: MetricDuration, Score: end.Sub(start).Seconds()})
	} else {
		ev.NotApplicable = append(ev.NotApplicable, MetricDuration)
	}
	return ev
}

// Conversation is the instance a session's multi-turn judge metrics read:
// the earlier turns as user and assistant messages, the last turn's
// request and answer as prompt and response.
func Conversation(s *agentrun.Session) *scorer.Instance {
	in := &scorer.Instance{Session: s}
	n := len(s.Turns)
	if n == 0 {
		return in
	}
	for _, t := range s.Turns[:n-1] {
		in.Conversation = append(in.Conversation, agentrun.Message{Role: "user", Content: t.Input},
			agentrun.Message{Role: "assistant", Content: t.Output})
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
	return in
}
