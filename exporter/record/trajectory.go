package record

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// TrajectoryRecord is one agent run as written to trajectories.jsonl.
type TrajectoryRecord struct {
	TraceID        string  `json:"trace_id"`
	SpanID         string  `json:"span_id"`
	Service        string  `json:"service"`
	ServiceVersion string  `json:"service_version"`
	Environment    string  `json:"environment"`
	Agent          string  `json:"agent"`
	SessionID      string  `json:"session_id"`
	Convention     string  `json:"convention"`
	Start          Time    `json:"start"`
	End            Time    `json:"end"`
	LatencySeconds float64 `json:"latency_seconds"`
	Failed         bool    `json:"failed"`
	ErrorType      string  `json:"error_type"`
	Input          string  `json:"input"`
	Output         string  `json:"output"`
	Instructions   string  `json:"instructions"`
	// Truncated is set when a value of the run (its output, input, a tool
	// argument or result, an attribute) was cut to
	// extractor.max_attribute_value_bytes.
	Truncated  bool              `json:"truncated"`
	ToolCalls  []ToolCallRecord  `json:"tool_calls"`
	LLMCalls   []LLMCallRecord   `json:"llm_calls"`
	Attributes map[string]string `json:"attributes"`
}

// ToolCallRecord is one tool call of a TrajectoryRecord.
type ToolCallRecord struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the argument JSON object itself when the recorded
	// arguments are a valid JSON object, else the raw text as a JSON string.
	Arguments      json.RawMessage `json:"arguments"`
	ArgumentsValid bool            `json:"arguments_valid"`
	Result         string          `json:"result"`
	Error          string          `json:"error"`
	Start          Time            `json:"start"`
	End            Time            `json:"end"`
	SpanID         string          `json:"span_id"`
	Agent          string          `json:"agent"`
}

// LLMCallRecord is one model call of a TrajectoryRecord.
type LLMCallRecord struct {
	Model         string   `json:"model"`
	Provider      string   `json:"provider"`
	InputTokens   int64    `json:"input_tokens"`
	OutputTokens  int64    `json:"output_tokens"`
	Start         Time     `json:"start"`
	End           Time     `json:"end"`
	FinishReasons []string `json:"finish_reasons"`
}

// Trajectory converts t to its record. Slices and maps in the record are
// never nil, so they encode as [] and {}. The record shares no mutable
// memory with t.
func Trajectory(t *agentrun.Trajectory) TrajectoryRecord {
	r := TrajectoryRecord{
		TraceID:        t.TraceID,
		SpanID:         t.RootSpanID,
		Service:        t.Service,
		ServiceVersion: t.ServiceVersion,
		Environment:    t.Environment,
		Agent:          t.Agent,
		SessionID:      t.SessionID,
		Convention:     t.Convention,
		Start:          NewTime(t.Start),
		End:            NewTime(t.End),
		LatencySeconds: t.Latency().Seconds(),
		Failed:         t.Failed,
		ErrorType:      t.ErrorType,
		Input:          t.Input,
		Output:         t.Output,
		Instructions:   t.Instructions,
		Truncated:      t.Truncated,
		ToolCalls:      make([]ToolCallRecord, len(t.ToolCalls)),
		LLMCalls:       make([]LLMCallRecord, len(t.LLMCalls)),
		Attributes:     make(map[string]string, len(t.Attributes)),
	}
	for i := range t.ToolCalls {
		tc := &t.ToolCalls[i]
		args, valid := arguments(tc.Arguments, tc.ArgumentsValid)
		r.ToolCalls[i] = ToolCallRecord{
			ID:             tc.ID,
			Name:           tc.Name,
			Arguments:      args,
			ArgumentsValid: valid,
			Result:         tc.Result,
			Error:          tc.Error,
			Start:          NewTime(tc.Start),
			End:            NewTime(tc.End),
			SpanID:         tc.SpanID,
			Agent:          tc.Agent,
		}
	}
	for i := range t.LLMCalls {
		lc := &t.LLMCalls[i]
		reasons := make([]string, len(lc.FinishReasons))
		copy(reasons, lc.FinishReasons)
		r.LLMCalls[i] = LLMCallRecord{
			Model:         lc.Model,
			Provider:      lc.Provider,
			InputTokens:   lc.InputTokens,
			OutputTokens:  lc.OutputTokens,
			Start:         NewTime(lc.Start),
			End:           NewTime(lc.End),
			FinishReasons: reasons,
		}
	}
	for k, v := range t.Attributes {
		r.Attributes[k] = v
	}
	return r
}

// arguments returns the JSON value for a tool call's arguments: the object
// itself when raw is a valid JSON object in valid UTF-8, else raw as a JSON
// string (escaped as json.Marshal escapes it). The flag is checked again
// here so that a wrong flag can never produce an invalid record.
func arguments(raw string, flagged bool) (json.RawMessage, bool) {
	if flagged {
		if t := strings.TrimLeft(raw, " \t\r\n"); t != "" && t[0] == '{' && utf8.ValidString(t) {
			if b := []byte(raw); json.Valid(b) {
				return b, true
			}
		}
	}
	return appendStringEscaped(nil, raw, true), false
}
