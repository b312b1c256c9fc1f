package scorer

import (
	"fmt"
	"math"
)

// textBoolParam reads a boolean parameter, or def when it is absent.
func textBoolParam(p Params, key string, def bool) (bool, error) {
	v, ok := p[key]
	if !ok || v == nil {
		return def, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("param %q: must be true or false, got %T", key, v)
	}
	return b, nil
}

// textStringParam reads a string parameter, or def when it is absent.
func textStringParam(p Params, key, def string) (string, error) {
	v, ok := p[key]
	if !ok || v == nil {
		return def, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("param %q: must be a string, got %T", key, v)
	}
	return s, nil
}

// textFloatParam reads a finite number parameter, or def when it is
// absent. YAML integers are accepted.
func textFloatParam(p Params, key string, def float64) (float64, error) {
	v, ok := p[key]
	if !ok || v == nil {
		return def, nil
	}
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case float32:
		f = float64(n)
	case int:
		f = float64(n)
	case int64:
		f = float64(n)
	case int32:
		f = float64(n)
	case uint64:
		f = float64(n)
	default:
		return 0, fmt.Errorf("param %q: must be a number, got %T", key, v)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("param %q: must be finite, got %v", key, f)
	}
	return f, nil
}
