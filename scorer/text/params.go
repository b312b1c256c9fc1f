package text

import (
	"fmt"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// textBoolParam reads a boolean parameter, or def when it is absent.
func textBoolParam(p scorer.Params, key string, def bool) (bool, error) {
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
