package record

import "math"

// sanitize returns v with non-finite floats replaced by nil, descending into
// the container types metrics put in Details. Containers are copied, never
// modified in place. Other values are returned unchanged.
func sanitize(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return v // as it is: boxing x again would allocate
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil
		}
		return v
	case []float64:
		out := make([]any, len(x))
		for i, f := range x {
			out[i] = sanitize(f)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = sanitize(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = sanitize(e)
		}
		return out
	case map[string]float64:
		out := make(map[string]any, len(x))
		for k, f := range x {
			out[k] = sanitize(f)
		}
		return out
	default:
		return v
	}
}
