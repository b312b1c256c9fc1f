// Package jsonobj answers one question several stages ask of recorded tool
// arguments: is this text a single valid JSON object?
package jsonobj

import (
	"encoding/json"
	"strings"
)

// Valid reports whether s, ignoring surrounding JSON whitespace, is exactly
// one valid JSON object, as encoding/json.Valid judges JSON.
func Valid(s string) bool {
	t := strings.TrimLeft(s, " \t\r\n")
	return len(t) > 1 && t[0] == '{' && json.Valid([]byte(t))
}
