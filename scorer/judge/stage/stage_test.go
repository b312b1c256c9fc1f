package stage

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/sampling"
)

// fakeMetric is a judged metric whose Score is scripted.
type fakeMetric struct {
	name, judge string
	needs       scorer.Inputs
	calls       atomic.Int64
	score       func(ctx context.Context, in *scorer.Instance) (scorer.Result, error)
}

func (m *fakeMetric) Name() string         { return m.name }
func (m *fakeMetric) JudgeName() string    { return m.judge }
func (m *fakeMetric) Needs() scorer.Inputs { return m.needs }
func (m *fakeMetric) Score(ctx context.Context, in *scorer.Instance) (scorer.Result, error) {
	m.calls.Add(1)
	if m.score != nil {
		return m.score(ctx, in)
	}
	return scorer.Result{Metric: m.name, Score: 1, Judge: &scorer.JudgeUsage{Judge: m.judge, Calls: 1}}, nil
}

// recorder is a sink keeping every evaluation.
type recorder struct {
	mu  sync.Mutex
	evs []*scorer.Evaluation
}

func (r *recorder) Export(_ context.Context, ev *scorer.Evaluation) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.evs = append(r.evs, ev)
	return nil
}

func (r *recorder) all() []*scorer.Evaluation {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*scorer.Evaluation(nil), r.evs...)
}

func policy(t *testing.T, rate float64) *sampling.Policy {
	t.Helper()
	p, err := sampling.New(sampling.Config{Rate: &rate}, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func instance(traceID, response string) *scorer.Instance {
	tr := &agentrun.Trajectory{TraceID: traceID, Input: "what is my order status?", Output: response, Service: "shop"}
	return scorer.FromTrajectory(tr)
}

func randomTraceID(r *rand.Rand) string {
	return fmt.Sprintf("%016x%016x", r.Uint64(), r.Uint64())
}

// offer runs the stage's Offer as the engine does and returns the
// evaluation it annotated.
func offer(s *Stage, in *scorer.Instance) *scorer.Evaluation {
	ev := &scorer.Evaluation{Trajectory: in.Trajectory}
	s.Offer(context.Background(), in, ev)
	return ev
}

func outcomes(ev *scorer.Evaluation) map[string]string {
	m := map[string]string{}
	for _, d := range ev.Decisions {
		m[d.Metric] = d.Outcome
	}
	return m
}

func TestSamplingCohortsAndLedger(t *testing.T) {
	low := &fakeMetric{name: "low", judge: "j", needs: scorer.InResponse}
	high := &fakeMetric{name: "high", judge: "j", needs: scorer.InResponse}
	rec := &recorder{}
	reg := prometheus.NewRegistry()
	s, err := New([]Metric{{Metric: low, Policy: policy(t, 0.1)}, {Metric: high, Policy: policy(t, 0.5)}}, rec,
		Options{QueueSize: 5000}, telemetry.Settings{Registerer: reg})
	if err != nil {
		t.Fatal(err)
	}
	s.Start(t.Context())
	r := rand.New(rand.NewPCG(1, 2))
	const runs = 2000
	queued := map[string]int{}
	for i := range runs {
		ev := offer(s, instance(randomTraceID(r), fmt.Sprintf("answer %d", i)))
		o := outcomes(ev)
		if o["low"] == scorer.OutcomeQueued && o["high"] != scorer.OutcomeQueued {
			t.Fatalf("run judged at 10%% but not at 50%%: %v", o)
		}
		for m, out := range o {
			if out == scorer.OutcomeQueued {
				queued[m]++
			} else if out != scorer.OutcomeSampledOut {
				t.Fatalf("unexpected outcome %q for %s", out, m)
			}
		}
	}
	if err := s.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	if q := queued["low"]; q < 150 || q > 250 {
		t.Errorf("low (10%%) queued %d of %d", q, runs)
	}
	if q := queued["high"]; q < 900 || q > 1100 {
		t.Errorf("high (50%%) queued %d of %d", q, runs)
	}
	scored := map[string]int{}
	for _, ev := range rec.all() {
		if !ev.FollowUp {
			t.Fatal("the stage exported an evaluation that is not a follow-up")
		}
		for _, d := range ev.Decisions {
			if d.Outcome != scorer.OutcomeScored {
				t.Fatalf("decision %+v, want scored", d)
			}
			scored[d.Metric]++
		}
		if len(ev.Results) != len(ev.Decisions) {
			t.Fatalf("%d results for %d scored decisions", len(ev.Results), len(ev.Decisions))
		}
	}
	for _, m := range []string{"low", "high"} {
		if scored[m] != queued[m] {
			t.Errorf("%s: %d queued, %d scored", m, queued[m], scored[m])
		}
		if got := testutil.ToFloat64(s.tel.skipped.WithLabelValues(m, scorer.OutcomeSampledOut)); int(got) != runs-queued[m] {
			t.Errorf("%s: skipped{sampled_out} = %v, want %d", m, got, runs-queued[m])
		}
	}
}

func TestQueueFullSkipsWithoutBlocking(t *testing.T) {
	m := &fakeMetric{name: "m", judge: "j", needs: scorer.InResponse}
	s, err := New([]Metric{{Metric: m, Policy: policy(t, 1)}}, &recorder{}, Options{QueueSize: 2}, telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	// Not started: nothing drains the queue.
	var got []string
	for i := range 5 {
		got = append(got, outcomes(offer(s, instance(fmt.Sprint(i), "x")))["m"])
	}
	want := []string{"queued", "queued", "queue_full", "queue_full", "queue_full"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("outcomes %v, want %v", got, want)
	}
	if n := testutil.ToFloat64(s.tel.skipped.WithLabelValues("m", scorer.OutcomeQueueFull)); n != 3 {
		t.Errorf("skipped{queue_full} = %v, want 3", n)
	}
	if n := testutil.ToFloat64(s.tel.queueLen.WithLabelValues("j")); n != 2 {
		t.Errorf("queue_length = %v, want 2", n)
	}
}

func TestDuplicateDeliveryIsJudgedOnce(t *testing.T) {
	m := &fakeMetric{name: "m", judge: "j", needs: scorer.InResponse}
	cache, err := sampling.NewCache[scorer.Result](sampling.CacheConfig{Size: 10, TTL: time.Hour}, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	s, err := New([]Metric{{Metric: m, Policy: policy(t, 1)}}, rec, Options{Cache: cache}, telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	s.Start(t.Context())
	first := offer(s, instance("aa", "the same answer"))
	if outcomes(first)["m"] != scorer.OutcomeQueued {
		t.Fatalf("first delivery: %v", first.Decisions)
	}
	if err := s.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	// The redelivery comes after the first was judged.
	s2, err := New([]Metric{{Metric: m, Policy: policy(t, 1)}}, rec, Options{Cache: cache}, telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	again := offer(s2, instance("aa", "the same answer"))
	if outcomes(again)["m"] != scorer.OutcomeCached || len(again.Results) != 1 || again.Results[0].Metric != "m" {
		t.Fatalf("redelivery: decisions %v results %v", again.Decisions, again.Results)
	}
	other := offer(s2, instance("aa", "a different answer"))
	if outcomes(other)["m"] != scorer.OutcomeQueued {
		t.Errorf("different content was not queued: %v", other.Decisions)
	}
	if n := m.calls.Load(); n != 1 {
		t.Errorf("judge called %d times, want 1", n)
	}
}

// comparingMetric is a fakeMetric with a scorer.Precondition: runs whose
// response is "no case" cannot be compared.
type comparingMetric struct{ fakeMetric }

func (m *comparingMetric) Applicable(in *scorer.Instance) error {
	if in.Response == "no case" {
		return &scorer.NotApplicableError{Reason: "no_case_id"}
	}
	return nil
}

// TestPreconditionMetrics: a run a comparing metric cannot compare is
// not_applicable with the metric's reason before sampling and takes no
// queue slot; identical runs it can compare are each judged (the data it
// compares with is found when judging), while a plain metric's result is
// reused from the cache.
func TestPreconditionMetrics(t *testing.T) {
	cmpm := &comparingMetric{fakeMetric{name: "cmp", judge: "j", needs: scorer.InResponse}}
	plain := &fakeMetric{name: "plain", judge: "j", needs: scorer.InResponse}
	cache, err := sampling.NewCache[scorer.Result](sampling.CacheConfig{Size: 10, TTL: time.Hour}, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	s, err := New([]Metric{{Metric: cmpm, Policy: policy(t, 1)}, {Metric: plain, Policy: policy(t, 1)}}, rec, Options{Cache: cache, Inline: true}, telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	s.Start(t.Context())
	skipped := offer(s, instance("aa", "no case"))
	if d := skipped.Decisions[0]; d.Metric != "cmp" || d.Outcome != scorer.OutcomeNotApplicable || d.Reason != "no_case_id" {
		t.Errorf("run without a case: %+v", skipped.Decisions)
	}
	offer(s, instance("bb", "the same answer"))
	again := offer(s, instance("cc", "the same answer"))
	if o := outcomes(again); o["cmp"] != scorer.OutcomeQueued || o["plain"] != scorer.OutcomeCached {
		t.Errorf("identical run: %v, want cmp queued and plain cached", o)
	}
	if err := s.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := cmpm.calls.Load(); n != 2 {
		t.Errorf("comparing metric judged %d times, want 2", n)
	}
	if n := plain.calls.Load(); n != 2 { // "no case" and the first "the same answer"
		t.Errorf("plain metric judged %d times, want 2", n)
	}
}

func TestFailuresBecomeLedgerEntries(t *testing.T) {
	cases := []struct {
		name        string
		err         error
		outcome     string
		reason      string
		wantResults int
	}{
		{"rate limited", &judge.Error{Class: judge.ClassRateLimited, Status: 429}, scorer.OutcomeJudgeError, "rate_limited", 0},
		{"circuit open", &judge.Error{Class: judge.ClassCircuitOpen}, scorer.OutcomeJudgeError, "circuit_open", 0},
		{"unparseable", &judge.Error{Class: judge.ClassInvalidResponse, Err: errors.New("no JSON")}, scorer.OutcomeJudgeError, "invalid_response", 0},
		{"refusal", &judge.Error{Class: judge.ClassRefusal}, scorer.OutcomeJudgeError, "refusal", 0},
		{"budget", &judge.Error{Class: judge.ClassBudget, Err: &judge.BudgetExceeded{Budget: "m", Limit: "tokens_per_day"}}, scorer.OutcomeOverBudget, "m:tokens_per_day", 0},
		{"not applicable", scorer.ErrNotApplicable, scorer.OutcomeNotApplicable, "undefined for the run", 0},
		{"not applicable with a reason", &scorer.NotApplicableError{Reason: "no_baseline"}, scorer.OutcomeNotApplicable, "no_baseline", 0},
		{"plain error", errors.New("boom"), scorer.OutcomeJudgeError, "invalid_response", 0},
		{"scored", nil, scorer.OutcomeScored, "", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := &fakeMetric{name: "m", judge: "j", needs: scorer.InResponse}
			if c.err != nil {
				m.score = func(context.Context, *scorer.Instance) (scorer.Result, error) { return scorer.Result{}, c.err }
			}
			rec := &recorder{}
			s, err := New([]Metric{{Metric: m, Policy: policy(t, 1)}}, rec, Options{}, telemetry.Settings{})
			if err != nil {
				t.Fatal(err)
			}
			s.Start(t.Context())
			offer(s, instance("t1", "x"))
			if err := s.Shutdown(t.Context()); err != nil {
				t.Fatal(err)
			}
			evs := rec.all()
			if len(evs) != 1 || len(evs[0].Decisions) != 1 {
				t.Fatalf("exported %d evaluations", len(evs))
			}
			d := evs[0].Decisions[0]
			if d.Outcome != c.outcome || d.Reason != c.reason || len(evs[0].Results) != c.wantResults {
				t.Errorf("decision %+v with %d results, want %s/%q with %d", d, len(evs[0].Results), c.outcome, c.reason, c.wantResults)
			}
		})
	}
}

func TestMissingInputsAreNotApplicable(t *testing.T) {
	m := &fakeMetric{name: "m", judge: "j", needs: scorer.InResponse | scorer.InReference}
	s, err := New([]Metric{{Metric: m, Policy: policy(t, 1)}}, &recorder{}, Options{}, telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	ev := offer(s, instance("t", "x"))
	if got := outcomes(ev)["m"]; got != scorer.OutcomeNotApplicable {
		t.Errorf("outcome %q, want not_applicable", got)
	}
}

func TestMetricBudgetReachesTheJudgeCall(t *testing.T) {
	b := judge.NewBudget("m", judge.BudgetConfig{CallsPerMinute: 1}, time.Now)
	var seen atomic.Pointer[judge.Budget]
	m := &fakeMetric{name: "m", judge: "j", needs: scorer.InResponse,
		score: func(ctx context.Context, _ *scorer.Instance) (scorer.Result, error) {
			seen.Store(judge.BudgetFrom(ctx))
			return scorer.Result{Score: 1}, nil
		}}
	s, err := New([]Metric{{Metric: m, Policy: policy(t, 1), Budget: b}}, &recorder{}, Options{}, telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	s.Start(t.Context())
	offer(s, instance("t", "x"))
	if err := s.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	if seen.Load() != b {
		t.Error("the metric's budget was not on the judge call's context")
	}
}

func TestShutdownRecordsWhatIsLeft(t *testing.T) {
	release := make(chan struct{})
	m := &fakeMetric{name: "m", judge: "j", needs: scorer.InResponse,
		score: func(ctx context.Context, _ *scorer.Instance) (scorer.Result, error) {
			select {
			case <-release:
			case <-ctx.Done():
				return scorer.Result{}, &judge.Error{Class: judge.ClassCanceled, Err: ctx.Err()}
			}
			return scorer.Result{Score: 1}, nil
		}}
	rec := &recorder{}
	s, err := New([]Metric{{Metric: m, Policy: policy(t, 1)}}, rec, Options{Workers: map[string]int{"j": 1}}, telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	s.Start(t.Context())
	for i := range 3 {
		offer(s, instance(fmt.Sprint(i), "x"))
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := s.Shutdown(ctx); err == nil {
		t.Fatal("Shutdown with an ended context returned nil")
	}
	close(release)
	late := offer(s, instance("late", "x"))
	if outcomes(late)["m"] != scorer.OutcomeShuttingDown {
		t.Errorf("offer after shutdown: %v", late.Decisions)
	}
	n := 0
	for _, ev := range rec.all() {
		for _, d := range ev.Decisions {
			if d.Outcome != scorer.OutcomeShuttingDown {
				t.Errorf("decision %+v after a cut-short shutdown", d)
			}
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d decisions exported for 3 queued runs", n)
	}
}

func TestShedOldestKeepsTheNewestRuns(t *testing.T) {
	m := &fakeMetric{name: "m", judge: "j", needs: scorer.InResponse}
	rec := &recorder{}
	s, err := New([]Metric{{Metric: m, Policy: policy(t, 1)}}, rec, Options{QueueSize: 2, ShedOldest: true}, telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	// Not started: nothing drains the queue.
	for i := range 5 {
		if got := outcomes(offer(s, instance(fmt.Sprint(i), "x")))["m"]; got != scorer.OutcomeQueued {
			t.Errorf("run %d: %q, want queued", i, got)
		}
	}
	var shed []string
	for _, ev := range rec.all() {
		for _, d := range ev.Decisions {
			if d.Outcome != scorer.OutcomeQueueFull || d.Reason != "shed_oldest" {
				t.Errorf("decision %+v", d)
			}
			shed = append(shed, ev.Trajectory.TraceID)
		}
	}
	if fmt.Sprint(shed) != "[0 1 2]" {
		t.Errorf("shed runs %v, want [0 1 2]", shed)
	}
	if n := testutil.ToFloat64(s.tel.skipped.WithLabelValues("m", scorer.OutcomeQueueFull)); n != 3 {
		t.Errorf("skipped{queue_full} = %v, want 3", n)
	}
}

func TestBlockingStageWaitsInsteadOfSkipping(t *testing.T) {
	m := &fakeMetric{name: "m", judge: "j", needs: scorer.InResponse,
		score: func(context.Context, *scorer.Instance) (scorer.Result, error) {
			time.Sleep(time.Millisecond)
			return scorer.Result{Score: 1}, nil
		}}
	rec := &recorder{}
	s, err := New([]Metric{{Metric: m, Policy: policy(t, 1)}}, rec, Options{QueueSize: 1, Blocking: true, Workers: map[string]int{"j": 1}}, telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	s.Start(t.Context())
	for i := range 20 {
		if got := outcomes(offer(s, instance(fmt.Sprint(i), fmt.Sprint(i))))["m"]; got != scorer.OutcomeQueued {
			t.Fatalf("run %d: %q, want queued", i, got)
		}
	}
	if err := s.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := m.calls.Load(); n != 20 {
		t.Errorf("%d runs judged, want 20", n)
	}
}

// A metric budget paces admission at offer time: in a burst, runs beyond
// what the window can pay for are over_budget ("<metric>:paced") before
// they are queued, wherever they come in the burst.
func TestMetricBudgetPacesAdmission(t *testing.T) {
	// the burst comes half way through a minute
	mid := time.Date(2026, 3, 1, 10, 0, 30, 0, time.UTC)
	b := judge.NewBudget("m", judge.BudgetConfig{CallsPerMinute: 2}, func() time.Time { return mid })
	m := &fakeMetric{name: "m", judge: "j", needs: scorer.InResponse}
	s, err := New([]Metric{{Metric: m, Policy: policy(t, 1), Budget: b}}, &recorder{}, Options{QueueSize: 1000}, telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	paced, queued := 0, 0
	for i := range 200 {
		ev := offer(s, instance(randomTraceID(r), fmt.Sprintf("answer %d", i)))
		for _, d := range ev.Decisions {
			switch {
			case d.Outcome == scorer.OutcomeOverBudget && d.Reason == "m:paced":
				paced++
			case d.Outcome == scorer.OutcomeQueued:
				queued++
			}
		}
	}
	if paced == 0 || queued == 0 || paced+queued != 200 {
		t.Errorf("%d paced, %d queued of 200", paced, queued)
	}
}
