package toolmatch

import "strings"

// Equality is a notion of when two tool calls are the same call.
type Equality uint8

// Equalities of the references.
const (
	// JSONEqual (Vertex AI trajectory metrics): names equal and arguments
	// equal as parsed JSON. Object key order is ignored, numbers compare
	// by value (1, 1.0 and 1e0 are equal), booleans are not numbers, and
	// empty arguments equal {} (Vertex always sends a tool_input object).
	JSONEqual Equality = iota
	// PythonEqual (Google ADK; Ragas ToolCallF1 after mapping empty
	// arguments to {}): names equal and arguments equal under Python's ==
	// on json.loads values: key order ignored, 1 == 1.0, True == 1 and
	// False == 0, "1" != 1. Empty arguments (or JSON null) are None, which
	// is not {}. Floats are compared as the doubles Python parses them to.
	PythonEqual
	// NameOnly compares names only (ADK's ignore_args).
	NameOnly
)

// Key returns a string equal for two calls exactly when they are equal
// under eq. Arguments that are not valid JSON give a key equal only to the
// same raw text (after trimming blanks).
func Key(c Call, eq Equality) string {
	b := make([]byte, 0, len(c.Name)+len(c.Args)+16)
	b = appendString(b, c.Name)
	if eq == NameOnly {
		return string(b)
	}
	return string(appendArgsKey(b, c.Args, eq))
}

// ArgsKey returns the argument part of Key: equal for two argument texts
// exactly when they are equal under eq.
func ArgsKey(args string, eq Equality) string {
	if eq == NameOnly {
		return ""
	}
	return string(appendArgsKey(nil, args, eq))
}

// Keys returns Key of every call.
func Keys(calls []Call, eq Equality) []string {
	keys := make([]string, len(calls))
	for i := range calls {
		keys[i] = Key(calls[i], eq)
	}
	return keys
}

// ExactArgsKey returns a key equal for two argument texts exactly when
// they are equal as encoding/json decodes them with UseNumber: object key
// order is ignored, a repeated key keeps its last value, numbers compare
// by exact decimal value (1, 1.0 and 1e0 are equal, as are -0 and 0;
// integers beyond float64 precision stay distinct; a number whose
// exponent is beyond ±2^60 is compared by its literal text), and booleans
// are not numbers. Text that is not valid JSON, empty text included, gets a key
// equal only to the same raw text; blanks are not trimmed.
// Prepared.ExactArgsKey gives the same key from prepared calls.
func ExactArgsKey(raw string) string {
	v, err := Parse(raw)
	if err != nil {
		return "r" + raw
	}
	w := canon{eq: exactEqual}
	return string(w.value(make([]byte, 0, len(raw)+8), &v))
}

// rawKey appends the key of text that is not compared as JSON: a tag no
// canonical encoding starts with, then the text.
func rawKey(b []byte, text string) []byte {
	b = append(b, 'r')
	return append(b, text...)
}

func appendArgsKey(b []byte, args string, eq Equality) []byte {
	t := strings.TrimSpace(args)
	if t == "" {
		return appendEmptyArgs(b, eq)
	}
	v, err := Parse(t)
	if err != nil {
		return rawKey(b, t)
	}
	w := canon{eq: eq}
	return w.value(b, &v)
}

// appendEmptyArgs appends the key of empty arguments: {} under JSONEqual,
// None under PythonEqual.
func appendEmptyArgs(b []byte, eq Equality) []byte {
	if eq == JSONEqual {
		return append(b, "{}"...)
	}
	return append(b, 'n')
}
