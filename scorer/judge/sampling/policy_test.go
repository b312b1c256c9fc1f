package sampling

import (
	"bytes"
	"math"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

func decodeConfig(t *testing.T, b []byte) Config {
	t.Helper()
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return c
}

func TestConfigFromYAML(t *testing.T) {
	b, err := os.ReadFile("testdata/policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c := decodeConfig(t, b)
	if err := c.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if c.EffectiveRate() != 0.05 {
		t.Errorf("rate = %v, want 0.05", c.EffectiveRate())
	}
	var names []string
	for _, r := range c.Always {
		names = append(names, r.RuleName())
	}
	if got, want := strings.Join(names, ","), "failed,tool_errors,unsupported_facts_above,score_below:tool_args_valid"; got != want {
		t.Errorf("rules = %s, want %s", got, want)
	}
	if got := c.Always[0].maxPerMinute(); got != 2 {
		t.Errorf("always[0] cap = %d, want 2", got)
	}
	if got := c.Always[1].maxPerMinute(); got != DefaultMaxPerMinute {
		t.Errorf("always[1] cap = %d, want the default %d", got, DefaultMaxPerMinute)
	}
	p, err := New(c, newFakeClock().Now)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.Rules(), ","); got != strings.Join(names, ",") {
		t.Errorf("Policy.Rules = %s, want %s", got, strings.Join(names, ","))
	}
	if p.Rate() != 0.05 {
		t.Errorf("Policy.Rate = %v", p.Rate())
	}
	run := Run{
		TraceID: traceOutside(0.05), Service: "search-eu", Environment: "prod", ServiceVersion: "1.2",
		Attributes: map[string]string{"tenant": "beta-7"}, Failed: true,
	}
	if d := p.Decide(run); d != (Decision{Outcome: OutcomeAlways, Rule: "failed"}) {
		t.Errorf("Decide = %+v, want always by failed", d)
	}
	run.Attributes = map[string]string{"tenant": "globex"}
	if d := p.Decide(run); d.Outcome != OutcomeFiltered {
		t.Errorf("Decide = %+v, want filtered", d)
	}
}

func TestConfigDefaults(t *testing.T) {
	c := decodeConfig(t, []byte("{}\n"))
	if c.EffectiveRate() != DefaultRate || DefaultRate != 1 {
		t.Errorf("default rate = %v, want 1", c.EffectiveRate())
	}
	c = decodeConfig(t, []byte("rate: 0\n"))
	if c.Rate == nil || c.EffectiveRate() != 0 {
		t.Errorf("explicit rate 0 read as %v", c.EffectiveRate())
	}
}

func TestConfigRejectsUnknownKeys(t *testing.T) {
	var c Config
	dec := yaml.NewDecoder(strings.NewReader("always:\n  - failed: true\n    max_per_min: 3\n"))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err == nil || !strings.Contains(err.Error(), "max_per_min") {
		t.Errorf("decode error = %v, want one naming max_per_min", err)
	}
}

func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want []string // substrings of the error; nil for valid
	}{
		{"empty", Config{}, nil},
		{"rate bounds", Config{Rate: ptr(0.0)}, nil},
		{"rate one", Config{Rate: ptr(1.0)}, nil},
		{"rate above one", Config{Rate: ptr(1.5)}, []string{"rate: must be in [0, 1], got 1.5"}},
		{"negative rate", Config{Rate: ptr(-0.1)}, []string{"rate: must be in [0, 1]"}},
		{"NaN rate", Config{Rate: ptr(math.NaN())}, []string{"rate: must be in [0, 1], got NaN"}},
		{"filter key", Config{Filter: Filter{ServiceVersion: []string{"v[1"}}}, []string{"filter.service_version[0]: bad glob pattern"}},
		{"no condition", Config{Always: []RuleConfig{{MaxPerMinute: ptr(3)}}}, []string{"always[0].needs one condition"}},
		{"two conditions", Config{Always: []RuleConfig{{Failed: true, ToolErrors: true}}}, []string{"always[0].sets more than one condition"}},
		{"zero cap", Config{Always: []RuleConfig{{Failed: true, MaxPerMinute: ptr(0)}}}, []string{"always[0].max_per_minute: must be > 0, got 0"}},
		{"negative cap", Config{Always: []RuleConfig{{Failed: true}, {ToolErrors: true, MaxPerMinute: ptr(-1)}}}, []string{"always[1].max_per_minute: must be > 0, got -1"}},
		{"score_below without metric", Config{Always: []RuleConfig{{ScoreBelow: &ScoreBelow{Threshold: 1}}}}, []string{"always[0].score_below.metric: must not be empty"}},
		{"score_below infinite", Config{Always: []RuleConfig{{ScoreBelow: &ScoreBelow{Metric: "m", Threshold: math.Inf(1)}}}}, []string{"always[0].score_below.threshold: must be a finite number"}},
		{"unsupported_facts NaN", Config{Always: []RuleConfig{{UnsupportedFactsAbove: ptr(math.NaN())}}}, []string{"always[0].unsupported_facts_above: must be a finite number"}},
		{"duplicate rule", Config{Always: []RuleConfig{{Failed: true}, {Failed: true, MaxPerMinute: ptr(1)}}}, []string{`always[1].name: duplicate rule "failed" (also always[0])`}},
		{"named duplicates allowed", Config{Always: []RuleConfig{{Failed: true}, {Name: "failed_slow", Failed: true}}}, nil},
		{"two score_below metrics", Config{Always: []RuleConfig{
			{ScoreBelow: &ScoreBelow{Metric: "a", Threshold: 1}}, {ScoreBelow: &ScoreBelow{Metric: "b", Threshold: 1}},
		}}, nil},
		{"every error reported", Config{Rate: ptr(2.0), Filter: Filter{Agent: []string{"["}}, Always: []RuleConfig{{}, {Failed: true, MaxPerMinute: ptr(0)}}},
			[]string{"rate:", "filter.agent[0]:", "always[0].needs one condition", "always[1].max_per_minute"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Validate()
			if tc.want == nil {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				if _, err := New(tc.cfg, nil); err != nil {
					t.Fatalf("New: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("Validate accepted an invalid config")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			if p, err := New(tc.cfg, nil); err == nil || p != nil {
				t.Errorf("New accepted an invalid config")
			}
		})
	}
}

// TestRules checks each always-judge rule's condition, with the rate at 0
// so that only rules select runs.
func TestRules(t *testing.T) {
	scores := mapScores
	for _, tc := range []struct {
		name string
		rule RuleConfig
		run  Run
		want bool
	}{
		{"failed", RuleConfig{Failed: true}, Run{Failed: true}, true},
		{"not failed", RuleConfig{Failed: true}, Run{ToolErrors: 3}, false},
		{"tool errors", RuleConfig{ToolErrors: true}, Run{ToolErrors: 1}, true},
		{"no tool errors", RuleConfig{ToolErrors: true}, Run{Failed: true}, false},
		{"unsupported facts above", RuleConfig{UnsupportedFactsAbove: ptr(0.0)}, Run{Score: scores(map[string]float64{"unsupported_facts": 0.5})}, true},
		{"unsupported facts at threshold", RuleConfig{UnsupportedFactsAbove: ptr(0.5)}, Run{Score: scores(map[string]float64{"unsupported_facts": 0.5})}, false},
		{"unsupported facts zero", RuleConfig{UnsupportedFactsAbove: ptr(0.0)}, Run{Score: scores(map[string]float64{"unsupported_facts": 0})}, false},
		{"unsupported facts not scored", RuleConfig{UnsupportedFactsAbove: ptr(0.0)}, Run{Score: scores(map[string]float64{"other": 9})}, false},
		{"unsupported facts nil lookup", RuleConfig{UnsupportedFactsAbove: ptr(-1.0)}, Run{}, false},
		{"unsupported facts NaN score", RuleConfig{UnsupportedFactsAbove: ptr(0.0)}, Run{Score: scores(map[string]float64{"unsupported_facts": math.NaN()})}, false},
		{"score below", RuleConfig{ScoreBelow: &ScoreBelow{Metric: "tool_args_valid", Threshold: 1}}, Run{Score: scores(map[string]float64{"tool_args_valid": 0.75})}, true},
		{"score at threshold", RuleConfig{ScoreBelow: &ScoreBelow{Metric: "tool_args_valid", Threshold: 1}}, Run{Score: scores(map[string]float64{"tool_args_valid": 1})}, false},
		{"score of another metric", RuleConfig{ScoreBelow: &ScoreBelow{Metric: "tool_args_valid", Threshold: 1}}, Run{Score: scores(map[string]float64{"bleu": 0})}, false},
		{"score below nil lookup", RuleConfig{ScoreBelow: &ScoreBelow{Metric: "m", Threshold: 100}}, Run{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(Config{Rate: ptr(0.0), Always: []RuleConfig{tc.rule}}, newFakeClock().Now)
			if err != nil {
				t.Fatal(err)
			}
			tc.run.TraceID = "4bf92f3577b34da6a3ce929d0e0e4736"
			d := p.Decide(tc.run)
			want := Decision{Outcome: OutcomeSampledOut}
			if tc.want {
				want = Decision{Outcome: OutcomeAlways, Rule: tc.rule.RuleName()}
			}
			if d != want {
				t.Errorf("Decide = %+v, want %+v", d, want)
			}
		})
	}
}

// TestRuleCaps checks each rule's max_per_minute with a fake clock: at
// most the cap per window, a new window after a minute, and a capped rule
// that lets the next rule select the run.
func TestRuleCaps(t *testing.T) {
	clk := newFakeClock()
	p, err := New(Config{Rate: ptr(0.0), Always: []RuleConfig{
		{Failed: true, MaxPerMinute: ptr(2)},
		{ToolErrors: true, MaxPerMinute: ptr(1)},
		{ScoreBelow: &ScoreBelow{Metric: "m", Threshold: 0.5}}, // default cap
	}}, clk.Now)
	if err != nil {
		t.Fatal(err)
	}
	failedRun := Run{TraceID: "a", Failed: true, ToolErrors: 1}
	want := []Decision{
		{Outcome: OutcomeAlways, Rule: "failed"},
		{Outcome: OutcomeAlways, Rule: "failed"},
		{Outcome: OutcomeAlways, Rule: "tool_errors"}, // failed is capped: next rule
		{Outcome: OutcomeSampledOut, Rule: "failed", Capped: true},
	}
	for i, w := range want {
		if d := p.Decide(failedRun); d != w {
			t.Fatalf("decision %d = %+v, want %+v", i, d, w)
		}
	}
	clk.Advance(59 * time.Second)
	if d := p.Decide(failedRun); d.Outcome != OutcomeSampledOut || !d.Capped {
		t.Fatalf("within the minute: %+v, want capped", d)
	}
	clk.Advance(time.Second) // the window opened at the first decision
	if d := p.Decide(failedRun); d != (Decision{Outcome: OutcomeAlways, Rule: "failed"}) {
		t.Fatalf("next minute: %+v, want always by failed", d)
	}

	// The default cap.
	low := Run{TraceID: "b", Score: mapScores(map[string]float64{"m": 0})}
	for i := range DefaultMaxPerMinute {
		if d := p.Decide(low); d.Outcome != OutcomeAlways {
			t.Fatalf("score_below run %d: %+v, want always", i, d)
		}
	}
	if d := p.Decide(low); d != (Decision{Outcome: OutcomeSampledOut, Rule: "score_below:m", Capped: true}) {
		t.Fatalf("past the default cap: %+v", d)
	}
}

func TestRuleCapClockStepsBack(t *testing.T) {
	clk := newFakeClock()
	p, err := New(Config{Rate: ptr(0.0), Always: []RuleConfig{{Failed: true, MaxPerMinute: ptr(1)}}}, clk.Now)
	if err != nil {
		t.Fatal(err)
	}
	r := Run{Failed: true}
	if d := p.Decide(r); d.Outcome != OutcomeAlways {
		t.Fatalf("first: %+v", d)
	}
	if d := p.Decide(r); d.Outcome != OutcomeSampledOut {
		t.Fatalf("second: %+v", d)
	}
	clk.Advance(-time.Hour)
	if d := p.Decide(r); d.Outcome != OutcomeAlways {
		t.Fatalf("after the clock stepped back: %+v, want a new window", d)
	}
}

// TestRuleCapConcurrent checks that concurrent decisions never exceed a
// rule's cap.
func TestRuleCapConcurrent(t *testing.T) {
	const capN, workers, each = 25, 8, 50
	p, err := New(Config{Rate: ptr(0.0), Always: []RuleConfig{{Failed: true, MaxPerMinute: ptr(capN)}}}, newFakeClock().Now)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	counts := map[Outcome]int{}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				d := p.Decide(Run{Failed: true})
				mu.Lock()
				counts[d.Outcome]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if counts[OutcomeAlways] != capN || counts[OutcomeSampledOut] != workers*each-capN {
		t.Errorf("outcomes = %v, want %d always", counts, capN)
	}
}

func TestDecideOrder(t *testing.T) {
	clk := newFakeClock()
	cfg := Config{
		Rate:   ptr(0.1),
		Filter: Filter{Service: []string{"checkout"}},
		Always: []RuleConfig{{Failed: true, MaxPerMinute: ptr(1)}},
	}
	p, err := New(cfg, clk.Now)
	if err != nil {
		t.Fatal(err)
	}
	in, out := traceInside(0.1), traceOutside(0.1)

	// The filter wins over rules.
	if d := p.Decide(Run{TraceID: out, Service: "search", Failed: true}); d != (Decision{Outcome: OutcomeFiltered}) {
		t.Errorf("filtered failed run: %+v", d)
	}
	// A sampled run uses no rule's cap.
	for range 3 {
		if d := p.Decide(Run{TraceID: in, Service: "checkout", Failed: true}); d != (Decision{Outcome: OutcomeSampled}) {
			t.Fatalf("sampled failed run: %+v", d)
		}
	}
	if d := p.Decide(Run{TraceID: out, Service: "checkout", Failed: true}); d != (Decision{Outcome: OutcomeAlways, Rule: "failed"}) {
		t.Errorf("failed run outside the sample: %+v, want always (the cap was not used)", d)
	}
	if d := p.Decide(Run{TraceID: out, Service: "checkout"}); d != (Decision{Outcome: OutcomeSampledOut}) {
		t.Errorf("healthy run outside the sample: %+v", d)
	}
	if !(Decision{Outcome: OutcomeSampled}).Judge() || !(Decision{Outcome: OutcomeAlways}).Judge() ||
		(Decision{Outcome: OutcomeSampledOut}).Judge() || (Decision{Outcome: OutcomeFiltered}).Judge() {
		t.Error("Judge disagrees with the outcomes")
	}
}

// TestDecideSameRunsAcrossMetrics checks that two metrics at the same rate
// judge the same runs, and a metric at a lower rate a subset of them.
func TestDecideSameRunsAcrossMetrics(t *testing.T) {
	mk := func(rate float64) *Policy {
		p, err := New(Config{Rate: ptr(rate)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b, low := mk(0.1), mk(0.1), mk(0.05)
	n := 0
	for _, id := range randomTraceIDs(5000) {
		r := Run{TraceID: id}
		da, db, dl := a.Decide(r), b.Decide(r), low.Decide(r)
		if da != db {
			t.Fatalf("trace %s: %+v and %+v at the same rate", id, da, db)
		}
		if dl.Judge() && !da.Judge() {
			t.Fatalf("trace %s judged at 5%% but not at 10%%", id)
		}
		if da.Judge() {
			n++
		}
	}
	if n == 0 {
		t.Fatal("no run sampled at 10%")
	}
}

func TestRunOf(t *testing.T) {
	tr := &agentrun.Trajectory{
		TraceID: "abc", Service: "svc", ServiceVersion: "2", Environment: "prod", Agent: "bot",
		Failed: true, Attributes: map[string]string{"k": "v"},
		ToolCalls: []agentrun.ToolCall{{Name: "a"}, {Name: "b", Error: "timeout"}, {Name: "c", Error: "404"}},
	}
	r := RunOf(tr, mapScores(map[string]float64{"m": 0.25}))
	if r.TraceID != "abc" || r.Service != "svc" || r.ServiceVersion != "2" || r.Environment != "prod" ||
		r.Agent != "bot" || !r.Failed || r.Attributes["k"] != "v" || r.ToolErrors != 2 {
		t.Errorf("RunOf = %+v", r)
	}
	if s, ok := r.score("m"); !ok || s != 0.25 {
		t.Errorf("score(m) = %v, %v", s, ok)
	}
	if _, ok := r.score("other"); ok {
		t.Error("score(other) found")
	}
	if r := RunOf(&agentrun.Trajectory{}, nil); r.ToolErrors != 0 || r.Failed {
		t.Errorf("empty trajectory: %+v", r)
	}
}

// mapScores returns a score lookup over a map from metric id to score.
func mapScores(m map[string]float64) func(metric string) (float64, bool) {
	return func(metric string) (float64, bool) {
		s, ok := m[metric]
		return s, ok
	}
}
