package offline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"text/tabwriter"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/aggregate"
	"github.com/evalsidecar/evalsidecar/scorer/dataset"
)

// scoreCell formats one metric's outcome for the table.
func scoreCell(ev *scorer.Evaluation, name string) string {
	if r, ok := ev.Result(name); ok {
		return strconv.FormatFloat(r.Score, 'f', 4, 64)
	}
	if slices.Contains(ev.NotApplicable, name) {
		return "n/a"
	}
	return "error"
}

// writeTable prints the summary: per metric its mean, standard
// deviation and the rows scored, not applicable and failed, then the
// criteria. withRows prints every row's scores first.
func writeTable(w io.Writer, names []string, rows []dataset.Row, evals []*scorer.Evaluation, sum *aggregate.Summary, withRows bool) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	if withRows {
		fmt.Fprint(tw, "row\tcase\t")
	} else {
		fmt.Fprint(tw, "metric\t\t")
	}
	for _, n := range names {
		fmt.Fprintf(tw, "%s\t", n)
	}
	fmt.Fprintln(tw)
	for i, r := range rows {
		if !withRows {
			break
		}
		cs := r.Instance.CaseID
		if cs == "" {
			cs = "-"
		}
		fmt.Fprintf(tw, "%d\t%s\t", r.Index, cs)
		for _, n := range names {
			fmt.Fprintf(tw, "%s\t", scoreCell(evals[i], n))
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprint(tw, "mean\t\t")
	for _, m := range sum.Metrics {
		if m.HasMean {
			fmt.Fprintf(tw, "%.4f\t", m.Mean)
		} else {
			fmt.Fprint(tw, "-\t")
		}
	}
	fmt.Fprintln(tw)
	fmt.Fprint(tw, "std\t\t")
	for _, m := range sum.Metrics {
		if m.HasStd {
			fmt.Fprintf(tw, "%.4f\t", m.Std)
		} else {
			fmt.Fprint(tw, "-\t")
		}
	}
	fmt.Fprintln(tw)
	for _, c := range []struct {
		name string
		n    func(m aggregate.MetricSummary) int
	}{
		{"scored", func(m aggregate.MetricSummary) int { return m.Scored }},
		{"n/a", func(m aggregate.MetricSummary) int { return m.NotApplicable }},
		{"errors", func(m aggregate.MetricSummary) int { return m.Errors }},
	} {
		fmt.Fprintf(tw, "%s\t\t", c.name)
		for _, m := range sum.Metrics {
			fmt.Fprintf(tw, "%d\t", c.n(m))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "row_count: %d\n", sum.RowCount)
	if sum.Partial {
		fmt.Fprintln(w, "partial: interrupted; the summary covers the rows finished")
	}
	for _, b := range sum.BadRows {
		fmt.Fprintf(w, "bad row: %s\n", b)
	}
	for _, m := range sum.Metrics {
		if m.HasWinRates {
			fmt.Fprintf(w, "win rates %s: candidate %.4f, baseline %.4f, position-inconsistent rows %d\n",
				m.Metric, m.CandidateWinRate, m.BaselineWinRate, m.PositionInconsistent)
		}
	}
	for _, a := range sum.Agreement {
		fmt.Fprintf(w, "agreement %s with people: n %d", a.Metric, a.N)
		if a.HasKappa {
			fmt.Fprintf(w, ", Cohen's kappa %.4f", a.Kappa)
		}
		if a.HasSpearman {
			fmt.Fprintf(w, ", Spearman %.4f", a.Spearman)
		}
		if a.HasMAE {
			fmt.Fprintf(w, ", MAE %.4f", a.MAE)
		}
		fmt.Fprintln(w)
	}
	for _, m := range sum.Metrics {
		if m.Errors > 0 {
			fmt.Fprintf(w, "errors: %s failed on %d of %d rows\n", m.Metric, m.Errors, sum.RowCount)
		}
	}
	for _, c := range sum.Criteria {
		status := "PASS"
		if !c.Passed {
			status = fmt.Sprintf("FAIL (rows %v)", c.FailedRows)
		}
		mean := "-"
		for _, m := range sum.Metrics {
			if m.Metric == c.Metric && m.HasMean {
				mean = strconv.FormatFloat(m.Mean, 'f', 4, 64)
			}
		}
		if _, err := fmt.Fprintf(w, "criterion %s >= %g: %s (mean %s)\n", c.Metric, c.Threshold, status, mean); err != nil {
			return err
		}
	}
	return nil
}

// writeOutput writes metrics_table.jsonl and summary.json to dir; rows
// kept from an earlier run (done) are written as they were.
func writeOutput(dir string, names []string, rows []dataset.Row, evals []*scorer.Evaluation, done map[int]resumed, sum *aggregate.Summary) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b bytes.Buffer
	for i, r := range rows {
		line := done[r.Index].line
		if line == nil {
			var err error
			if line, err = tableLine(r, names, evals[i]); err != nil {
				return fmt.Errorf("row %d: %w", r.Index, err)
			}
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "metrics_table.jsonl"), b.Bytes(), 0o644); err != nil {
		return err
	}
	sb, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "summary.json"), append(sb, '\n'), 0o644)
}

// tableLine renders one row of metrics_table.jsonl: "row", the input
// columns in input order, then per metric "<metric>/score" (null when
// not scored), "<metric>/details", "<metric>/label" and
// "<metric>/explanation" when set, and "<metric>/status"
// ("not_applicable" or "error") with "<metric>/error" when not scored.
func tableLine(r dataset.Row, names []string, ev *scorer.Evaluation) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"row":`)
	b.WriteString(strconv.Itoa(r.Index))
	put := func(k string, v any) error {
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		b.WriteByte(',')
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
		return nil
	}
	for _, c := range r.Columns {
		if c.Name == "row" {
			continue
		}
		if err := put(c.Name, c.Value); err != nil {
			return nil, err
		}
	}
	for _, n := range names {
		var (
			res   *scorer.Result
			mErr  *scorer.MetricError
			isNA  = slices.Contains(ev.NotApplicable, n)
			score any
		)
		for i := range ev.Results {
			if ev.Results[i].Metric == n {
				res = &ev.Results[i]
			}
		}
		for i := range ev.Errors {
			if ev.Errors[i].Metric == n {
				mErr = &ev.Errors[i]
			}
		}
		if res != nil {
			score = res.Score
		}
		if err := put(n+"/score", score); err != nil {
			return nil, err
		}
		switch {
		case res != nil:
			if len(res.Details) > 0 {
				if err := put(n+"/details", res.Details); err != nil {
					return nil, err
				}
			}
			if res.Label != "" {
				if err := put(n+"/label", res.Label); err != nil {
					return nil, err
				}
			}
			if res.Explanation != "" {
				if err := put(n+"/explanation", res.Explanation); err != nil {
					return nil, err
				}
			}
		case isNA:
			if err := put(n+"/status", "not_applicable"); err != nil {
				return nil, err
			}
		case mErr != nil:
			if err := put(n+"/status", mErr.Reason); err != nil {
				return nil, err
			}
			if err := put(n+"/error", mErr.Err.Error()); err != nil {
				return nil, err
			}
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
