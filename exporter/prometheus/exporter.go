package prometheus

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// Exporter turns evaluations into Prometheus metrics. Export updates the
// metrics synchronously; it takes no locks beyond the label cappers' and
// the client library's, and never blocks on I/O.
type Exporter struct {
	logger *slog.Logger
	m      *metrics

	services, versions, agents, tools, models, metricIDs *Capper
	exemplars                                            *exemplarBudget
	series                                               seriesCaches
	rows                                                 *seriesRows
	// families is each described metric's score histogram, set by
	// DescribeMetrics before Start and only read after.
	families map[string]scoreFamily
}

var (
	_ exporter.Exporter         = (*Exporter)(nil)
	_ exporter.MetricsDescriber = (*Exporter)(nil)
)

// New validates cfg and registers the scoring metrics with
// set.Registerer (a nil one leaves them unregistered).
func New(cfg Config, set telemetry.Settings) (*Exporter, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("prometheus exporter: %w", err)
	}
	logger := set.Log()
	m, err := newMetrics(set.Registerer)
	if err != nil {
		return nil, err
	}
	x := &Exporter{logger: logger, m: m, exemplars: newExemplarBudget(cfg.ExemplarsPerSecond), series: newSeriesCaches(m, cfg.MaxSeries), rows: newSeriesRows()}
	capper := func(label string) *Capper {
		c := m.labelOverflow.WithLabelValues(label)
		return NewCapper(cfg.MaxLabelValues, c.Inc)
	}
	x.services = capper(labelService)
	x.versions = capper(labelServiceVersion)
	x.agents = capper(labelAgent)
	x.tools = capper(labelTool)
	x.models = capper(labelModel)
	x.metricIDs = capper(labelMetric)
	return x, nil
}

// DescribeMetrics takes the configured metrics' units, which pick the
// histogram of each one's scores; a metric not described (or of unit
// none) goes to evalsidecar_eval_score_other.
func (x *Exporter) DescribeMetrics(ms []scorer.Metric) {
	f := make(map[string]scoreFamily, len(ms))
	for _, m := range ms {
		f[m.Name()] = familyOf(scorer.SemanticsOf(m).Unit)
	}
	x.families = f
}

// family is the score histogram of metric.
func (x *Exporter) family(metric string) scoreFamily {
	if f, ok := x.families[metric]; ok {
		return f
	}
	return familyOther
}

// Start does nothing: the exporter has no background work.
func (x *Exporter) Start(context.Context) error { return nil }

// Shutdown does nothing: metrics stay readable until the process exits.
func (x *Exporter) Shutdown(context.Context) error { return nil }

// Export records the run's outcome, duration, tool calls and token use,
// observes every score in the histogram of its unit with the run's trace
// id as exemplar, and counts it in evalsidecar_eval_scored_total and, when
// it passed its metric's pass rule, evalsidecar_eval_passed_total. A
// session's evaluation counts the session in evalsidecar_sessions_total and
// records its scores the same way under its service and agent, with its
// last turn's trace id as exemplar. Non-finite scores are skipped, counted
// and reported in the returned error.
func (x *Exporter) Export(_ context.Context, e *scorer.Evaluation) error {
	if e == nil || len(e.Feedback) > 0 { // feedback is stored, not measured
		return nil
	}
	unknown := label{ValueUnknown, idUnknown}
	service, version, agent, traceID := unknown, unknown, unknown, ""
	var exemplar prometheus.Labels
	if t := e.Trajectory; t != nil {
		service, agent = x.services.label(t.Service), x.agents.label(t.Agent)
		version = x.versions.label(t.ServiceVersion)
		traceID = t.TraceID
		if x.exemplars.allow(time.Now()) {
			exemplar = exemplarLabels(traceID)
		}
	}
	if s := e.Session; s != nil {
		service, agent = x.services.label(s.Service), x.agents.label(s.Agent)
		version = x.versions.label(s.ServiceVersion)
		if n := len(s.Turns); n > 0 {
			traceID = s.Turns[n-1].TraceID // the exemplar links the last turn
			if x.exemplars.allow(time.Now()) {
				exemplar = exemplarLabels(traceID)
			}
		}
		outcome := label{outcomeOK, idOutcomeOK}
		for i := range s.Turns {
			if s.Turns[i].Failed {
				outcome = label{outcomeFailed, idOutcomeFailed}
				break
			}
		}
		if !e.FollowUp { // a follow-up adds judge scores to a counted session
			x.series.counter(seriesSessions, service, agent, label{}, outcome).Inc()
		}
	}
	row := x.rows.run(service, version, agent)
	if t := e.Trajectory; t != nil && !e.FollowUp {
		x.exportTrajectory(t, row, exemplar)
	}
	invalid := 0
	for i := range e.Results {
		r := &e.Results[i]
		if math.IsNaN(r.Score) || math.IsInf(r.Score, 0) {
			invalid++
			continue
		}
		metric := x.metricIDs.label(r.Metric)
		observe(x.series.score(row, metric, x.family(r.Metric)), r.Score, exemplar)
		x.series.scoreCounter(row, seriesEvalScored, metric).Inc()
		if r.Passed != nil {
			// The passed series exists from a metric's first verdict, so
			// a pass rate reads 0 rather than nothing.
			passed := x.series.scoreCounter(row, seriesEvalPassed, metric)
			if *r.Passed {
				passed.Inc()
			}
		}
	}
	if invalid > 0 {
		x.m.invalidScores.Add(float64(invalid))
		return fmt.Errorf("prometheus exporter: %d non-finite scores skipped for trace %q", invalid, traceID)
	}
	return nil
}

// exportTrajectory records the run's own series through row, the series
// of its (service, service_version, agent).
func (x *Exporter) exportTrajectory(t *agentrun.Trajectory, row *runSeries, exemplar prometheus.Labels) {
	outcome := label{outcomeOK, idOutcomeOK}
	if t.Failed {
		outcome = label{outcomeFailed, idOutcomeFailed}
	}
	x.series.trajectories(row, outcome).Inc()
	if d, ok := duration(t.Start, t.End); ok {
		observe(x.series.trajectoryDuration(row), d, exemplar)
	}
	for i := range t.ToolCalls {
		tc := &t.ToolCalls[i]
		calls := row.calls
		if tc.Agent != "" && tc.Agent != t.Agent {
			calls = x.rows.agent(row.service, x.agents.label(tc.Agent))
		}
		tool := x.tools.label(tc.Name)
		outcome := label{outcomeOK, idOutcomeOK}
		if tc.Error != "" {
			outcome = label{outcomeError, idOutcomeError}
		}
		x.series.toolCalls(calls, tool, outcome).Inc()
		if d, ok := duration(tc.Start, tc.End); ok {
			x.series.toolDuration(calls, tool).Observe(d)
		}
	}
	for i := range t.LLMCalls {
		lc := &t.LLMCalls[i]
		if lc.InputTokens <= 0 && lc.OutputTokens <= 0 {
			continue
		}
		model := x.models.label(lc.Model)
		if lc.InputTokens > 0 {
			x.series.tokens(row.calls, model, label{tokenInput, idTokenInput}).Add(float64(lc.InputTokens))
		}
		if lc.OutputTokens > 0 {
			x.series.tokens(row.calls, model, label{tokenOutput, idTokenOutput}).Add(float64(lc.OutputTokens))
		}
	}
}

// duration returns end-start in seconds when both are known and ordered.
func duration(start, end time.Time) (float64, bool) {
	if start.IsZero() || end.IsZero() || end.Before(start) {
		return 0, false
	}
	return end.Sub(start).Seconds(), true
}

// exemplarLabels returns the exemplar for a trace id, or nil when the id
// cannot be an exemplar label value (empty, too long, not UTF-8).
func exemplarLabels(traceID string) prometheus.Labels {
	if traceID == "" || len(traceID) > maxExemplarTraceIDBytes || !utf8.ValidString(traceID) {
		return nil
	}
	return prometheus.Labels{ExemplarTraceIDLabel: traceID}
}

func observe(o prometheus.Observer, v float64, exemplar prometheus.Labels) {
	if exemplar != nil {
		if eo, ok := o.(prometheus.ExemplarObserver); ok {
			eo.ObserveWithExemplar(v, exemplar)
			return
		}
	}
	o.Observe(v)
}
