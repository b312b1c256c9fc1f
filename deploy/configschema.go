package deploy

import (
	"reflect"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/config"
)

// envRefSchema accepts a ${env:NAME} reference where a number, boolean or
// duration is expected: the sidecar expands it before decoding.
var envRefSchema = map[string]any{"type": "string", "pattern": `^\$\{env:[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}$`}

// ConfigSchema is the JSON schema (draft-07) of the sidecar configuration,
// derived from the Go types the sidecar decodes it into: every block is an
// object that allows only its own keys, so a misspelt key fails at
// `helm template` as it would at start. The chart's values.schema.json
// holds it under properties.config (`go test ./deploy -run ConfigSchema
// -update` rewrites it).
func ConfigSchema() map[string]any {
	s := schemaOf(reflect.TypeOf(config.Config{}))
	s["description"] = "Sidecar configuration merged over the chart defaults (config.example.yaml lists every key)."
	return s
}

func schemaOf(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	scalar := func(typ string) map[string]any {
		return map[string]any{"anyOf": []any{map[string]any{"type": typ}, envRefSchema}}
	}
	if fields := config.YAMLFields(t); fields != nil { // a block: only its own keys
		props := map[string]any{}
		for name, ft := range fields {
			props[name] = schemaOf(ft)
		}
		return map[string]any{"type": []any{"object", "null"}, "additionalProperties": false, "properties": props}
	}
	switch t.Kind() {
	case reflect.Map:
		return map[string]any{"type": []any{"object", "null"}, "additionalProperties": schemaOf(t.Elem())}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": []any{"array", "null"}, "items": schemaOf(t.Elem())}
	case reflect.String: // the sidecar reads any scalar into a string
		return map[string]any{"type": []any{"string", "number", "boolean"}}
	case reflect.Bool:
		return scalar("boolean")
	case reflect.Float32, reflect.Float64:
		return scalar("number")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if t == reflect.TypeOf(time.Duration(0)) {
			// "1m30s" as time.ParseDuration reads it (the decoder refuses
			// bare numbers for durations).
			return map[string]any{"anyOf": []any{
				map[string]any{"type": "string", "pattern": `^(-?([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+$|^0$`},
				envRefSchema}}
		}
		return scalar("integer")
	default: // interface{}: metric params and the like
		return map[string]any{}
	}
}
