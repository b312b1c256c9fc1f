package scorer

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
)

// Params reads a metric's parameters as decoded from YAML. Its methods
// return errors of the form `param "key": ...`, which Registry.Build
// prefixes with the metric id.
type Params map[string]any

// CheckKnown returns an error naming the first parameter (in sorted order)
// that is not in allowed.
func (p Params) CheckKnown(allowed ...string) error {
	for _, k := range slices.Sorted(maps.Keys(p)) {
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
	switch rv := reflect.ValueOf(v); {
	case rv.CanInt() && rv.Int() >= math.MinInt && rv.Int() <= math.MaxInt:
		return int(rv.Int()), nil
	case rv.CanUint() && rv.Uint() <= math.MaxInt:
		return int(rv.Uint()), nil
	case rv.CanInt() || rv.CanUint():
		return 0, fmt.Errorf("param %q: %v out of range", key, v)
	case rv.Kind() == reflect.Float64:
		if n := rv.Float(); n == math.Trunc(n) && n >= math.MinInt && n <= math.MaxInt {
			return int(n), nil
		}
		return 0, fmt.Errorf("param %q: must be an integer, got %v", key, v)
	}
	return 0, fmt.Errorf("param %q: must be an integer, got %T", key, v)
}

// PositiveInt is Int with the value required to lie in [1, max].
func (p Params) PositiveInt(key string, def, max int) (int, error) {
	n, err := p.Int(key, def)
	if err == nil && (n < 1 || n > max) {
		err = ParamRangeError(key, 1, max, n)
	}
	return n, err
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
	switch rv := reflect.ValueOf(v); {
	case rv.CanFloat():
		f = rv.Float()
	case rv.CanInt():
		f = float64(rv.Int())
	case rv.CanUint():
		f = float64(rv.Uint())
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

// Bool reads a boolean parameter, or def when it is absent. YAML
// booleans and the strings "true" and "false" are accepted.
func (p Params) Bool(key string, def bool) (bool, error) {
	switch v := p[key].(type) {
	case nil:
		return def, nil
	case bool:
		return v, nil
	case string:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return false, fmt.Errorf("param %q: must be true or false, got %T", key, p[key])
}
