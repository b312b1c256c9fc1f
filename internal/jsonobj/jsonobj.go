// Package jsonobj answers one question many stages ask of recorded tool
// arguments: is this text a single valid JSON object? It validates without
// allocating (github.com/tidwall/gjson) and agrees with encoding/json.Valid.
package jsonobj

import (
	"strings"

	"github.com/tidwall/gjson"
)

// Valid reports whether s, ignoring surrounding JSON whitespace, is exactly
// one valid JSON object.
func Valid(s string) bool {
	t := strings.TrimLeft(s, " \t\r\n")
	return len(t) > 1 && t[0] == '{' && gjson.Valid(t)
}
