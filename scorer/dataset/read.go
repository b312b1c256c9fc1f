package dataset

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxDepth bounds the nesting of a JSON value in a dataset cell.
const maxDepth = 256

// object is one decoded row before interpretation: its columns in input
// order and the 1-based line it started on (0 when unknown).
type object struct {
	cols []Column
	line int
	err  error // the row could not be decoded; cols is nil
}

// get returns the column named name, or nil when absent or null.
func (o object) get(name string) json.RawMessage {
	for _, c := range o.cols {
		if c.Name == name {
			if isNull(c.Value) {
				return nil
			}
			return c.Value
		}
	}
	return nil
}

// isNull reports whether v is absent or JSON null.
func isNull(v json.RawMessage) bool {
	t := bytes.TrimSpace(v)
	return len(t) == 0 || string(t) == "null"
}

// readJSONL decodes one JSON object per non-blank line.
func readJSONL(data []byte) ([]object, error) {
	var out []object
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), MaxFileBytes)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		cols, err := decodeObject(b)
		out = append(out, object{cols: cols, line: line, err: err})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	return out, nil
}

// readJSONArray decodes a JSON array of objects.
func readJSONArray(data []byte) ([]object, error) {
	if err := checkDepth(data); err != nil {
		return nil, err
	}
	t := bytes.TrimSpace(data)
	if len(t) > 0 && t[0] == '{' {
		if looksLikeEvalSet(t) {
			return nil, errors.New("this is an ADK eval set, not a dataset: pass it with --evalset and the runs with --traces")
		}
		return nil, errors.New("a JSON dataset must be an array of row objects (or use JSON lines)")
	}
	var items []json.RawMessage
	if err := json.Unmarshal(t, &items); err != nil {
		return nil, fmt.Errorf("a JSON dataset must be an array of row objects: %w", err)
	}
	out := make([]object, 0, len(items))
	for _, it := range items {
		cols, err := decodeObject(it)
		out = append(out, object{cols: cols, err: err})
	}
	return out, nil
}

// decodeObject decodes a JSON object keeping its keys in order. A key
// given twice is an error.
func decodeObject(b []byte) ([]Column, error) {
	if err := checkDepth(b); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("a row must be a JSON object")
	}
	var cols []Column
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("invalid JSON: %w", err)
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, &Error{Column: key, Err: fmt.Errorf("invalid JSON: %w", err)}
		}
		if seen[key] {
			return nil, &Error{Column: key, Err: errors.New("column given twice")}
		}
		seen[key] = true
		cols = append(cols, Column{Name: key, Value: v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: data after the row object")
	}
	return cols, nil
}

// checkDepth rejects JSON nested deeper than maxDepth before decoding.
func checkDepth(b []byte) error {
	depth := 0
	inStr, esc := false, false
	for _, c := range b {
		switch {
		case esc:
			esc = false
		case inStr:
			switch c {
			case '\\':
				esc = true
			case '"':
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			depth++
			if depth > maxDepth {
				return fmt.Errorf("JSON nested deeper than %d levels", maxDepth)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}

// readCSV decodes a CSV file with a header row (a first column without
// a name, the index pandas writes, is skipped). Every cell becomes a JSON
// value: an empty cell is null (the column is absent for that row), a
// cell holding a JSON object, array, number or boolean is that value, and
// anything else is a string.
func readCSV(data []byte) ([]object, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = 0
	r.ReuseRecord = false
	header, err := r.Read()
	if err == io.EOF {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("csv header: %w", err)
	}
	// pandas writes its index as a first column without a name: skip it
	skip := 0
	if len(header) > 1 && strings.TrimSpace(header[0]) == "" {
		skip = 1
	}
	header = header[skip:]
	seen := map[string]bool{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		if h == "" {
			return nil, fmt.Errorf("csv header: column %d has no name", i+1)
		}
		if seen[h] {
			return nil, fmt.Errorf("csv header: column %q given twice", h)
		}
		seen[h] = true
		header[i] = h
	}
	var out []object
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			line := 0
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.StartLine
				if errors.Is(pe.Err, csv.ErrFieldCount) {
					// the record is read; the run goes on with the next
					out = append(out, object{line: line, err: err})
					continue
				}
			}
			return nil, &Error{Row: len(out), Line: line, Err: err}
		}
		line, _ := r.FieldPos(0)
		o := object{line: line, cols: make([]Column, len(header))}
		for i, cell := range rec[skip:] {
			v, err := csvCell(cell)
			if err != nil {
				o = object{line: line, err: &Error{Column: header[i], Err: err}}
				break
			}
			o.cols[i] = Column{Name: header[i], Value: v}
		}
		out = append(out, o)
	}
	return out, nil
}

// csvCell turns one CSV cell into a JSON value.
func csvCell(cell string) (json.RawMessage, error) {
	t := strings.TrimSpace(cell)
	switch {
	case t == "":
		return json.RawMessage("null"), nil
	case t[0] == '{' || t[0] == '[':
		if err := checkDepth([]byte(t)); err != nil {
			return nil, err
		}
		if json.Valid([]byte(t)) {
			return json.RawMessage(t), nil
		}
		// pandas writes list and dict cells as Python literals
		v, err := pyLiteral(t)
		if err != nil {
			return nil, fmt.Errorf("cell starts like JSON but is not valid JSON (nor a Python literal as pandas writes one): %w", err)
		}
		return v, nil
	case t == "true" || t == "false":
		return json.RawMessage(t), nil
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil && json.Valid([]byte(t)) {
		return json.RawMessage(t), nil
	}
	b, err := json.Marshal(cell)
	if err != nil {
		return nil, err
	}
	return b, nil
}
