package offline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// resumed is a row finished by an earlier run: its line of
// metrics_table.jsonl and the evaluation the summary counts.
type resumed struct {
	line []byte
	ev   *scorer.Evaluation
}

// readDone reads dir's metrics_table.jsonl and returns its finished rows
// by row index: rows where no metric of names failed. A row with a
// failed metric, or one the file does not score for every metric of
// names, is evaluated again. A missing file resumes nothing.
func readDone(dir string, names []string) (map[int]resumed, error) {
	path := filepath.Join(dir, "metrics_table.jsonl")
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[int]resumed{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<30)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", path, n, err)
		}
		var row int
		if err := json.Unmarshal(m["row"], &row); err != nil {
			return nil, fmt.Errorf("%s: line %d: no row number", path, n)
		}
		ev, ok := evaluationOf(m, names)
		if ok {
			out[row] = resumed{line: bytes.Clone(line), ev: ev}
		}
	}
	return out, sc.Err()
}

// evaluationOf rebuilds what the summary needs from a table line; false
// when a metric failed or is missing.
func evaluationOf(m map[string]json.RawMessage, names []string) (*scorer.Evaluation, bool) {
	ev := &scorer.Evaluation{}
	for _, n := range names {
		var status string
		_ = json.Unmarshal(m[n+"/status"], &status)
		var score *float64
		_ = json.Unmarshal(m[n+"/score"], &score)
		switch {
		case score != nil:
			r := scorer.Result{Metric: n, Score: *score}
			_ = json.Unmarshal(m[n+"/label"], &r.Label)
			ev.Results = append(ev.Results, r)
		case status == "not_applicable":
			ev.NotApplicable = append(ev.NotApplicable, n)
		default:
			return nil, false
		}
	}
	return ev, true
}
