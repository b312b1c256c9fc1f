package prometheus

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/exporter/internal/exportertest"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/session"
)

// loadEvaluations returns the exporters' shared evaluation fixture.
func loadEvaluations(t testing.TB) []scorer.Evaluation { return exportertest.Evaluations(t) }

func newTestExporter(t testing.TB, cfg Config) (*Exporter, *prometheus.Registry) {
	t.Helper()
	reg := prometheus.NewRegistry()
	x, err := New(cfg, telemetry.Settings{Registerer: reg})
	if err != nil {
		t.Fatal(err)
	}
	return x, reg
}

// labelKey renders a metric's labels as k=v pairs sorted by name.
func labelKey(m *dto.Metric) string {
	parts := make([]string, 0, len(m.GetLabel()))
	for _, l := range m.GetLabel() {
		parts = append(parts, l.GetName()+"="+l.GetValue())
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// series gathers reg and returns family name -> label key -> metric.
func series(t testing.TB, g prometheus.Gatherer) map[string]map[string]*dto.Metric {
	t.Helper()
	fams, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	return familiesByLabels(fams)
}

func familiesByLabels(fams []*dto.MetricFamily) map[string]map[string]*dto.Metric {
	out := map[string]map[string]*dto.Metric{}
	for _, f := range fams {
		out[f.GetName()] = map[string]*dto.Metric{}
		for _, m := range f.GetMetric() {
			out[f.GetName()][labelKey(m)] = m
		}
	}
	return out
}

func TestExportMetrics(t *testing.T) {
	x, reg := newTestExporter(t, DefaultConfig())
	for _, ev := range loadEvaluations(t) {
		if err := x.Export(context.Background(), &ev); err != nil {
			t.Fatalf("Export: %v", err)
		}
	}
	s := series(t, reg)

	counters := []struct {
		name, labels string
		want         float64
	}{
		{MetricTrajectories, "agent=triage,outcome=ok,service_name=support-bot,service_version=1.4.2", 1},
		{MetricTrajectories, "agent=unknown,outcome=failed,service_name=unknown,service_version=unknown", 1},
		{MetricTrajectories, "agent=agent \"quoted\"\n,outcome=ok,service_name=héllo-服务,service_version=unknown", 1},
		{MetricToolCalls, "agent=triage,outcome=ok,service_name=support-bot,tool=lookup_order", 1},
		{MetricToolCalls, "agent=triage,outcome=error,service_name=support-bot,tool=check_carrier", 1},
		{MetricToolCalls, "agent=billing,outcome=ok,service_name=support-bot,tool=issue_refund", 1}, // the sub-agent's call
		{MetricToolCalls, "agent=triage,outcome=ok,service_name=support-bot,tool=notify_user", 1},   // no agent: the run's
		{MetricLLMTokens, "agent=triage,model=gpt-4o-mini,service_name=support-bot,type=input", 812 + 1020},
		{MetricLLMTokens, "agent=triage,model=gpt-4o-mini,service_name=support-bot,type=output", 64 + 40},
		{MetricLLMTokens, "agent=triage,model=claude-haiku,service_name=support-bot,type=input", 1300},
		{MetricLLMTokens, "agent=triage,model=claude-haiku,service_name=support-bot,type=output", 120},
	}
	for _, c := range counters {
		m, ok := s[c.name][c.labels]
		if !ok {
			t.Errorf("%s{%s} missing; have %v", c.name, c.labels, keys(s[c.name]))
			continue
		}
		if got := m.GetCounter().GetValue(); got != c.want {
			t.Errorf("%s{%s} = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if n := len(s[MetricTrajectories]); n != 3 {
		t.Errorf("%d trajectory series, want 3", n)
	}

	hists := []struct {
		name, labels string
		count        uint64
		sum          float64
	}{
		{MetricTrajectoryDuration, "agent=triage,service_name=support-bot,service_version=1.4.2", 1, 4.376543211},
		{MetricToolCallDuration, "agent=billing,service_name=support-bot,tool=issue_refund", 1, 1.2},
		{MetricToolCallDuration, "agent=unknown,service_name=unknown,tool=search", 0, 0}, // absent: run 3 is another service
		{MetricEvalScoreOther, "agent=triage,metric=latency,service_name=support-bot,service_version=1.4.2", 1, 4.376543211},
		{MetricEvalScoreOther, "agent=triage,metric=hallucination_v1,service_name=support-bot,service_version=1.4.2", 1, 4.5},
		{MetricEvalScoreOther, "agent=triage,metric=tool_call_count,service_name=support-bot,service_version=1.4.2", 1, 4},
	}
	for _, h := range hists {
		m, ok := s[h.name][h.labels]
		if h.count == 0 {
			if ok {
				t.Errorf("%s{%s} present, want absent", h.name, h.labels)
			}
			continue
		}
		if !ok {
			t.Errorf("%s{%s} missing; have %v", h.name, h.labels, keys(s[h.name]))
			continue
		}
		if got := m.GetHistogram().GetSampleCount(); got != h.count {
			t.Errorf("%s{%s} count = %d, want %d", h.name, h.labels, got, h.count)
		}
		if got := m.GetHistogram().GetSampleSum(); math.Abs(got-h.sum) > 1e-9 {
			t.Errorf("%s{%s} sum = %v, want %v", h.name, h.labels, got, h.sum)
		}
	}
	// Every result of every evaluation is observed: 6 + 0 + 1.
	var scores uint64
	for _, m := range s[MetricEvalScoreOther] {
		scores += m.GetHistogram().GetSampleCount()
	}
	if scores != 7 {
		t.Errorf("eval_score observed %d scores, want 7", scores)
	}
}

func keys(m map[string]*dto.Metric) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// describedMetric is a metric of a unit, for DescribeMetrics.
type describedMetric struct {
	name string
	unit scorer.Unit
}

func (m describedMetric) Name() string                { return m.name }
func (describedMetric) Needs() (in scorer.Inputs)     { return in }
func (m describedMetric) Semantics() scorer.Semantics { return scorer.Semantics{Unit: m.unit} }
func (describedMetric) Score(context.Context, *scorer.Instance) (scorer.Result, error) {
	return scorer.Result{}, nil
}

// TestEvalScoreFamilies checks that each described metric's scores go to
// the histogram of its unit (an undescribed one's to _other), with that
// family's buckets: the cumulative bucket counts are those of counting the
// values at or below each bound.
func TestEvalScoreFamilies(t *testing.T) {
	cases := []struct {
		unit   scorer.Unit
		name   string
		bounds []float64
		values []float64
	}{
		{scorer.UnitRatio, MetricEvalScoreRatio, []float64{0, 0.1, 0.5, 0.9, 0.95, 1}, []float64{0, 0.05, 0.5, 0.93, 1}},
		{scorer.UnitSeconds, MetricEvalScoreSeconds, []float64{0.05, 1, 10, 600}, []float64{0.01, 0.7, 4.2, 45, 900}},
		{scorer.UnitCount, MetricEvalScoreCount, []float64{0, 1, 5, 10, 100}, []float64{0, 1, 3, 12, 250}},
		{scorer.UnitRating, MetricEvalScoreRating, []float64{-2, 0, 1, 3, 4.5, 5, 10}, []float64{-2, 1, 3, 4, 5}},
		{"", MetricEvalScoreOther, []float64{-1, 0, 10, 1000}, []float64{-5, 0, 7, 5000}},
	}
	x, reg := newTestExporter(t, DefaultConfig())
	var described []scorer.Metric
	ev := &scorer.Evaluation{Trajectory: &agentrun.Trajectory{Service: "s", Agent: "a", TraceID: "t1"}}
	for _, c := range cases {
		if c.unit != "" {
			described = append(described, describedMetric{"m_" + string(c.unit), c.unit})
		}
		for _, v := range c.values {
			ev.Results = append(ev.Results, scorer.Result{Metric: "m_" + string(c.unit), Score: v})
		}
	}
	x.DescribeMetrics(described)
	if err := x.Export(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	s := series(t, reg)
	for _, c := range cases {
		if n := len(s[c.name]); n != 1 {
			t.Errorf("%s: %d series, want 1 (only metric m_%s)", c.name, n, c.unit)
		}
		h := s[c.name]["agent=a,metric=m_"+string(c.unit)+",service_name=s,service_version=unknown"].GetHistogram()
		if h.GetSampleCount() != uint64(len(c.values)) {
			t.Errorf("%s: count %d, want %d (values above the last bucket still count)", c.name, h.GetSampleCount(), len(c.values))
		}
		got := map[float64]uint64{}
		for _, b := range h.GetBucket() {
			got[b.GetUpperBound()] = b.GetCumulativeCount()
		}
		for _, bound := range c.bounds {
			var want uint64
			for _, v := range c.values {
				if v <= bound {
					want++
				}
			}
			if w, ok := got[bound]; !ok || w != want {
				t.Errorf("%s: bucket le=%v has %d (present %v), want %d", c.name, bound, w, ok, want)
			}
		}
	}
}

// TestPassedAndScored checks the pass-rate counters: every score counts in
// scored_total; passed_total counts the passes, exists from a metric's
// first verdict (at 0 when everything failed) and never exists for a
// metric without a pass rule.
func TestPassedAndScored(t *testing.T) {
	yes, no := true, false
	x, reg := newTestExporter(t, DefaultConfig())
	ev := &scorer.Evaluation{Trajectory: &agentrun.Trajectory{Service: "s", Agent: "a"}, Results: []scorer.Result{
		{Metric: "failure", Score: 0, Passed: &yes},
		{Metric: "failure", Score: 1, Passed: &no},
		{Metric: "failure", Score: 0, Passed: &yes},
		{Metric: "tool_args_valid", Score: 0.5, Passed: &no},
		{Metric: "latency", Score: 3},
		{Metric: "latency", Score: 4},
	}}
	if err := x.Export(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	s := series(t, reg)
	key := func(m string) string { return "agent=a,metric=" + m + ",service_name=s,service_version=unknown" }
	for m, want := range map[string]float64{"failure": 3, "tool_args_valid": 1, "latency": 2} {
		if got := s[MetricEvalScored][key(m)].GetCounter().GetValue(); got != want {
			t.Errorf("scored_total{metric=%s} = %v, want %v", m, got, want)
		}
	}
	for m, want := range map[string]float64{"failure": 2, "tool_args_valid": 0} {
		c, ok := s[MetricEvalPassed][key(m)]
		if !ok || c.GetCounter().GetValue() != want {
			t.Errorf("passed_total{metric=%s} = %v (present %v), want %v", m, c.GetCounter().GetValue(), ok, want)
		}
	}
	if _, ok := s[MetricEvalPassed][key("latency")]; ok {
		t.Error("passed_total{metric=latency} exists for a metric without a pass rule")
	}
}

func TestExemplars(t *testing.T) {
	x, reg := newTestExporter(t, DefaultConfig())
	evs := loadEvaluations(t)
	if err := x.Export(context.Background(), &evs[0]); err != nil {
		t.Fatal(err)
	}
	s := series(t, reg)
	check := func(name, labels string) {
		t.Helper()
		m, ok := s[name][labels]
		if !ok {
			t.Fatalf("%s{%s} missing", name, labels)
		}
		found := 0
		for _, b := range m.GetHistogram().GetBucket() {
			e := b.GetExemplar()
			if e == nil {
				continue
			}
			found++
			if len(e.GetLabel()) != 1 || e.GetLabel()[0].GetName() != ExemplarTraceIDLabel ||
				e.GetLabel()[0].GetValue() != evs[0].Trajectory.TraceID {
				t.Errorf("%s{%s} exemplar labels %v", name, labels, e.GetLabel())
			}
		}
		if found != 1 {
			t.Errorf("%s{%s} has %d exemplars, want 1", name, labels, found)
		}
	}
	for _, r := range evs[0].Results {
		check(MetricEvalScoreOther, "agent=triage,metric="+r.Metric+",service_name=support-bot,service_version=1.4.2")
	}
	check(MetricTrajectoryDuration, "agent=triage,service_name=support-bot,service_version=1.4.2")
}

func TestNoExemplarForUnusableTraceID(t *testing.T) {
	for _, id := range []string{"", strings.Repeat("a", 200), "\xff\xfe"} {
		x, reg := newTestExporter(t, DefaultConfig())
		ev := &scorer.Evaluation{
			Trajectory: &agentrun.Trajectory{TraceID: id, Service: "s", Agent: "a"},
			Results:    []scorer.Result{{Metric: "m", Score: 1}},
		}
		if err := x.Export(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
		h := series(t, reg)[MetricEvalScoreOther]["agent=a,metric=m,service_name=s,service_version=unknown"].GetHistogram()
		if h.GetSampleCount() != 1 {
			t.Errorf("trace id %q: score not observed", id)
		}
		for _, b := range h.GetBucket() {
			if b.GetExemplar() != nil {
				t.Errorf("trace id %q: unexpected exemplar %v", id, b.GetExemplar())
			}
		}
	}
}

func TestLabelCapping(t *testing.T) {
	x, reg := newTestExporter(t, DefaultConfig()) // max_label_values 200
	for i := range 201 {
		ev := &scorer.Evaluation{
			Trajectory: &agentrun.Trajectory{
				Service: fmt.Sprintf("svc-%03d", i), Agent: "a",
				ToolCalls: []agentrun.ToolCall{{Name: "t"}},
			},
			Results: []scorer.Result{{Metric: "m", Score: 1}},
		}
		if err := x.Export(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
	}
	s := series(t, reg)
	for _, name := range []string{MetricTrajectories, MetricToolCalls, MetricEvalScoreOther} {
		services := map[string]bool{}
		for _, m := range s[name] {
			for _, l := range m.GetLabel() {
				if l.GetName() == "service_name" {
					services[l.GetValue()] = true
				}
			}
		}
		if len(services) != 201 || !services["svc-199"] || services["svc-200"] || !services[ValueOther] {
			t.Errorf("%s: %d service values (svc-199 %v, svc-200 %v, other %v); want the first 200 and other",
				name, len(services), services["svc-199"], services["svc-200"], services[ValueOther])
		}
	}
	if got := s[MetricTrajectories]["agent=a,outcome=ok,service_name=other,service_version=unknown"].GetCounter().GetValue(); got != 1 {
		t.Errorf("trajectories{service_name=other} = %v, want 1", got)
	}
	if got := s[MetricLabelOverflow]["label=service_name"].GetCounter().GetValue(); got != 1 {
		t.Errorf("label_overflow{label=service_name} = %v, want 1", got)
	}
}

func TestLabelCapIsPerLabelAcrossMetrics(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxLabelValues = 2
	x, reg := newTestExporter(t, cfg)
	ev := &scorer.Evaluation{Trajectory: &agentrun.Trajectory{
		Service: "s", Agent: "a",
		ToolCalls: []agentrun.ToolCall{{Name: "t1"}, {Name: "t2"}, {Name: "t3", Agent: "sub1"}, {Name: "t1", Agent: "sub2"}},
		LLMCalls:  []agentrun.LLMCall{{Model: "m1", InputTokens: 1}, {Model: "m2", InputTokens: 1}, {Model: "m3", InputTokens: 1}},
	}}
	if err := x.Export(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	s := series(t, reg)
	want := map[string]float64{
		"agent=a,outcome=ok,service_name=s,tool=t1":       1,
		"agent=a,outcome=ok,service_name=s,tool=t2":       1,
		"agent=sub1,outcome=ok,service_name=s,tool=other": 1,
		"agent=other,outcome=ok,service_name=s,tool=t1":   1,
	}
	if len(s[MetricToolCalls]) != len(want) {
		t.Errorf("tool call series %v, want %d", keys(s[MetricToolCalls]), len(want))
	}
	for k, v := range want {
		if got := s[MetricToolCalls][k].GetCounter().GetValue(); got != v {
			t.Errorf("tool_calls{%s} = %v, want %v", k, got, v)
		}
	}
	if got := s[MetricLLMTokens]["agent=a,model=other,service_name=s,type=input"].GetCounter().GetValue(); got != 1 {
		t.Errorf("tokens{model=other} = %v, want 1", got)
	}
	for label, n := range map[string]float64{"tool": 1, "agent": 1, "model": 1} {
		if got := s[MetricLabelOverflow]["label="+label].GetCounter().GetValue(); got != n {
			t.Errorf("label_overflow{label=%s} = %v, want %v", label, got, n)
		}
	}
}

func TestNonFiniteScoresSkipped(t *testing.T) {
	x, reg := newTestExporter(t, DefaultConfig())
	ev := &scorer.Evaluation{
		Trajectory: &agentrun.Trajectory{Service: "s", Agent: "a"},
		Results: []scorer.Result{
			{Metric: "m", Score: math.NaN()}, {Metric: "m", Score: math.Inf(1)}, {Metric: "m", Score: 0.5},
		},
	}
	err := x.Export(context.Background(), ev)
	if err == nil || !strings.Contains(err.Error(), "2 non-finite") {
		t.Errorf("Export error = %v, want a report of 2 non-finite scores", err)
	}
	s := series(t, reg)
	h := s[MetricEvalScoreOther]["agent=a,metric=m,service_name=s,service_version=unknown"].GetHistogram()
	if h.GetSampleCount() != 1 || h.GetSampleSum() != 0.5 {
		t.Errorf("eval_score count %d sum %v, want only the finite score", h.GetSampleCount(), h.GetSampleSum())
	}
	if got := s[MetricInvalidScores]["exporter=prometheus"].GetCounter().GetValue(); got != 2 {
		t.Errorf("invalid scores counted %v, want 2", got)
	}
}

func TestBadTimesAndTokensIgnored(t *testing.T) {
	x, reg := newTestExporter(t, DefaultConfig())
	tr := loadEvaluations(t)[0].Trajectory
	tr.Start, tr.End = tr.End, tr.Start // end before start
	tr.ToolCalls[0].End = tr.ToolCalls[0].Start.Add(-1)
	tr.LLMCalls[0].InputTokens = -5
	if err := x.Export(context.Background(), &scorer.Evaluation{Trajectory: tr}); err != nil {
		t.Fatal(err)
	}
	s := series(t, reg)
	if _, ok := s[MetricTrajectoryDuration]; ok {
		t.Error("duration observed for a run that ends before it starts")
	}
	if _, ok := s[MetricToolCallDuration]["agent=triage,service_name=support-bot,tool=lookup_order"]; ok {
		t.Error("duration observed for a tool call that ends before it starts")
	}
	if got := s[MetricLLMTokens]["agent=triage,model=gpt-4o-mini,service_name=support-bot,type=input"].GetCounter().GetValue(); got != 1020 {
		t.Errorf("input tokens = %v, want 1020 (negative count ignored)", got)
	}
}

func TestEvaluationWithoutTrajectory(t *testing.T) {
	x, reg := newTestExporter(t, DefaultConfig())
	if err := x.Export(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if err := x.Export(context.Background(), &scorer.Evaluation{Results: []scorer.Result{{Metric: "m", Score: 1}}}); err != nil {
		t.Fatal(err)
	}
	s := series(t, reg)
	if got := s[MetricEvalScoreOther]["agent=unknown,metric=m,service_name=unknown,service_version=unknown"].GetHistogram().GetSampleCount(); got != 1 {
		t.Errorf("score without trajectory observed %d times, want 1", got)
	}
	if _, ok := s[MetricTrajectories]; ok {
		t.Error("a trajectory was counted for an evaluation without one")
	}
}

func TestMetricsLint(t *testing.T) {
	x, reg := newTestExporter(t, DefaultConfig())
	for _, ev := range loadEvaluations(t) {
		_ = x.Export(context.Background(), &ev)
	}
	problems, err := testutil.GatherAndLint(reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("lint: %s: %s", p.Metric, p.Text)
	}
}

func TestRegisterTwiceFails(t *testing.T) {
	reg := prometheus.NewRegistry()
	if _, err := New(DefaultConfig(), telemetry.Settings{Registerer: reg}); err != nil {
		t.Fatal(err)
	}
	if _, err := New(DefaultConfig(), telemetry.Settings{Registerer: reg}); err == nil {
		t.Error("second New on the same registry succeeded; want a registration error")
	}
	if _, err := New(DefaultConfig(), telemetry.Settings{}); err != nil {
		t.Errorf("New with nil registerer: %v", err)
	}
}

// TestServiceVersionLabel checks that the run's service.version becomes the
// service_version label of the per-run metrics, capped like the others.
func TestServiceVersionLabel(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxLabelValues = 2
	x, reg := newTestExporter(t, cfg)
	for _, v := range []string{"1.0.0", "1.1.0", "1.2.0", "1.0.0", ""} {
		ev := &scorer.Evaluation{
			Trajectory: &agentrun.Trajectory{Service: "s", ServiceVersion: v, Agent: "a"},
			Results:    []scorer.Result{{Metric: "m", Score: 1}},
		}
		if err := x.Export(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
	}
	s := series(t, reg)
	want := map[string]float64{"1.0.0": 2, "1.1.0": 1, ValueOther: 1, ValueUnknown: 1}
	for v, n := range want {
		key := "agent=a,outcome=ok,service_name=s,service_version=" + v
		if got := s[MetricTrajectories][key].GetCounter().GetValue(); got != n {
			t.Errorf("trajectories{%s} = %v, want %v", key, got, n)
		}
		key = "agent=a,metric=m,service_name=s,service_version=" + v
		if got := s[MetricEvalScoreOther][key].GetHistogram().GetSampleCount(); got != uint64(n) {
			t.Errorf("eval_score{%s} count = %v, want %v", key, got, n)
		}
	}
	if got := s[MetricLabelOverflow]["label=service_version"].GetCounter().GetValue(); got != 1 {
		t.Errorf("label_overflow{label=service_version} = %v, want 1", got)
	}
}

// TestSessionScoreFamilies exports a scored session after the session
// metrics were described, as the pipeline does with sessions enabled, and
// checks each session score's histogram family and pass counters.
func TestSessionScoreFamilies(t *testing.T) {
	x, reg := newTestExporter(t, DefaultConfig())
	x.DescribeMetrics(session.Metrics())
	t0 := time.Unix(1700000000, 0)
	s := &agentrun.Session{ID: "c1", Service: "s", Agent: "a", Turns: []agentrun.Turn{
		{TraceID: "t1", Start: t0, End: t0.Add(time.Second), ToolCalls: 2, ToolErrors: 1},
		{TraceID: "t2", Start: t0.Add(time.Minute), End: t0.Add(61 * time.Second), Failed: true},
	}}
	if err := x.Export(context.Background(), session.Evaluate(s)); err != nil {
		t.Fatal(err)
	}
	all := series(t, reg)
	key := func(m string) string { return "agent=a,metric=" + m + ",service_name=s,service_version=unknown" }
	for m, fam := range map[string]string{
		session.MetricTurns: MetricEvalScoreCount, session.MetricFailed: MetricEvalScoreRatio,
		session.MetricToolErrorRate: MetricEvalScoreRatio, session.MetricDuration: MetricEvalScoreSeconds,
	} {
		if h, ok := all[fam][key(m)]; !ok || h.GetHistogram().GetSampleCount() != 1 {
			t.Errorf("%s: no score in %s", m, fam)
		}
	}
	if n := len(all[MetricEvalScoreOther]); n != 0 {
		t.Errorf("%d session scores in %s", n, MetricEvalScoreOther)
	}
	// the session failed and one of two tool calls errored: both fail their rule
	for _, m := range []string{session.MetricFailed, session.MetricToolErrorRate} {
		if c, ok := all[MetricEvalPassed][key(m)]; !ok || c.GetCounter().GetValue() != 0 {
			t.Errorf("passed_total{metric=%s} present %v, want 0", m, ok)
		}
	}
	if _, ok := all[MetricEvalPassed][key(session.MetricTurns)]; ok {
		t.Error("passed_total for session_turns, which has no pass rule")
	}
}

// TestFeedbackIsNotMeasured: people's feedback is stored by the record
// exporters; it adds no series here.
func TestFeedbackIsNotMeasured(t *testing.T) {
	x, reg := newTestExporter(t, DefaultConfig())
	before := fmt.Sprint(series(t, reg))
	err := x.Export(t.Context(), &scorer.Evaluation{Feedback: []scorer.Feedback{{TraceID: "t", Metric: "coherence", Label: "pass"}}})
	if err != nil {
		t.Fatal(err)
	}
	if after := fmt.Sprint(series(t, reg)); after != before {
		t.Errorf("a feedback evaluation changed the series:\n%s\n->\n%s", before, after)
	}
}
