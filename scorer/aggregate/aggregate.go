// Package aggregate summarises per-row scores the way Vertex AI's
// evaluation SDK prints them (row_count, <metric>/mean, <metric>/std) and
// checks pass/fail criteria the way Google ADK does (every case's score at
// or above the metric's threshold).
package aggregate

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// Mean is the arithmetic mean of scores; ok is false for none.
func Mean(scores []float64) (mean float64, ok bool) {
	if len(scores) == 0 {
		return 0, false
	}
	var sum float64
	for _, s := range scores {
		sum += s
	}
	return sum / float64(len(scores)), true
}

// Std is the sample standard deviation (n−1 in the denominator), as
// pandas' std() computes it; ok is false for fewer than two scores, where
// Vertex reports NaN.
func Std(scores []float64) (std float64, ok bool) {
	if len(scores) < 2 {
		return 0, false
	}
	m, _ := Mean(scores)
	var ss float64
	for _, s := range scores {
		d := s - m
		ss += d * d
	}
	return math.Sqrt(ss / float64(len(scores)-1)), true
}

// MetricSummary is one metric's aggregate over the rows it scored. Rows
// where the metric was not applicable or failed are not in Mean and Std
// (as pandas skips NaN).
type MetricSummary struct {
	Metric        string
	Scored        int
	NotApplicable int
	Errors        int
	Mean          float64
	HasMean       bool
	Std           float64
	HasStd        bool
	// Win rates of a pairwise metric (results labelled CANDIDATE,
	// BASELINE or TIE), as Vertex reports them: the shares of rows the
	// candidate and the baseline won; PositionInconsistent counts the rows
	// whose two orders disagreed (scored as ties).
	HasWinRates          bool
	CandidateWinRate     float64
	BaselineWinRate      float64
	PositionInconsistent int
}

// Criterion is a pass/fail threshold on a metric.
type Criterion struct {
	Metric    string
	Threshold float64
}

// CriterionResult is a criterion checked over every row: it passes when
// every row scored the metric at or above the threshold. A row where the
// metric was not applicable or failed fails the criterion (ADK's
// NOT_EVALUATED is not PASSED).
type CriterionResult struct {
	Criterion
	Passed     bool
	FailedRows []int // 0-based rows below the threshold or not scored
}

// Summary is the aggregate of an evaluation run.
type Summary struct {
	RowCount int
	Metrics  []MetricSummary
	Criteria []CriterionResult
	// Partial marks a summary of an evaluation that was interrupted: it
	// covers only the rows finished by then.
	Partial bool `json:",omitempty"`
	// BadRows are the input rows that could not be read, each with its
	// row, line and cause; they are in no count above.
	BadRows []string `json:",omitempty"`
	// Agreement compares metrics with people's labels (dataset columns
	// "human:<metric>"), per metric that has them.
	Agreement []Agreement `json:",omitempty"`
}

// Passed reports whether every criterion passed (true when there are none).
func (s *Summary) Passed() bool {
	return !slices.ContainsFunc(s.Criteria, func(c CriterionResult) bool { return !c.Passed })
}

// Errors returns the number of rows on which a metric failed, summed over
// the metrics.
func (s *Summary) Errors() int {
	n := 0
	for _, m := range s.Metrics {
		n += m.Errors
	}
	return n
}

// Summarize aggregates one evaluation per row (nil for a row that was not
// evaluated) over the metrics named, in that order, and checks criteria.
func Summarize(metrics []string, evals []*scorer.Evaluation, criteria []Criterion) *Summary {
	s := &Summary{RowCount: len(evals)}
	scores := make(map[string][]float64, len(metrics))
	perRow := make([]map[string]float64, len(evals))
	for _, name := range metrics {
		ms := MetricSummary{Metric: name}
		for i, ev := range evals {
			if ev == nil {
				continue
			}
			if r, ok := ev.Result(name); ok {
				ms.Scored++
				scores[name] = append(scores[name], r.Score)
				if perRow[i] == nil {
					perRow[i] = map[string]float64{}
				}
				perRow[i][name] = r.Score
			} else if slices.Contains(ev.NotApplicable, name) {
				ms.NotApplicable++
			} else {
				ms.Errors++
			}
		}
		winRates(&ms, evals)
		ms.Mean, ms.HasMean = Mean(scores[name])
		ms.Std, ms.HasStd = Std(scores[name])
		s.Metrics = append(s.Metrics, ms)
	}
	for _, c := range criteria {
		cr := CriterionResult{Criterion: c, Passed: true}
		for i := range evals {
			v, ok := perRow[i][c.Metric]
			if !ok || v < c.Threshold {
				cr.Passed = false
				cr.FailedRows = append(cr.FailedRows, i)
			}
		}
		s.Criteria = append(s.Criteria, cr)
	}
	return s
}

// MarshalJSON writes the summary as Vertex prints it: row_count, then
// <metric>/mean and <metric>/std per metric in order (std absent for
// fewer than two scores, mean absent when nothing was scored), then
// "criteria" ({metric: {threshold, passed, failed_rows}}) and "passed".
// Beyond Vertex's keys, "<metric>/scored", "<metric>/not_applicable" and
// "<metric>/errors" count the rows per outcome, "agreement" compares
// metrics with people's labels ({metric: {n, cohen_kappa, confusion,
// spearman, mae}}), "partial" marks an interrupted evaluation and
// "bad_rows" lists the rows that could not be read.
func (s *Summary) MarshalJSON() ([]byte, error) {
	var o object
	o.put("row_count", s.RowCount)
	for _, m := range s.Metrics {
		if m.HasMean {
			o.put(m.Metric+"/mean", m.Mean)
		}
		if m.HasStd {
			o.put(m.Metric+"/std", m.Std)
		}
		if m.HasWinRates {
			o.put(m.Metric+"/candidate_model_win_rate", m.CandidateWinRate)
			o.put(m.Metric+"/baseline_model_win_rate", m.BaselineWinRate)
			o.put(m.Metric+"/position_inconsistent", m.PositionInconsistent)
		}
		o.put(m.Metric+"/scored", m.Scored)
		o.put(m.Metric+"/not_applicable", m.NotApplicable)
		o.put(m.Metric+"/errors", m.Errors)
	}
	if len(s.Criteria) > 0 {
		var crit object
		for _, c := range slices.SortedStableFunc(slices.Values(s.Criteria), func(x, y CriterionResult) int { return cmp.Compare(x.Metric, y.Metric) }) {
			failed := append([]int{}, c.FailedRows...) // [] rather than null
			crit.put(c.Metric, struct {
				Threshold  float64 `json:"threshold"`
				Passed     bool    `json:"passed"`
				FailedRows []int   `json:"failed_rows"`
			}{c.Threshold, c.Passed, failed})
		}
		o.put("criteria", crit.close())
	}
	if len(s.Agreement) > 0 {
		var agr object
		for _, a := range s.Agreement {
			v := map[string]any{"n": a.N}
			if a.HasKappa {
				v["cohen_kappa"], v["confusion"] = a.Kappa, a.Confusion
			}
			if a.HasSpearman {
				v["spearman"] = a.Spearman
			}
			if a.HasMAE {
				v["mae"] = a.MAE
			}
			agr.put(a.Metric, v)
		}
		o.put("agreement", agr.close())
	}
	if s.Partial {
		o.put("partial", true)
	}
	if len(s.BadRows) > 0 {
		o.put("bad_rows", s.BadRows)
	}
	o.put("passed", s.Passed())
	return o.close(), o.err
}

// object writes a JSON object member by member, in order.
type object struct {
	b   []byte
	err error // the first value that could not be written
}

// put writes the member k: v as json.Marshal writes v; a number it
// cannot write (NaN, ±Inf) is null, any other value it cannot write is
// an error.
func (o *object) put(k string, v any) {
	o.b = append(o.b, ',')
	if len(o.b) == 1 {
		o.b[0] = '{'
	}
	kb, _ := json.Marshal(k)
	vb, err := json.Marshal(v)
	if _, num := v.(float64); err != nil && num {
		vb, err = []byte("null"), nil
	}
	if o.err == nil {
		o.err = err
	}
	o.b = append(append(append(o.b, kb...), ':'), vb...)
}

// close ends the object and returns it.
func (o *object) close() json.RawMessage {
	if len(o.b) == 0 {
		return json.RawMessage("{}")
	}
	return append(o.b, '}')
}

// winRates fills a pairwise metric's win rates: when every result of ms's
// metric is labelled CANDIDATE, BASELINE or TIE.
func winRates(ms *MetricSummary, evals []*scorer.Evaluation) {
	var n, cand, base, inconsistent int
	for _, ev := range evals {
		if ev == nil {
			continue
		}
		r, ok := ev.Result(ms.Metric)
		if !ok {
			continue
		}
		switch r.Label {
		case "CANDIDATE":
			cand++
		case "BASELINE":
			base++
		case "TIE":
		default:
			return
		}
		n++
		if c, ok := r.Details["position_consistent"].(bool); ok && !c {
			inconsistent++
		}
	}
	if n == 0 {
		return
	}
	ms.HasWinRates = true
	ms.CandidateWinRate, ms.BaselineWinRate = float64(cand)/float64(n), float64(base)/float64(n)
	ms.PositionInconsistent = inconsistent
}
