package session

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/dataset"
)

// Cases gives a canary session its eval case: the reference store.
type Cases interface {
	Case(id string) (*dataset.Case, bool)
	CaseIDAttribute() string
}

// Judge judges a closed session's conversation off the caller's
// goroutine: the judge stage.
type Judge interface {
	OfferConversation(ctx context.Context, in *scorer.Instance, ev *scorer.Evaluation)
}

// Options are the assembler's optional collaborators.
type Options struct {
	// Cases, when set, scores each session whose runs name an eval case
	// (its case-id attribute) as that case, with CaseMetrics: the runs
	// in start order are the case's invocations, as `sidecar eval` pairs
	// them.
	Cases Cases
	// CaseMetrics are run on a canary session's case instance, e.g. ADK's
	// tool_trajectory_avg_score and response_match_score, averaged over
	// the invocations.
	CaseMetrics []scorer.Metric
	// MetricTimeout bounds one case metric call.
	MetricTimeout time.Duration
	// Judge, when set, is offered every closed session's conversation
	// (the judge stage's multi-turn metrics); its scores follow the
	// session's as a follow-up evaluation.
	Judge Judge
	// Store, when set, is where sessions come from (source clickhouse):
	// Export ignores runs and the closing loop scores the store's idle
	// sessions instead.
	Store Store
}

// CaseMetrics are the metrics a canary session is scored with as its eval
// case: ADK's per-invocation metrics, with their defaults.
func CaseMetrics() []scorer.MetricConfig {
	return []scorer.MetricConfig{{Name: "tool_trajectory_avg_score"}, {Name: "response_match_score"}}
}

// runBytes estimates what keeping a canary run for its case adds to a
// session: the fields CaseInstance reads beyond the turn's.
func runBytes(t *agentrun.Trajectory) int64 {
	n := int64(len(t.Attributes)) * 32
	for i := range t.ToolCalls {
		c := &t.ToolCalls[i]
		n += 96 + int64(len(c.ID)+len(c.Name)+len(c.Arguments)+len(c.Result)+len(c.Error)+len(c.Agent)+len(c.SpanID))
	}
	return n
}

// scoreCase adds the case metrics of a canary session to ev: the runs,
// in start order, are the case's invocations. A case that is not loaded
// makes the metrics not applicable.
func (a *Assembler) scoreCase(ctx context.Context, o *openSession, ev *scorer.Evaluation) {
	c, ok := a.opts.Cases.Case(o.caseID)
	if !ok {
		for _, m := range a.opts.CaseMetrics {
			ev.NotApplicable = append(ev.NotApplicable, m.Name())
		}
		return
	}
	o.s.CaseID = c.ID
	runs := slices.Clone(o.runs)
	slices.SortStableFunc(runs, func(x, y *agentrun.Trajectory) int { return x.Start.Compare(y.Start) })
	in := dataset.CaseInstance(*c, runs)
	for _, m := range a.opts.CaseMetrics {
		if in.Missing(m.Needs()) != 0 {
			ev.NotApplicable = append(ev.NotApplicable, m.Name())
			continue
		}
		r, reason, err := scorer.RunMetric(ctx, m, in, a.opts.MetricTimeout, a.log)
		switch {
		case err == nil:
			if r.Metric == "" {
				r.Metric = m.Name()
			}
			ev.Results = append(ev.Results, r)
		case reason == "" && errors.Is(err, scorer.ErrNotApplicable):
			ev.NotApplicable = append(ev.NotApplicable, m.Name())
		default:
			ev.Errors = append(ev.Errors, scorer.MetricError{Metric: m.Name(), Reason: reason, Err: err})
		}
	}
}
