package offline

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/aggregate"
	"github.com/evalsidecar/evalsidecar/scorer/dataset"
)

// writeCases prints an eval set's results as `adk eval` reports them:
// per case (and attempt) its eval_id and PASSED or FAILED, each
// criterion's score against its threshold, the per-invocation scores
// when the metric gives them, then "N passed, M failed". A case passes
// when every criterion's metric scored at or above its threshold; a case
// without criteria is reported with its scores only and not counted.
func writeCases(w io.Writer, names []string, rows []dataset.Row, evals []*scorer.Evaluation, criteria []aggregate.Criterion) error {
	passed, failed := 0, 0
	var b strings.Builder
	for i, r := range rows {
		ev := evals[i]
		id := r.Instance.CaseID
		for _, c := range r.Columns {
			if c.Name == "attempt" {
				id += " (attempt " + string(c.Value) + ")"
			}
		}
		ok := true
		var lines []string
		for _, c := range criteria {
			res, found := ev.Result(c.Metric)
			status := "PASSED"
			if !found || res.Score < c.Threshold {
				status, ok = "FAILED", false
			}
			lines = append(lines, fmt.Sprintf("  %s: %s >= %g %s", c.Metric, scoreCell(ev, c.Metric), c.Threshold, status))
		}
		for _, n := range names {
			res, found := ev.Result(n)
			if !found {
				continue
			}
			per, _ := res.Details["per_invocation"].([]float64)
			for k, v := range per {
				trace := ""
				if k < len(r.Instance.Invocations) && r.Instance.Invocations[k].ID != "" {
					trace = " trace " + r.Instance.Invocations[k].ID
				}
				lines = append(lines, fmt.Sprintf("    invocation %d%s: %s %s", k+1, trace, n, strconv.FormatFloat(v, 'f', 4, 64)))
			}
		}
		status := "PASSED"
		switch {
		case len(criteria) == 0:
			status = "-"
		case ok:
			passed++
		default:
			status = "FAILED"
			failed++
		}
		fmt.Fprintf(&b, "%s: %s\n", id, status)
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
	}
	if len(criteria) > 0 {
		fmt.Fprintf(&b, "%d passed, %d failed\n", passed, failed)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
