// Package loadgen replays recorded agent runs against an OTLP endpoint: each
// replay gets fresh trace ids, its spans are cut into requests of a chosen
// size and interleaved with the spans of many other runs in flight, at a
// fixed rate or as fast as the endpoint accepts. It reports what it sent and
// what the endpoint acknowledged, run by run, so a test can check that every
// acknowledged run came out the other end exactly once.
package loadgen

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// Capture is one recorded agent run: every span its agent exported, in the
// order the agent sent them.
type Capture struct {
	Name  string        // the capture directory, relative to its root
	Spans ptrace.Traces // all of its requests, merged
	Count int           // spans
}

// LoadCaptures reads every capture below the roots: directories holding a
// ground_truth.json and OTLP export requests named payload-*.pb (protobuf)
// or payload-*.json (OTLP/JSON).
func LoadCaptures(roots ...string) ([]Capture, error) {
	var out []Capture
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() != "ground_truth.json" {
				return err
			}
			c, err := loadCapture(filepath.Dir(path))
			if err != nil {
				return err
			}
			c.Name, _ = filepath.Rel(root, filepath.Dir(path))
			out = append(out, c)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no captures below %s", strings.Join(roots, ", "))
	}
	return out, nil
}

// loadCapture merges the payloads of one capture directory.
func loadCapture(dir string) (Capture, error) {
	files, err := filepath.Glob(filepath.Join(dir, "payload-*"))
	if err != nil {
		return Capture{}, err
	}
	sort.Strings(files)
	c := Capture{Spans: ptrace.NewTraces()}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return Capture{}, err
		}
		req := ptraceotlp.NewExportRequest()
		switch filepath.Ext(f) {
		case ".pb":
			err = req.UnmarshalProto(raw)
		case ".json":
			err = req.UnmarshalJSON(raw)
		default:
			continue
		}
		if err != nil {
			return Capture{}, fmt.Errorf("%s: %w", f, err)
		}
		req.Traces().ResourceSpans().MoveAndAppendTo(c.Spans.ResourceSpans())
	}
	c.Count = c.Spans.SpanCount()
	if c.Count == 0 {
		return Capture{}, errors.New(dir + ": no spans")
	}
	return c, nil
}
