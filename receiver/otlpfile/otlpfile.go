// Package otlpfile reads captured OTLP requests from files, for replaying
// them through the pipeline: ".pb" holds one protobuf
// ExportTraceServiceRequest, ".json" one OTLP/JSON traces or logs request,
// and ".jsonl" one OTLP/JSON request per line, as the Collector's file
// exporter writes them.
package otlpfile

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/evalsidecar/evalsidecar/receiver/internal/nesting"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// MaxLineBytes caps one line of a ".jsonl" file.
const MaxLineBytes = 64 << 20

// decodeDepth bounds attribute nesting before decoding, as the receiver does.
const decodeDepth = 128

// Signal tells which field of an Item is set.
type Signal int

// Signals.
const (
	SignalTraces Signal = iota + 1
	SignalLogs
)

// Item is one decoded request.
type Item struct {
	// Source is the file the request came from.
	Source string
	// Line is the 1-based line in a ".jsonl" file, 0 for whole files.
	Line int
	// Signal says whether Traces or Logs holds the data.
	Signal Signal
	// Traces is set when Signal is SignalTraces.
	Traces ptrace.Traces
	// Logs is set when Signal is SignalLogs.
	Logs plog.Logs
}

// Position renders Source and Line for messages ("a.jsonl:3").
func (it Item) Position() string {
	if it.Line > 0 {
		return fmt.Sprintf("%s:%d", it.Source, it.Line)
	}
	return it.Source
}

// Read decodes every request in paths and calls fn for each, in order.
// A path may be a file or a directory; directories are walked in lexical
// order and only their .pb, .json and .jsonl files are read, while a file
// named directly must have one of those extensions. In a directory, a
// file that is not OTLP (another extension, or a file whose first request
// does not decode: a ground truth or an eval set beside the captures) is
// skipped and passed to skipped with the reason, when skipped is not nil.
// Reading stops at the first other error, which names the file (and
// line); an error from fn is returned as is.
func Read(ctx context.Context, paths []string, fn func(Item) error, skipped func(path string, reason error)) error {
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return err
		}
		if !info.IsDir() {
			if err := readFile(ctx, p, fn); err != nil {
				return err
			}
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return nil
			}
			if !supported(path) {
				if skipped != nil {
					skipped(path, fmt.Errorf("not an OTLP file extension (want .pb, .json or .jsonl)"))
				}
				return nil
			}
			delivered := false
			err = readFile(ctx, path, func(it Item) error {
				delivered = true
				return fn(it)
			})
			var de decodeError
			if err != nil && !delivered && errors.As(err, &de) {
				if skipped != nil {
					skipped(path, de.err)
				}
				return nil
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func supported(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".pb", ".json", ".jsonl":
		return true
	}
	return false
}

// decodeError marks a request that does not decode as OTLP.
type decodeError struct{ err error }

func (e decodeError) Error() string { return e.err.Error() }
func (e decodeError) Unwrap() error { return e.err }

func readFile(ctx context.Context, path string, fn func(Item) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ext := strings.ToLower(filepath.Ext(path))
	if !supported(path) {
		return fmt.Errorf("%s: unsupported file extension %q (want .pb, .json or .jsonl)", path, ext)
	}
	if ext == ".jsonl" {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		return ReadLines(ctx, f, path, fn)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	it := Item{Signal: SignalTraces}
	if ext == ".pb" {
		it.Traces, err = DecodeProto(b)
	} else {
		it, err = DecodeJSON(b)
	}
	if err != nil {
		return decodeError{fmt.Errorf("%s: %w", path, err)}
	}
	it.Source = path
	return fn(it)
}

// ReadLines decodes one OTLP/JSON request per line of r; blank lines are
// skipped. source names r in errors and Items.
func ReadLines(ctx context.Context, r io.Reader, source string, fn func(Item) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineBytes)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		it, err := DecodeJSON(b)
		if err != nil {
			return decodeError{fmt.Errorf("%s:%d: %w", source, line, err)}
		}
		it.Source, it.Line = source, line
		if err := fn(it); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", source, line+1, err)
	}
	return nil
}

// DecodeProto decodes one protobuf ExportTraceServiceRequest.
func DecodeProto(b []byte) (ptrace.Traces, error) {
	if err := nesting.CheckProto(b, nesting.TracesRequest, decodeDepth); err != nil {
		return ptrace.Traces{}, err
	}
	req := ptraceotlp.NewExportRequest()
	if err := req.UnmarshalProto(b); err != nil {
		return ptrace.Traces{}, fmt.Errorf("decode protobuf traces request: %w", err)
	}
	return req.Traces(), nil
}

// DecodeJSON decodes one OTLP/JSON request, telling traces from logs by its
// top-level "resourceSpans" or "resourceLogs" key. Source and Line are left
// empty.
func DecodeJSON(b []byte) (Item, error) {
	signal, err := detect(b)
	if err != nil {
		return Item{}, err
	}
	if err := nesting.CheckJSON(b, nesting.JSONLimit(decodeDepth)); err != nil {
		return Item{}, err
	}
	if signal == SignalLogs {
		req := plogotlp.NewExportRequest()
		if err := req.UnmarshalJSON(b); err != nil {
			return Item{}, fmt.Errorf("decode JSON logs request: %w", err)
		}
		return Item{Signal: SignalLogs, Logs: req.Logs()}, nil
	}
	req := ptraceotlp.NewExportRequest()
	if err := req.UnmarshalJSON(b); err != nil {
		return Item{}, fmt.Errorf("decode JSON traces request: %w", err)
	}
	return Item{Signal: SignalTraces, Traces: req.Traces()}, nil
}

// detect reads only the top-level keys.
func detect(b []byte) (Signal, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return 0, fmt.Errorf("not a JSON object: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return 0, errors.New("not a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return 0, fmt.Errorf("invalid JSON: %w", err)
		}
		key, _ := tok.(string)
		switch key {
		case "resourceSpans", "resource_spans":
			return SignalTraces, nil
		case "resourceLogs", "resource_logs":
			return SignalLogs, nil
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return 0, fmt.Errorf("invalid JSON: %w", err)
		}
	}
	return 0, errors.New(`neither "resourceSpans" nor "resourceLogs" found at the top level`)
}
