package session

import (
	"context"
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
	// JudgesDialogues reports whether a metric reads each turn's tool
	// calls and model replies (Instance.Transcript).
	JudgesDialogues() bool
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
	// session's as a follow-up evaluation. When it judges dialogues, each
	// turn keeps its tool calls and model replies.
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

// scoreCase adds the case metrics of a canary session to ev and returns
// its case: the session's case is the one its first turn naming a case
// names, and the turns naming it, in start order, are the case's
// invocations. A case that is not loaded makes the metrics not
// applicable; nil without Options.Cases or a case.
func (a *Assembler) scoreCase(ctx context.Context, s *agentrun.Session, ev *scorer.Evaluation) *dataset.Case {
	if a.opts.Cases == nil {
		return nil
	}
	id := ""
	var runs []*agentrun.Trajectory
	for i := range s.Turns {
		if tn := &s.Turns[i]; tn.CaseID != "" && (id == "" || tn.CaseID == id) {
			id = tn.CaseID
			runs = append(runs, caseRun(s, tn))
		}
	}
	if id == "" {
		return nil
	}
	c, ok := a.opts.Cases.Case(id)
	if !ok {
		for _, m := range a.opts.CaseMetrics {
			ev.NotApplicable = append(ev.NotApplicable, m.Name())
		}
		return nil
	}
	s.CaseID = c.ID
	in := dataset.CaseInstance(*c, runs)
	for _, m := range a.opts.CaseMetrics {
		if in.Missing(m.Needs()) != 0 {
			ev.NotApplicable = append(ev.NotApplicable, m.Name())
			continue
		}
		r, reason, err := scorer.RunMetric(ctx, m, in, a.opts.MetricTimeout, a.log)
		ev.Add(m.Name(), r, reason, err)
	}
	return c
}

// caseRun is a canary turn as the run CaseInstance pairs with an
// invocation.
func caseRun(s *agentrun.Session, tn *agentrun.Turn) *agentrun.Trajectory {
	return &agentrun.Trajectory{TraceID: tn.TraceID, RootSpanID: tn.SpanID, SessionID: s.ID, Service: s.Service,
		ServiceVersion: s.ServiceVersion, Environment: s.Environment, Agent: tn.Agent, Start: tn.Start, End: tn.End,
		Input: tn.Input, Output: tn.Output, ToolCalls: tn.Calls, Failed: tn.Failed, ErrorType: tn.ErrorType}
}
