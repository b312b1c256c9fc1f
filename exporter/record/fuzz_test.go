package record

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// FuzzTrajectoryRecord feeds arbitrary span-derived text through the record
// and its JSON encoding: the line must always be one valid JSON object, and
// arguments must be an object exactly when they are a valid object.
func FuzzTrajectoryRecord(f *testing.F) {
	f.Add(`{"a":1}`, true, "hello", "tool", 0.5)
	f.Add(`{"a":`, true, "\xff\xfe", "to\x00ol", 1.0)
	f.Add(`[1]`, true, "\u2028</script>", "", -1.0)
	f.Fuzz(func(t *testing.T, args string, flagged bool, text, name string, score float64) {
		tr := &agentrun.Trajectory{
			TraceID: text, Service: name, Input: text, Output: text,
			Start: time.Unix(0, 0), End: time.Unix(1, 0),
			ToolCalls:  []agentrun.ToolCall{{Name: name, Arguments: args, ArgumentsValid: flagged, Result: text}},
			Attributes: map[string]string{text: name},
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(Trajectory(tr)); err != nil {
			t.Fatalf("trajectory record does not encode: %v", err)
		}
		line := buf.Bytes()
		if !utf8.Valid(line) {
			t.Fatalf("encoded record is not UTF-8: %q", line)
		}
		if bytes.IndexByte(line, '\n') != len(line)-1 {
			t.Fatalf("encoded record is not one line: %q", line)
		}
		var back struct {
			Input     string `json:"input"`
			ToolCalls []struct {
				Arguments      json.RawMessage `json:"arguments"`
				ArgumentsValid bool            `json:"arguments_valid"`
			} `json:"tool_calls"`
		}
		if err := json.Unmarshal(line, &back); err != nil {
			t.Fatalf("encoded record is not valid JSON: %v", err)
		}
		if utf8.ValidString(text) && back.Input != text {
			t.Fatalf("input %q came back as %q", text, back.Input)
		}
		isObj := len(back.ToolCalls[0].Arguments) > 0 && back.ToolCalls[0].Arguments[0] == '{'
		if isObj != back.ToolCalls[0].ArgumentsValid || (isObj && !flagged) {
			t.Fatalf("arguments %q (flag %v) encoded as %s valid=%v", args, flagged, back.ToolCalls[0].Arguments, back.ToolCalls[0].ArgumentsValid)
		}

		ev := &scorer.Evaluation{Trajectory: tr, Results: []scorer.Result{{
			Metric: name, Score: 0.5, Label: text, Details: map[string]any{text: score},
		}}}
		buf.Reset()
		if err := enc.Encode(ScoresAt(ev, time.Unix(2, 0))[0]); err != nil {
			t.Fatalf("score record does not encode: %v", err)
		}
		if !json.Valid(buf.Bytes()) {
			t.Fatalf("score record is not valid JSON: %q", buf.Bytes())
		}
	})
}
