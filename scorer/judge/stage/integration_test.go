package stage

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"gopkg.in/yaml.v3"

	"github.com/evalsidecar/evalsidecar/internal/promtest"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
)

// parseConfig decodes a judge section over the defaults.
func parseConfig(t *testing.T, doc string) Config {
	t.Helper()
	cfg := DefaultConfig()
	if err := yaml.Unmarshal([]byte(doc), &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// coherenceOf builds the parts of cfg and returns its first metric.
func coherenceOf(t *testing.T, cfg Config, reg prometheus.Registerer) (scorer.Judged, *Parts) {
	t.Helper()
	parts, err := BuildParts(cfg, Settings{Settings: telemetry.Settings{Registerer: reg}})
	if err != nil {
		t.Fatal(err)
	}
	return parts.Metrics[0].Metric, parts
}

func answerInstance() *scorer.Instance {
	return &scorer.Instance{Prompt: "Where is my order?", Response: "It ships tomorrow.", Has: scorer.InPrompt | scorer.InResponse}
}

// TestRetryAfterIsHonouredOverTheWire: a 429 with retry-after: 1 from an
// OpenAI-format server is retried, and never before the second.
func TestRetryAfterIsHonouredOverTheWire(t *testing.T) {
	srv := judgetest.New(t)
	srv.Enqueue(judgetest.OpenAI, judgetest.RetryAfter(time.Second), judgetest.JSON(`{"explanation": "fine", "score": 5}`))
	cfg := parseConfig(t, fmt.Sprintf(`
judges:
  - {name: primary, provider: openai, model: m, base_url: %s, api_key: k, max_retries: 2}
metrics:
  - name: coherence
`, srv.OpenAIBaseURL()))
	m, _ := coherenceOf(t, cfg, nil)
	res, err := m.Score(t.Context(), answerInstance())
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 5 || res.Judge == nil || res.Judge.Attempts != 2 {
		t.Fatalf("result %+v judge %+v", res, res.Judge)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if gap := reqs[1].Time.Sub(reqs[0].Time); gap < time.Second {
		t.Errorf("retry sent %s after the 429, before its retry-after of 1s", gap)
	}
}

// TestFallbackTakesOverWhenTheCircuitOpens: the primary (OpenAI format)
// keeps failing with 500; after circuit.failures failed calls its circuit
// opens and the fallback (Anthropic format) answers, with the fallback
// named in the usage. Nothing is scored from a failed call.
func TestFallbackTakesOverWhenTheCircuitOpens(t *testing.T) {
	primary, backup := judgetest.New(t), judgetest.New(t)
	primary.SetDefault(judgetest.OpenAI, judgetest.Status(500))
	backup.SetDefault(judgetest.Anthropic, judgetest.JSON(`{"explanation": "fine", "score": 3}`))
	cfg := parseConfig(t, fmt.Sprintf(`
judges:
  - {name: primary, provider: openai, model: gpt, base_url: %s, api_key: k, max_retries: 0, fallback: backup, circuit: {failures: 3, open_for: 1h}}
  - {name: backup, provider: anthropic, model: claude, base_url: %s, api_key: k, max_retries: 0}
metrics:
  - {name: coherence, params: {judge: primary}}
`, primary.OpenAIBaseURL(), backup.URL()))
	reg := prometheus.NewRegistry()
	m, _ := coherenceOf(t, cfg, reg)
	for i := range 3 {
		if _, err := m.Score(t.Context(), answerInstance()); judge.ClassOf(err) != judge.ClassServerError {
			t.Fatalf("call %d: err %v, want server_error", i, err)
		}
	}
	// Only the primary's circuit is open.
	const circuits = `
# HELP evalsidecar_judge_circuit_open 1 while the judge's circuit breaker is open or half-open, else 0.
# TYPE evalsidecar_judge_circuit_open gauge
evalsidecar_judge_circuit_open{judge="backup"} 0
evalsidecar_judge_circuit_open{judge="primary"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(circuits), "evalsidecar_judge_circuit_open"); err != nil {
		t.Fatalf("circuits after 3 failures (- got, + want):\n%v", err)
	}
	for range 5 {
		res, err := m.Score(t.Context(), answerInstance())
		if err != nil {
			t.Fatal(err)
		}
		if res.Score != 3 || res.Judge.Judge != "backup" || res.Judge.Provider != "anthropic" {
			t.Fatalf("result %+v judge %+v", res, res.Judge)
		}
	}
	if n := len(primary.Requests()); n != 3 {
		t.Errorf("primary got %d requests, want 3 (none while open)", n)
	}
	if n := len(backup.Requests()); n != 5 {
		t.Errorf("backup got %d requests, want 5", n)
	}
	if err := testutil.GatherAndCompare(reg, strings.NewReader(circuits), "evalsidecar_judge_circuit_open"); err != nil {
		t.Errorf("circuits (- got, + want):\n%v", err)
	}
}

// TestBudgetHoldsToTheCall: a judge budget of 3 calls per minute lets
// exactly 3 judge calls through; the rest are over_budget in the ledger
// and never reach the server.
func TestBudgetHoldsToTheCall(t *testing.T) {
	srv := judgetest.New(t)
	srv.SetDefault(judgetest.OpenAI, judgetest.JSON(`{"explanation": "fine", "score": 4}`))
	cfg := parseConfig(t, fmt.Sprintf(`
judges:
  - {name: primary, provider: openai, model: m, base_url: %s, api_key: k, budget: {calls_per_minute: 3}}
metrics:
  - name: coherence
`, srv.OpenAIBaseURL()))
	rec := &recorder{}
	st, err := Build(cfg, rec, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	st.Start(t.Context())
	for i := range 10 {
		in := answerInstance()
		in.Response = fmt.Sprintf("answer %d", i) // distinct content: no cache hits
		offer(st, in)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if err := st.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, ev := range rec.all() {
		for _, d := range ev.Decisions {
			count[d.Outcome]++
		}
	}
	if count[scorer.OutcomeScored] != 3 || count[scorer.OutcomeOverBudget] != 7 {
		t.Errorf("outcomes %v, want 3 scored and 7 over_budget", count)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests reached the judge, want 3", n)
	}
}

// TestMaxPromptTokensSkips: a prompt over the judge's max_prompt_tokens is
// never sent; the run is not applicable with reason prompt_too_long,
// counted, and a short prompt still goes through.
func TestMaxPromptTokensSkips(t *testing.T) {
	srv := judgetest.New(t)
	srv.SetDefault(judgetest.OpenAI, judgetest.JSON(`{"explanation": "fine", "score": 4}`))
	cfg := parseConfig(t, fmt.Sprintf(`
judges:
  - {name: small, provider: openai, model: m, base_url: %s, api_key: k, max_prompt_tokens: 700}
metrics:
  - name: coherence
`, srv.OpenAIBaseURL()))
	reg := prometheus.NewRegistry()
	rec := &recorder{}
	st, err := Build(cfg, rec, Settings{Settings: telemetry.Settings{Registerer: reg}})
	if err != nil {
		t.Fatal(err)
	}
	st.Start(t.Context())
	long := answerInstance()
	long.Response = strings.Repeat("a very long answer ", 400)
	offer(st, long)
	offer(st, answerInstance())
	if err := st.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, ev := range rec.all() {
		for _, d := range ev.Decisions {
			got[d.Outcome] = d.Reason
		}
	}
	if r, ok := got[scorer.OutcomeNotApplicable]; !ok || r != "prompt_too_long" {
		t.Errorf("decisions %v, want not_applicable: prompt_too_long", got)
	}
	if _, ok := got[scorer.OutcomeScored]; !ok {
		t.Errorf("the short prompt was not judged: %v", got)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests reached the judge, want 1", n)
	}
	if v := promtest.Sum(t, reg, "evalsidecar_judge_requests_total", prometheus.Labels{"outcome": "prompt_too_long"}); v != 1 {
		t.Errorf("prompt_too_long counted %v times, want 1", v)
	}
}
