package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// The Append methods write a record as one JSON object, byte for byte as
// encoding/json's Encoder with SetEscapeHTML(false) writes it, without
// reflection: the JSON lines exporter's per-run path. A Details value of a
// type not listed in appendAny still goes through encoding/json.

// errNonFinite is returned for a NaN or infinite float, which JSON cannot
// carry (encoding/json fails the same way).
var errNonFinite = errors.New("record: non-finite number")

// AppendJSON appends r as a JSON object.
func (r *TrajectoryRecord) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"trace_id":`...)
	b = appendString(b, r.TraceID)
	b = appendField(b, "span_id", r.SpanID)
	b = appendField(b, "service", r.Service)
	b = appendField(b, "service_version", r.ServiceVersion)
	b = appendField(b, "environment", r.Environment)
	b = appendField(b, "agent", r.Agent)
	b = appendField(b, "session_id", r.SessionID)
	b = appendField(b, "convention", r.Convention)
	b = append(b, `,"start":`...)
	b = r.Start.appendJSON(b)
	b = append(b, `,"end":`...)
	b = r.End.appendJSON(b)
	b = append(b, `,"latency_seconds":`...)
	b, err := appendFloat(b, r.LatencySeconds)
	if err != nil {
		return b, err
	}
	b = append(b, `,"failed":`...)
	b = strconv.AppendBool(b, r.Failed)
	b = appendField(b, "error_type", r.ErrorType)
	b = appendField(b, "input", r.Input)
	b = appendField(b, "output", r.Output)
	b = appendField(b, "instructions", r.Instructions)
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, r.Truncated)
	b = append(b, `,"tool_calls":`...)
	if b, err = appendSlice(b, r.ToolCalls, appendToolCall); err != nil {
		return b, err
	}
	b = append(b, `,"llm_calls":`...)
	if b, err = appendSlice(b, r.LLMCalls, appendLLMCall); err != nil {
		return b, err
	}
	b = append(b, `,"attributes":`...)
	if b, err = appendMap(b, r.Attributes, appendStringValue); err != nil {
		return b, err
	}
	return append(b, '}'), nil
}

func appendToolCall(b []byte, c ToolCallRecord) ([]byte, error) {
	b = append(b, `{"id":`...)
	b = appendString(b, c.ID)
	b = appendField(b, "name", c.Name)
	b = append(b, `,"arguments":`...)
	if c.Arguments == nil {
		b = append(b, "null"...)
	} else {
		n := len(b)
		var err error
		if b, err = appendCompact(b, c.Arguments); err != nil {
			return b[:n], err
		}
	}
	b = append(b, `,"arguments_valid":`...)
	b = strconv.AppendBool(b, c.ArgumentsValid)
	b = appendField(b, "result", c.Result)
	b = appendField(b, "error", c.Error)
	b = append(b, `,"start":`...)
	b = c.Start.appendJSON(b)
	b = append(b, `,"end":`...)
	b = c.End.appendJSON(b)
	b = appendField(b, "span_id", c.SpanID)
	b = appendField(b, "agent", c.Agent)
	return append(b, '}'), nil
}

func appendLLMCall(b []byte, c LLMCallRecord) ([]byte, error) {
	b = append(b, `{"model":`...)
	b = appendString(b, c.Model)
	b = appendField(b, "provider", c.Provider)
	b = append(b, `,"input_tokens":`...)
	b = strconv.AppendInt(b, c.InputTokens, 10)
	b = append(b, `,"output_tokens":`...)
	b = strconv.AppendInt(b, c.OutputTokens, 10)
	b = append(b, `,"start":`...)
	b = c.Start.appendJSON(b)
	b = append(b, `,"end":`...)
	b = c.End.appendJSON(b)
	b = append(b, `,"finish_reasons":`...)
	b, _ = appendSlice(b, c.FinishReasons, appendStringValue)
	return append(b, '}'), nil
}

// AppendJSON appends r as a JSON object.
func (r *ScoreRecord) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"timestamp":`...)
	b = r.Timestamp.appendJSON(b)
	b = appendField(b, "trace_id", r.TraceID)
	b = appendField(b, "span_id", r.SpanID)
	b = appendField(b, "service", r.Service)
	b = appendField(b, "agent", r.Agent)
	b = appendField(b, "session_id", r.SessionID)
	b = appendField(b, "metric", r.Metric)
	b = append(b, `,"score":`...)
	b, err := appendFloat(b, r.Score)
	if err != nil {
		return b, err
	}
	b = appendField(b, "label", r.Label)
	b = appendField(b, "explanation", r.Explanation)
	b = append(b, `,"confidence":`...)
	if b, err = appendFloat(b, r.Confidence); err != nil {
		return b, err
	}
	b = append(b, `,"passed":`...)
	if r.Passed == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendBool(b, *r.Passed)
	}
	b = append(b, `,"details":`...)
	if r.Details == nil {
		b = append(b, "null"...)
	} else if b, err = appendAny(b, r.Details); err != nil {
		return b, err
	}
	b = append(b, `,"judge":`...)
	if r.Judge == nil {
		b = append(b, "null"...)
	} else if b, err = r.Judge.appendJSON(b); err != nil {
		return b, err
	}
	if r.Scope != "" {
		b = appendField(b, "scope", r.Scope)
	}
	return append(b, '}'), nil
}

func (j *JudgeRecord) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"judge":`...)
	b = appendString(b, j.Judge)
	b = appendField(b, "provider", j.Provider)
	b = appendField(b, "model", j.Model)
	b = append(b, `,"input_tokens":`...)
	b = strconv.AppendInt(b, j.InputTokens, 10)
	b = append(b, `,"output_tokens":`...)
	b = strconv.AppendInt(b, j.OutputTokens, 10)
	b = append(b, `,"cost_usd":`...)
	b, err := appendFloat(b, j.CostUSD)
	if err != nil {
		return b, err
	}
	b = append(b, `,"latency_seconds":`...)
	if b, err = appendFloat(b, j.LatencySeconds); err != nil {
		return b, err
	}
	b = append(b, `,"calls":`...)
	b = strconv.AppendInt(b, int64(j.Calls), 10)
	b = append(b, `,"attempts":`...)
	b = strconv.AppendInt(b, int64(j.Attempts), 10)
	b = append(b, `,"cached":`...)
	b = strconv.AppendBool(b, j.Cached)
	return append(b, '}'), nil
}

// AppendJSON appends r as a JSON object.
func (r *DecisionRecord) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"timestamp":`...)
	b = r.Timestamp.appendJSON(b)
	b = appendField(b, "trace_id", r.TraceID)
	b = appendField(b, "span_id", r.SpanID)
	b = appendField(b, "service", r.Service)
	b = appendField(b, "agent", r.Agent)
	b = appendField(b, "session_id", r.SessionID)
	b = appendField(b, "metric", r.Metric)
	b = appendField(b, "judge", r.Judge)
	b = appendField(b, "outcome", r.Outcome)
	b = appendField(b, "reason", r.Reason)
	return append(b, '}'), nil
}

func (t Time) appendJSON(b []byte) []byte {
	if t.IsZero() {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = AppendTime(b, t.Time)
	return append(b, '"')
}

// appendField appends ,"key":"value" for a key that needs no escaping.
func appendField(b []byte, key, value string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendString(b, value)
}

const hexDigits = "0123456789abcdef"

// appendString appends s quoted as encoding/json does without HTML
// escaping: control characters, quote and backslash escaped, U+2028 and
// U+2029 as \u escapes, invalid UTF-8 as U+FFFD.
func appendString(b []byte, s string) []byte { return appendStringEscaped(b, s, false) }

// appendStringEscaped is appendString that, with html set, also escapes
// <, > and & as json.Marshal does.
func appendStringEscaped(b []byte, s string, html bool) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!html || c != '<' && c != '>' && c != '&') {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendFloat appends f as encoding/json formats a float64.
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, errNonFinite
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9, as encoding/json does
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// appendAny appends the values metrics put in Details; other types go
// through encoding/json.
func appendAny(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendString(b, x), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case float64:
		return appendFloat(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case []any:
		return appendSlice(b, x, appendAny)
	case []map[string]any:
		return appendSlice(b, x, appendAnyMap)
	case []string:
		return appendSlice(b, x, appendStringValue)
	case []float64:
		return appendSlice(b, x, appendFloat)
	case map[string]any:
		return appendMap(b, x, appendAny)
	case map[string]float64:
		return appendMap(b, x, appendFloat)
	case map[string]string:
		return appendMap(b, x, appendStringValue)
	case []verdictRecord:
		return appendSlice(b, x, appendVerdict)
	}
	return appendEncoded(b, v)
}

// appendEncoded appends v as encoding/json's Encoder writes it without
// HTML escaping: records written once per conversation or judgement, and
// detail values of types appendAny does not list.
func appendEncoded(b []byte, v any) ([]byte, error) {
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return b, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

func appendVerdict(b []byte, v verdictRecord) ([]byte, error) {
	b = append(b, `{"pass":`...)
	b = strconv.AppendBool(b, v.Pass)
	b = appendField(b, "reason", v.Reason)
	b = appendField(b, "rubric", v.Rubric)
	return append(b, '}'), nil
}

func appendAnyMap(b []byte, m map[string]any) ([]byte, error) { return appendMap(b, m, appendAny) }

func appendStringValue(b []byte, s string) ([]byte, error) { return appendString(b, s), nil }

// appendSlice appends s as an array of elements appended by appendElem.
func appendSlice[T any](b []byte, s []T, appendElem func([]byte, T) ([]byte, error)) ([]byte, error) {
	if s == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i := range s {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendElem(b, s[i]); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// appendMap appends m with its keys sorted, as encoding/json does, and
// its values appended by appendValue.
func appendMap[V any](b []byte, m map[string]V, appendValue func([]byte, V) ([]byte, error)) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	var buf [16]string
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		var err error
		if b, err = appendValue(b, m[k]); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// appendCompact appends raw JSON with insignificant space removed, as
// encoding/json writes a RawMessage.
func appendCompact(b []byte, raw []byte) ([]byte, error) {
	buf := bytes.NewBuffer(b)
	if err := json.Compact(buf, raw); err != nil {
		return b, err
	}
	return buf.Bytes(), nil
}
