package scorer

import (
	"github.com/evalsidecar/evalsidecar/internal/jsonobj"
	"github.com/evalsidecar/evalsidecar/scorer/toolmatch"
)

// parseJSON decodes s as encoding/json would decode it into an `any` with
// UseNumber: objects as map[string]any, arrays as []any, numbers as
// json.Number. It accepts exactly what json.Valid accepts.
func parseJSON(s string) (any, error) {
	v, err := toolmatch.Parse(s)
	if err != nil {
		return nil, err
	}
	return v.Any(), nil
}

// isJSONObject reports whether s is one valid JSON object.
func isJSONObject(s string) bool { return jsonobj.Valid(s) }

// argsKey returns a key that is equal for two argument texts exactly when
// they are equal as parsed JSON: object key order is ignored and numbers
// compare by exact decimal value (1, 1.0 and 1e0 are equal). Text that is
// not valid JSON gets a key equal only to the same raw text.
func argsKey(raw string) string { return toolmatch.ExactArgsKey(raw) }
