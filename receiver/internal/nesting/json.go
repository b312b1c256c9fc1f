package nesting

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// jsonItems names, for a JSON request of each root kind, the keys leading
// from the request to its items (spans, log records) in the OTLP/JSON
// encoding, each in its lowerCamelCase and snake_case spellings (the
// decoder accepts both): the items StripJSON may cut out.
var jsonItems = map[Kind][3][2]string{
	TracesRequest: {{"resourceSpans", "resource_spans"}, {"scopeSpans", "scope_spans"}, {"spans", "spans"}},
	LogsRequest:   {{"resourceLogs", "resource_logs"}, {"scopeLogs", "scope_logs"}, {"logRecords", "log_records"}},
}

// field returns the value of m under either spelling of a key, and the
// spelling found.
func field(m map[string]any, names [2]string) (any, string) {
	for _, n := range names {
		if v, ok := m[n]; ok {
			return v, n
		}
	}
	return nil, names[0]
}

// StripJSON is StripProto for an OTLP/JSON body: when the body nests
// deeper than limit (CheckJSON), the spans or log records nesting deeper
// than an item may are cut out, to be rejected as partial success, and the
// rest is encoded again. It returns the body to decode and the number of
// items cut out. A body whose resource or scope nests too deeply, or that
// encoding/json cannot read (malformed, or nested past its own limit of
// 10,000 levels), is refused whole with an error wrapping ErrTooDeep.
func StripJSON(buf []byte, root Kind, limit int) ([]byte, int, error) {
	if CheckJSON(buf, limit) == nil {
		return buf, 0, nil
	}
	keys, ok := jsonItems[root]
	if !ok {
		return nil, 0, ErrTooDeep
	}
	dec := json.NewDecoder(bytes.NewReader(buf))
	dec.UseNumber() // numbers are re-encoded exactly as they came
	var req map[string]any
	if err := dec.Decode(&req); err != nil {
		return nil, 0, fmt.Errorf("%w: %w", ErrTooDeep, err)
	}
	// An item sits 7 levels down: request {, resources [, resource {,
	// scopes [, scope {, items [, item {.
	itemLimit := limit - 6
	cut := 0
	rv, _ := field(req, keys[0])
	for _, r := range objects(rv) {
		sv, _ := field(r, keys[1])
		for _, s := range objects(sv) {
			iv, name := field(s, keys[2])
			items, ok := iv.([]any)
			if !ok {
				continue
			}
			kept := items[:0]
			for _, it := range items {
				if depthOf(it) > itemLimit {
					cut++
					continue
				}
				kept = append(kept, it)
			}
			s[name] = kept
		}
	}
	out, err := json.Marshal(req)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %w", ErrTooDeep, err)
	}
	if CheckJSON(out, limit) != nil { // a resource or scope nests too deeply
		return nil, 0, ErrTooDeep
	}
	return out, cut, nil
}

// objects returns the JSON objects of an array value, skipping others.
func objects(v any) []map[string]any {
	arr, _ := v.([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, e := range arr {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// depthOf is the object and array nesting of a decoded JSON value, as
// CheckJSON counts it: 0 for a scalar. encoding/json bounds the nesting it
// decodes, so the recursion is bounded.
func depthOf(v any) int {
	d := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			d = max(d, depthOf(e))
		}
	case []any:
		for _, e := range x {
			d = max(d, depthOf(e))
		}
	default:
		return 0
	}
	return d + 1
}
