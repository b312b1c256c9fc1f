package runhealth

import (
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/evalsidecar/evalsidecar/internal/jsonobj"
)

// parseJSON decodes s as encoding/json decodes one document into an `any`
// with UseNumber: objects as map[string]any, arrays as []any, numbers as
// json.Number. Anything but blanks after the value is an error.
func parseJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: data after the top-level value")
	}
	return v, nil
}

// isJSONObject reports whether s is one valid JSON object.
func isJSONObject(s string) bool { return jsonobj.Valid(s) }
