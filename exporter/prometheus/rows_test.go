package prometheus

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// rowsEvaluation is run n of a mix of services, versions, agents, tools,
// models and metrics, with sub-agent tool calls and failures.
func rowsEvaluation(n int) *scorer.Evaluation {
	t0 := time.Unix(1700000000, 0)
	tr := &agentrun.Trajectory{
		Service: fmt.Sprintf("s%d", n%3), ServiceVersion: fmt.Sprintf("v%d", n%2), Agent: fmt.Sprintf("a%d", n%4),
		Failed: n%5 == 0, Start: t0, End: t0.Add(time.Second),
		ToolCalls: []agentrun.ToolCall{
			{Name: fmt.Sprintf("t%d", n%7), Start: t0, End: t0.Add(time.Millisecond)},
			{Name: fmt.Sprintf("t%d", n%11), Agent: fmt.Sprintf("sub%d", n%2), Error: map[bool]string{true: "boom"}[n%7 == 1]},
		},
		LLMCalls: []agentrun.LLMCall{{Model: fmt.Sprintf("m%d", n%6), InputTokens: 2, OutputTokens: int64(n % 2)}},
	}
	return &scorer.Evaluation{Trajectory: tr, Results: []scorer.Result{
		{Metric: fmt.Sprintf("metric%d", n%9), Score: 0.5},
		{Metric: fmt.Sprintf("metric%d", n%13), Score: 1},
	}}
}

// rowsModel returns the series values (counter values and histogram sample
// counts by family and label key) that exporting evaluations must produce.
func rowsModel(evs []*scorer.Evaluation) map[string]map[string]float64 {
	want := map[string]map[string]float64{}
	add := func(name, key string, v float64) {
		if want[name] == nil {
			want[name] = map[string]float64{}
		}
		want[name][key] += v
	}
	for _, e := range evs {
		t := e.Trajectory
		run := fmt.Sprintf("agent=%s,service_name=%s,service_version=%s", t.Agent, t.Service, t.ServiceVersion)
		outcome := map[bool]string{false: "ok", true: "failed"}[t.Failed]
		add(MetricTrajectories, fmt.Sprintf("agent=%s,outcome=%s,service_name=%s,service_version=%s", t.Agent, outcome, t.Service, t.ServiceVersion), 1)
		add(MetricTrajectoryDuration, run, 1)
		for _, tc := range t.ToolCalls {
			agent := t.Agent
			if tc.Agent != "" {
				agent = tc.Agent
			}
			outcome := map[bool]string{false: "ok", true: "error"}[tc.Error != ""]
			add(MetricToolCalls, fmt.Sprintf("agent=%s,outcome=%s,service_name=%s,tool=%s", agent, outcome, t.Service, tc.Name), 1)
			if !tc.Start.IsZero() {
				add(MetricToolCallDuration, fmt.Sprintf("agent=%s,service_name=%s,tool=%s", agent, t.Service, tc.Name), 1)
			}
		}
		for _, lc := range t.LLMCalls {
			for typ, n := range map[string]int64{"input": lc.InputTokens, "output": lc.OutputTokens} {
				if n > 0 {
					add(MetricLLMTokens, fmt.Sprintf("agent=%s,model=%s,service_name=%s,type=%s", t.Agent, lc.Model, t.Service, typ), float64(n))
				}
			}
		}
		for _, r := range e.Results {
			add(MetricEvalScoreOther, fmt.Sprintf("agent=%s,metric=%s,service_name=%s,service_version=%s", t.Agent, r.Metric, t.Service, t.ServiceVersion), 1)
		}
	}
	return want
}

// TestRowsMatchModel exports a mix of evaluations from several goroutines
// and checks every series against rowsModel.
func TestRowsMatchModel(t *testing.T) {
	const runs, workers = 600, 4
	x, reg := newTestExporter(t, DefaultConfig())
	evs := make([]*scorer.Evaluation, runs)
	for n := range evs {
		evs[n] = rowsEvaluation(n)
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for n := w; n < runs; n += workers {
				if err := x.Export(context.Background(), evs[n]); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	got := series(t, reg)
	for name, fam := range rowsModel(evs) {
		if len(got[name]) != len(fam) {
			t.Errorf("%s: %d series %v, want %d", name, len(got[name]), keys(got[name]), len(fam))
		}
		for k, v := range fam {
			m := got[name][k]
			if g := m.GetCounter().GetValue() + float64(m.GetHistogram().GetSampleCount()); g != v {
				t.Errorf("%s{%s} = %v, want %v", name, k, g, v)
			}
		}
	}
}

// TestRowsPastTheCap checks that runs beyond maxCachedRows distinct rows are
// still recorded in full.
func TestRowsPastTheCap(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxLabelValues = 2 * maxCachedRows
	cfg.MaxSeries = 2 * maxCachedRows
	x, reg := newTestExporter(t, cfg)
	const services = maxCachedRows + 10
	for round := range 2 {
		for n := range services {
			ev := &scorer.Evaluation{
				Trajectory: &agentrun.Trajectory{Service: fmt.Sprintf("s%d", n), Agent: "a", ToolCalls: []agentrun.ToolCall{{Name: "t"}}},
				Results:    []scorer.Result{{Metric: "m", Score: float64(round)}},
			}
			if err := x.Export(context.Background(), ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(x.rows.runs) > maxCachedRows || len(x.rows.agents) > maxCachedRows {
		t.Fatalf("%d runs, %d agents cached, cap %d", len(x.rows.runs), len(x.rows.agents), maxCachedRows)
	}
	s := series(t, reg)
	for _, name := range []string{MetricTrajectories, MetricToolCalls, MetricEvalScoreOther} {
		if len(s[name]) != services {
			t.Errorf("%s: %d series, want %d", name, len(s[name]), services)
		}
	}
	last := fmt.Sprintf("service_name=s%d", services-1)
	if got := s[MetricToolCalls]["agent=a,outcome=ok,"+last+",tool=t"].GetCounter().GetValue(); got != 2 {
		t.Errorf("tool_calls{%s} = %v, want 2", last, got)
	}
	if got := s[MetricEvalScoreOther]["agent=a,metric=m,"+last+",service_version=unknown"].GetHistogram().GetSampleCount(); got != 2 {
		t.Errorf("eval_score{%s} count = %v, want 2", last, got)
	}
}

// TestChildTable stores at scattered ids, growing the table, while readers
// load concurrently.
func TestChildTable(t *testing.T) {
	var tab childTable[int]
	if tab.load(0) != nil || tab.load(1<<31) != nil {
		t.Fatal("empty table holds a value")
	}
	ids := []uint32{3, 0, 40, 7, 41, 1000, 9}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for range 100 {
				for _, i := range ids {
					if p := tab.load(i); p != nil && *p != int(i)+1 {
						t.Errorf("load(%d) = %d", i, *p)
					}
				}
			}
		})
	}
	for _, i := range ids {
		tab.store(i, int(i)+1)
	}
	wg.Wait()
	for _, i := range ids {
		if p := tab.load(i); p == nil || *p != int(i)+1 {
			t.Errorf("load(%d) = %v", i, p)
		}
	}
	if tab.load(8) != nil || tab.load(1001) != nil {
		t.Error("unset id holds a value")
	}
}
