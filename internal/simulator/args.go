package simulator

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Invalid argument kinds, as reported in Call.InvalidArguments.
const (
	InvalidJSON   = "json"
	InvalidSchema = "schema"
)

// breakArgs turns valid arguments into invalid ones: text that is not JSON,
// or a JSON object that violates the tool's schema (a required property
// missing, or a property of the wrong type). It returns the kind, the new
// argument text, and the error.type and message the tool answers with.
func breakArgs(rng *rand.Rand, tool *toolSpec, args string) (kind, broken, errType, msg string) {
	if rng.IntN(3) == 0 {
		if rng.IntN(2) == 0 {
			// Cut off: the model stopped in the middle of the object.
			broken = args[:len(args)-1]
		} else {
			// Python-style quotes, a classic of weaker models.
			broken = strings.ReplaceAll(args, `"`, `'`)
		}
		return InvalidJSON, broken, "JSONDecodeError", "arguments are not valid JSON"
	}
	var obj map[string]any
	var schema struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal([]byte(args), &obj) != nil || json.Unmarshal([]byte(tool.Parameters), &schema) != nil || len(schema.Required) == 0 {
		return InvalidJSON, args[:len(args)-1], "JSONDecodeError", "arguments are not valid JSON"
	}
	req := schema.Required[rng.IntN(len(schema.Required))]
	if rng.IntN(2) == 0 {
		delete(obj, req)
		msg = fmt.Sprintf("missing required argument %q", req)
	} else {
		want := schema.Properties[req].Type
		obj[req] = wrongType(want, obj[req])
		msg = fmt.Sprintf("argument %q must be of type %s", req, want)
	}
	// encoding/json sorts map keys, so the text is deterministic.
	b, err := json.Marshal(obj)
	if err != nil {
		return InvalidJSON, args[:len(args)-1], "JSONDecodeError", "arguments are not valid JSON"
	}
	return InvalidSchema, string(b), "ValidationError", msg
}

// wrongType returns a value of a type other than want that a model might
// plausibly produce.
func wrongType(want string, v any) any {
	switch want {
	case "string":
		return 1042
	case "number", "integer":
		return fmt.Sprint(v)
	case "boolean":
		return "yes"
	case "array":
		return jsonText(v)
	default:
		return []any{v}
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
