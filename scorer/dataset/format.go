package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// Format is a dataset file format.
type Format int

// Formats. FormatAuto picks one from the file name and content.
const (
	FormatAuto Format = iota
	FormatJSONL
	FormatJSON
	FormatCSV
)

// ParseFormat reads a format name: auto, jsonl, json or csv.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return FormatAuto, nil
	case "jsonl", "ndjson":
		return FormatJSONL, nil
	case "json":
		return FormatJSON, nil
	case "csv":
		return FormatCSV, nil
	}
	return FormatAuto, fmt.Errorf("unknown dataset format %q (want auto, jsonl, json or csv)", s)
}

// MaxFileBytes caps a dataset file read into memory.
const MaxFileBytes = 1 << 30

// Load reads the dataset at path. FormatAuto picks the format from the
// extension (.jsonl/.ndjson, .json, .csv) and, failing that, from the
// first non-blank byte. Errors carry the path.
func Load(path string, format Format) ([]Row, error) {
	rows, bad, err := LoadRows(path, format)
	if err == nil && len(bad) > 0 {
		err = fmt.Errorf("%s: %w", path, bad[0])
	}
	return rows, err
}

// LoadRows reads the dataset at path as Load does, but a bad row does not
// stop it: the rows that read are returned with the errors of the rows
// that did not (each naming its row, and its line when known). err is set
// only when the file as a whole cannot be read.
func LoadRows(path string, format Format) (rows []Row, bad []*Error, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if st.Size() > MaxFileBytes {
		return nil, nil, fmt.Errorf("%s: %d bytes, more than the %d-byte limit", path, st.Size(), MaxFileBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	if format == FormatAuto {
		format = detect(path, data)
	}
	rows, bad, err = ParseRows(data, format)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return rows, bad, nil
}

// detect picks a format from the file name, then the content.
func detect(path string, data []byte) Format {
	if f, err := ParseFormat(strings.TrimPrefix(filepath.Ext(path), ".")); err == nil && f != FormatAuto {
		return f
	}
	t := bytes.TrimLeft(data, " \t\r\n\ufeff")
	switch {
	case len(t) > 0 && t[0] == '[':
		return FormatJSON
	case len(t) > 0 && t[0] == '{':
		return FormatJSONL
	}
	return FormatCSV
}

// ParseRows decodes a dataset held in memory, going past bad rows as
// LoadRows does. FormatAuto is read as JSON lines when the content starts
// with '{', a JSON array when it starts with '[', and CSV otherwise.
// Row.Index is the row's position in the input, bad rows counted.
func ParseRows(data []byte, format Format) (rows []Row, bad []*Error, err error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if format == FormatAuto {
		format = detect("", data)
	}
	var objs []object
	switch format {
	case FormatJSONL:
		objs, err = readJSONL(data)
	case FormatJSON:
		objs, err = readJSONArray(data)
	case FormatCSV:
		objs, err = readCSV(data)
	default:
		return nil, nil, errors.New("unknown dataset format")
	}
	if err != nil {
		return nil, nil, err
	}
	rows = make([]Row, 0, len(objs))
	for i, o := range objs {
		err := o.err
		var in *scorer.Instance
		if err == nil {
			in, err = buildInstance(o)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				e = &Error{Err: err}
			}
			e.Row, e.Line = i, o.line
			bad = append(bad, e)
			continue
		}
		rows = append(rows, Row{Index: i, Columns: o.cols, Instance: in})
	}
	return rows, bad, nil
}
