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
		return fixed4(true, r.Score)
	}
	if slices.Contains(ev.NotApplicable, name) {
		return "n/a"
	}
	return "error"
}

// fixed4 formats v with four decimals, or "-" when there is none.
func fixed4(ok bool, v float64) string {
	if !ok {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
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
	count := func(n int) string { return strconv.Itoa(n) }
	for _, c := range []struct {
		name string
		cell func(m aggregate.MetricSummary) string
	}{
		{"mean", func(m aggregate.MetricSummary) string { return fixed4(m.HasMean, m.Mean) }},
		{"std", func(m aggregate.MetricSummary) string { return fixed4(m.HasStd, m.Std) }},
		{"scored", func(m aggregate.MetricSummary) string { return count(m.Scored) }},
		{"n/a", func(m aggregate.MetricSummary) string { return count(m.NotApplicable) }},
		{"errors", func(m aggregate.MetricSummary) string { return count(m.Errors) }},
	} {
		fmt.Fprintf(tw, "%s\t\t", c.name)
		for _, m := range sum.Metrics {
			fmt.Fprintf(tw, "%s\t", c.cell(m))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeNotes(w, sum)
}

// writeNotes prints what follows the summary table: the row count, bad
// rows, win rates, agreement with people, metric errors and criteria.
func writeNotes(w io.Writer, sum *aggregate.Summary) error {
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
		if i := slices.IndexFunc(sum.Metrics, func(m aggregate.MetricSummary) bool { return m.Metric == c.Metric }); i >= 0 {
			mean = fixed4(sum.Metrics[i].HasMean, sum.Metrics[i].Mean)
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
	var err error
	put := func(k string, v any) {
		if err != nil {
			return
		}
		kb, _ := json.Marshal(k)
		vb, e := json.Marshal(v)
		if e != nil {
			err = fmt.Errorf("%s: %w", k, e)
			return
		}
		b.WriteByte(',')
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	for _, c := range r.Columns {
		if c.Name != "row" {
			put(c.Name, c.Value)
		}
	}
	for _, n := range names {
		res, scored := ev.Result(n)
		var score any
		if scored {
			score = res.Score
		}
		put(n+"/score", score)
		switch {
		case scored:
			if len(res.Details) > 0 {
				put(n+"/details", res.Details)
			}
			if res.Label != "" {
				put(n+"/label", res.Label)
			}
			if res.Explanation != "" {
				put(n+"/explanation", res.Explanation)
			}
		case slices.Contains(ev.NotApplicable, n):
			put(n+"/status", "not_applicable")
		default:
			if i := slices.IndexFunc(ev.Errors, func(e scorer.MetricError) bool { return e.Metric == n }); i >= 0 {
				put(n+"/status", ev.Errors[i].Reason)
				put(n+"/error", ev.Errors[i].Err.Error())
			}
		}
	}
	b.WriteByte('}')
	return b.Bytes(), err
}
