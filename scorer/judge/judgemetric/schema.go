package judgemetric

import "github.com/evalsidecar/evalsidecar/scorer/judge"

// ObjectSchema is the structured-output schema name of Object(props...).
func ObjectSchema(name string, props ...any) *judge.Schema {
	return &judge.Schema{Name: name, JSON: Object(props...)}
}

// Object is the JSON schema of an object whose properties, given as
// name, schema pairs, are all required, in that order, and no other is
// allowed.
func Object(props ...any) map[string]any {
	ps := make(map[string]any, len(props)/2)
	req := make([]any, 0, len(props)/2)
	for i := 0; i+1 < len(props); i += 2 {
		ps[props[i].(string)] = props[i+1]
		req = append(req, props[i])
	}
	return map[string]any{"type": "object", "properties": ps, "required": req, "additionalProperties": false}
}

// Array is the JSON schema of an array of items.
func Array(items map[string]any) map[string]any {
	return map[string]any{"type": "array", "items": items}
}

// Type is the JSON schema of a value of JSON type t; with enum, one of
// those values.
func Type(t string, enum ...any) map[string]any {
	if len(enum) > 0 {
		return map[string]any{"type": t, "enum": enum}
	}
	return map[string]any{"type": t}
}
