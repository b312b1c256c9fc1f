package scorer

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Params reads a metric's parameters as decoded from YAML. Its methods
// return errors of the form `param "key": ...`, which Registry.Build
// prefixes with the metric id.
type Params map[string]any

// CheckKnown returns an error naming the first parameter (in sorted order)
// that is not in allowed.
func (p Params) CheckKnown(allowed ...string) error {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(allowed, k) {
			if len(allowed) == 0 {
				return fmt.Errorf("param %q: unknown parameter (this metric takes none)", k)
			}
			return fmt.Errorf("param %q: unknown parameter (allowed: %s)", k, strings.Join(allowed, ", "))
		}
	}
	return nil
}

// Int returns the integer parameter key, or def when it is absent. YAML
// integers, and floats with an integral value, are accepted.
func (p Params) Int(key string, def int) (int, error) {
	v, ok := p[key]
	if !ok || v == nil {
		return def, nil
	}
	switch n := v.(type) {
	case int:
		return n, nil
	case int8:
		return int(n), nil
	case int16:
		return int(n), nil
	case int32:
		return int(n), nil
	case int64:
		if n < math.MinInt || n > math.MaxInt {
			return 0, fmt.Errorf("param %q: %d out of range", key, n)
		}
		return int(n), nil
	case uint:
		if n > math.MaxInt {
			return 0, fmt.Errorf("param %q: %d out of range", key, n)
		}
		return int(n), nil
	case uint8:
		return int(n), nil
	case uint16:
		return int(n), nil
	case uint32:
		return int(n), nil
	case uint64:
		if n > math.MaxInt {
			return 0, fmt.Errorf("param %q: %d out of range", key, n)
		}
		return int(n), nil
	case float64:
		if n != math.Trunc(n) || n < math.MinInt || n > math.MaxInt {
			return 0, fmt.Errorf("param %q: must be an integer, got %v", key, n)
		}
		return int(n), nil
	}
	return 0, fmt.Errorf("param %q: must be an integer, got %T", key, v)
}

// PositiveInt is Int with the value required to lie in [1, max].
func (p Params) PositiveInt(key string, def, max int) (int, error) {
	n, err := p.Int(key, def)
	if err != nil {
		return 0, err
	}
	if n < 1 || n > max {
		return 0, fmt.Errorf("param %q: must be between 1 and %d, got %d", key, max, n)
	}
	return n, nil
}

// ParamRangeError reports an integer parameter outside [lo, hi].
func ParamRangeError(key string, lo, hi, got int) error {
	return fmt.Errorf("param %q: must be between %d and %d, got %d", key, lo, hi, got)
}

// Float reads a number parameter in [lo, hi], or def when it is absent.
// YAML integers are accepted; NaN and infinities are not.
func (p Params) Float(key string, def, lo, hi float64) (float64, error) {
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
	if math.IsNaN(f) || f < lo || f > hi {
		return 0, fmt.Errorf("param %q: must be between %g and %g, got %v", key, lo, hi, v)
	}
	return f, nil
}

// String reads a string parameter, or def when it is absent.
func (p Params) String(key, def string) (string, error) {
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

// Bool reads a boolean parameter, or def when it is absent.
func (p Params) Bool(key string, def bool) (bool, error) {
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
