package record

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/exporter/internal/exportertest"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// jsonAppender is a record with an AppendJSON method.
type jsonAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// checkSameAsEncodingJSON compares r's AppendJSON with encoding/json's
// Encoder (SetEscapeHTML(false)), the oracle: same bytes, or both fail.
func checkSameAsEncodingJSON(t *testing.T, r jsonAppender) {
	t.Helper()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	werr := enc.Encode(r)
	got, gerr := r.AppendJSON(nil)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("encoding/json error %v, AppendJSON error %v", werr, gerr)
	}
	if werr == nil && !bytes.Equal(got, bytes.TrimSuffix(want.Bytes(), []byte{'\n'})) {
		t.Fatalf("AppendJSON differs from encoding/json:\n got %s\nwant %s", got, want.Bytes())
	}
}

// odd holds text and numbers encoding/json treats specially.
var (
	oddTexts  = []string{"", "plain", "q\"uote\\back", "ctl\x00\x01\x1f\b\f\n\r\t", "\u2028\u2029", "bad\xff\xfeutf8\xc3", "<tag> & é 服"}
	oddFloats = []float64{0, math.Copysign(0, -1), 1, -1.5, 1e-7, 1e-6, 123456789, 1e20, 1e21, 1e-300, math.MaxFloat64, math.SmallestNonzeroFloat64, 0.1 + 0.2}
)

// TestAppendJSONMatchesEncodingJSON encodes every fixture evaluation's
// records and records built from odd text, numbers and detail values.
func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	for _, e := range exportertest.Evaluations(t) {
		if e.Trajectory != nil {
			tr := Trajectory(e.Trajectory)
			checkSameAsEncodingJSON(t, &tr)
		}
		for _, s := range ScoresAt(&e, scoredAt) {
			checkSameAsEncodingJSON(t, &s)
		}
		for _, d := range DecisionsAt(&e, scoredAt) {
			checkSameAsEncodingJSON(t, &d)
		}
	}
	type opaque struct{ A string }
	details := []map[string]any{
		nil, {}, {"s": "<x>", "f": 1e-9, "i": 3, "i64": int64(-4), "b": true, "n": nil},
		{"list": []any{1.5, "a", []any{}, map[string]any{"z": 1.0, "a": "\u2028"}}},
		{"struct": opaque{A: "<&>"}, "f32": float32(0.1), "u": uint8(7), "strs": []string{"a", "b"}},
		{"bad": math.NaN()}, {"inf": []any{math.Inf(1)}},
	}
	for _, txt := range oddTexts {
		for _, f := range oddFloats {
			tr := Trajectory(&agentrun.Trajectory{
				TraceID: txt, Agent: txt, Output: txt, Start: time.Unix(1, 5), End: time.Unix(2, 0),
				ToolCalls:  []agentrun.ToolCall{{Name: txt, Arguments: `{ "a" : [1, 2 ] }`, ArgumentsValid: true}, {Arguments: txt}},
				LLMCalls:   []agentrun.LLMCall{{Model: txt, FinishReasons: []string{txt}}, {}},
				Attributes: map[string]string{txt: txt, "b": "2", "a": "1"},
			})
			tr.LatencySeconds = f
			checkSameAsEncodingJSON(t, &tr)
			for i, d := range details {
				passed := i%2 == 0
				s := ScoreRecord{Metric: txt, Score: f, Confidence: -f, Details: d,
					Judge: &JudgeRecord{Model: txt, CostUSD: f, LatencySeconds: f / 3, Cached: passed}}
				checkSameAsEncodingJSON(t, &s)
				s.Passed, s.Scope, s.SessionID = &passed, ScopeSession, txt
				checkSameAsEncodingJSON(t, &s)
			}
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(-1)} {
		checkSameAsEncodingJSON(t, &ScoreRecord{Score: f})
		tr := TrajectoryRecord{LatencySeconds: f}
		checkSameAsEncodingJSON(t, &tr)
	}
	bad := TrajectoryRecord{ToolCalls: []ToolCallRecord{{Arguments: json.RawMessage(`{"a":`)}}}
	checkSameAsEncodingJSON(t, &bad)
}

// FuzzAppendJSON compares AppendJSON with encoding/json on arbitrary text
// and numbers.
func FuzzAppendJSON(f *testing.F) {
	for i, s := range oddTexts {
		f.Add(s, oddFloats[i], `{"a":1}`)
	}
	f.Fuzz(func(t *testing.T, text string, x float64, args string) {
		tr := Trajectory(&agentrun.Trajectory{
			TraceID: text, Input: text, Instructions: text,
			ToolCalls:  []agentrun.ToolCall{{Name: text, Arguments: args, ArgumentsValid: true, Result: text}},
			Attributes: map[string]string{text: text},
		})
		tr.LatencySeconds = x
		checkSameAsEncodingJSON(t, &tr)
		if got, want := appendStringEscaped(nil, args, true), must(json.Marshal(args)); !bytes.Equal(got, want) {
			t.Fatalf("arguments as a string: %s, json.Marshal: %s", got, want)
		}
		e := scorer.Evaluation{Results: []scorer.Result{{Metric: text, Score: x, Label: text,
			Details: map[string]any{text: x, "list": []any{text, x}}}}}
		for _, s := range ScoresAt(&e, scoredAt) {
			checkSameAsEncodingJSON(t, &s)
		}
	})
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
