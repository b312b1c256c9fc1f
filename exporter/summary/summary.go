// Package summary aggregates evaluations in memory into per-metric
// statistics: the table that `sidecar replay` prints at the end and
// `sidecar demo` refreshes while it runs.
package summary

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"sync"
	"text/tabwriter"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// Summary is an exporter that keeps running statistics. It is safe for
// concurrent use.
type Summary struct {
	mu      sync.Mutex
	runs    int
	failed  int
	metrics map[string]*stat
}

type stat struct {
	n             int
	mean, m2      float64 // Welford's running mean and sum of squares
	min, max      float64
	ruled, passed int // scores with a pass verdict, and those that passed
	notApplicable int
	errors        int
	skipped       int
}

// New returns an empty Summary.
func New() *Summary { return &Summary{metrics: map[string]*stat{}} }

// Start does nothing; Summary needs no resources.
func (s *Summary) Start(context.Context) error { return nil }

// Shutdown does nothing.
func (s *Summary) Shutdown(context.Context) error { return nil }

// Export adds one evaluation.
func (s *Summary) Export(_ context.Context, e *scorer.Evaluation) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	// a session's metrics are listed, but it is not a run; feedback is neither
	if !e.FollowUp && e.Session == nil && len(e.Feedback) == 0 {
		s.runs++
		if e.Trajectory != nil && e.Trajectory.Failed {
			s.failed++
		}
	}
	for _, r := range e.Results {
		st := s.get(r.Metric)
		st.n++
		d := r.Score - st.mean
		st.mean += d / float64(st.n)
		st.m2 += d * (r.Score - st.mean)
		if st.n == 1 || r.Score < st.min {
			st.min = r.Score
		}
		if st.n == 1 || r.Score > st.max {
			st.max = r.Score
		}
		if r.Passed != nil {
			st.ruled++
			if *r.Passed {
				st.passed++
			}
		}
	}
	for _, m := range e.NotApplicable {
		s.get(m).notApplicable++
	}
	for _, me := range e.Errors {
		s.get(me.Metric).errors++
	}
	// Judge metrics report through the ledger: a judge error or a run
	// the metric could not judge counts like an engine metric's; runs
	// not sent to the judge (sampled out, over budget, ...) are skipped.
	for _, d := range e.Decisions {
		switch d.Outcome {
		case scorer.OutcomeScored, scorer.OutcomeCached, scorer.OutcomeQueued:
		case scorer.OutcomeJudgeError:
			s.get(d.Metric).errors++
		case scorer.OutcomeNotApplicable:
			s.get(d.Metric).notApplicable++
		default:
			s.get(d.Metric).skipped++
		}
	}
	return nil
}

func (s *Summary) get(metric string) *stat {
	st, ok := s.metrics[metric]
	if !ok {
		st = &stat{}
		s.metrics[metric] = st
	}
	return st
}

// Row is one metric's statistics.
type Row struct {
	Metric   string
	Count    int
	Mean     float64
	Std      float64 // sample standard deviation (n−1); NaN with fewer than two scores
	Min, Max float64
	// PassRate is the share of scores that passed the metric's pass
	// rule; NaN for a metric without one.
	PassRate      float64
	NotApplicable int
	Errors        int
	// Skipped counts judge metric runs not sent to the judge: sampled
	// out, filtered, over budget, queue full, shutting down.
	Skipped int
}

// Table is a snapshot of a Summary.
type Table struct {
	Runs   int
	Failed int
	Rows   []Row // sorted by metric id
}

// Snapshot returns the current statistics.
func (s *Summary) Snapshot() Table {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := Table{Runs: s.runs, Failed: s.failed}
	for name, st := range s.metrics {
		r := Row{Metric: name, Count: st.n, Mean: st.mean, Min: st.min, Max: st.max,
			NotApplicable: st.notApplicable, Errors: st.errors, Skipped: st.skipped, Std: math.NaN(), PassRate: math.NaN()}
		if st.ruled > 0 {
			r.PassRate = float64(st.passed) / float64(st.ruled)
		}
		if st.n > 1 {
			r.Std = math.Sqrt(st.m2 / float64(st.n-1))
		}
		t.Rows = append(t.Rows, r)
	}
	sort.Slice(t.Rows, func(i, j int) bool { return t.Rows[i].Metric < t.Rows[j].Metric })
	return t
}

// Write prints the table in aligned columns.
func (t Table) Write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "metric\tscored\tmean\tstd\tmin\tmax\tpassed\tn/a\terrors\tskipped\t\n")
	for _, r := range t.Rows {
		if r.Count == 0 {
			fmt.Fprintf(tw, "%s\t0\t-\t-\t-\t-\t-\t%d\t%d\t%d\t\n", r.Metric, r.NotApplicable, r.Errors, r.Skipped)
			continue
		}
		std, pass := "-", "-"
		if !math.IsNaN(r.Std) {
			std = fmt.Sprintf("%.4f", r.Std)
		}
		if !math.IsNaN(r.PassRate) {
			pass = fmt.Sprintf("%.1f%%", 100*r.PassRate)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.4f\t%s\t%.4f\t%.4f\t%s\t%d\t%d\t%d\t\n",
			r.Metric, r.Count, r.Mean, std, r.Min, r.Max, pass, r.NotApplicable, r.Errors, r.Skipped)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "runs: %d, failed: %d\n", t.Runs, t.Failed)
	return err
}
