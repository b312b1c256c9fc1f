package dataset

import (
	"encoding/json"
	"fmt"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// Row is one input row: its position, the input columns as read (for the
// metrics table) and the Instance built from them.
type Row struct {
	// Index is the 0-based row number.
	Index int
	// Columns are the input columns in input order, values as JSON.
	Columns []Column
	// Instance is the evaluation row the engine scores.
	Instance *scorer.Instance
}

// Column is one named input value, kept as JSON so it can be written back
// unchanged.
type Column struct {
	Name  string
	Value json.RawMessage
}

// Error is a bad cell: it names the row (0-based) and the column; Line is
// the 1-based line of the input when known (JSON lines and CSV), 0
// otherwise.
type Error struct {
	Row    int
	Line   int
	Column string
	Err    error
}

// Error formats the position and the cause.
func (e *Error) Error() string {
	pos := fmt.Sprintf("row %d", e.Row)
	if e.Line > 0 {
		pos += fmt.Sprintf(" (line %d)", e.Line)
	}
	if e.Column != "" {
		pos += fmt.Sprintf(", column %q", e.Column)
	}
	return pos + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }
