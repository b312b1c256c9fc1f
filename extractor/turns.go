package extractor

import (
	"strings"

	"github.com/tidwall/gjson"
)

// mayHoldEarlierTurns reports whether c can hold conversation turns before
// its last user message: any message other than a system or developer
// message before it. It answers from the roles alone, without decoding the
// messages, for the GenAI JSON form; every other form (events, flattened
// attributes, convention parsers, text that is not a plain JSON array)
// answers true and is decoded as usual. A false answer is exact: the
// decoded messages would give no history.
func (c *content) mayHoldEarlierTurns() bool {
	if c == nil {
		return false
	}
	if c.done || c.events != nil || c.attrs != nil || c.parse != nil || c.kind != contentMessages {
		return true
	}
	raw := strings.TrimSpace(c.raw)
	if raw == "" || raw[0] != '[' || !gjson.Valid(raw) {
		return true
	}
	roles := gjson.Get(raw, "#.role")
	if !roles.IsArray() || int64(len(roles.Array())) != gjson.Get(raw, "#").Int() {
		return true // a message without a string role: let the decoder decide
	}
	other := false // a non-system message seen since the start
	hold := false
	for _, r := range roles.Array() {
		if r.Type != gjson.String {
			return true // unusual shape: let the decoder decide
		}
		switch r.Str {
		case "system", "developer":
		case "user":
			hold = other
			other = true
		default:
			other = true
		}
	}
	return hold
}
