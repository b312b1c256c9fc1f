package config

import (
	"os"
	"strings"
	"testing"
)

func TestJudgeSectionErrorsNameTheKey(t *testing.T) {
	cases := []struct {
		name, doc string
		want      []string
	}{
		{"metric without judge", `
judge:
  metrics: [{name: coherence}]`, []string{"judge.judges: judge metrics are configured but no judge is"}},
		{"judge without model", `
judge:
  judges: [{name: primary, provider: openai}]
  metrics: [{name: coherence}]`, []string{"judge.judges[0].model"}},
		{"unknown provider", `
judge:
  judges: [{name: primary, provider: bard, model: m}]`, []string{"judge.judges[0].provider"}},
		{"unknown judge metric", `
judge:
  judges: [{name: primary, provider: openai, model: m, api_key: k}]
  metrics: [{name: coherense}]`, []string{"judge.metrics[0]", "coherense"}},
		{"deterministic metric as judge metric", `
judge:
  judges: [{name: primary, provider: openai, model: m, api_key: k}]
  metrics: [{name: latency}]`, []string{"judge.metrics[0]", "not a judge metric"}},
		{"unknown judge name", `
judge:
  judges: [{name: primary, provider: openai, model: m, api_key: k}]
  metrics: [{name: coherence, params: {judge: secondary}}]`, []string{"judge.metrics[0]", `unknown judge "secondary"`}},
		{"bad sampling rate", `
judge:
  judges: [{name: primary, provider: openai, model: m, api_key: k}]
  metrics: [{name: coherence, sampling: {rate: 1.5}}]`, []string{"judge.metrics[0].sampling.rate"}},
		{"unknown field", `
judge:
  judges: [{name: primary, provider: openai, model: m, api_key: k}]
  metrics: [{name: coherence, fields: [prompt, secrets]}]`, []string{"judge.metrics[0].fields[1]"}},
		{"unknown fallback", `
judge:
  judges: [{name: primary, provider: openai, model: m, api_key: k, fallback: nope}]`, []string{"judge.judges[0].fallback"}},
		{"unknown key", `
judge:
  judges: [{name: primary, provider: openai, model: m, api_key: k, temprature: 0}]`, []string{"judge.judges[0].temprature"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.doc), func(string) (string, bool) { return "", false })
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestJudgeSecretsComeFromTheEnvironment(t *testing.T) {
	doc := `
judge:
  judges: [{name: primary, provider: anthropic, model: claude-sonnet-4-5, api_key: "${env:ANTHROPIC_API_KEY}"}]
  metrics: [{name: hallucination_v1, sampling: {rate: 0.05}, budget: {tokens_per_day: 1000000}}]`
	cfg, err := Parse([]byte(doc), func(k string) (string, bool) {
		if k == "ANTHROPIC_API_KEY" {
			return "sk-ant-test", true
		}
		return "", false
	})
	if err != nil {
		t.Fatal(err)
	}
	j := cfg.Judge.Judges[0]
	if string(j.APIKey) != "sk-ant-test" || j.Timeout == 0 || j.MaxRetries != 3 || j.MaxConcurrency != 4 {
		t.Errorf("judge = %+v", j.ClientConfig)
	}
	if r := cfg.Judge.Metrics[0].Sampling.EffectiveRate(); r != 0.05 {
		t.Errorf("rate %v", r)
	}
}

// TestDocsJudgeExample keeps the judge example of docs/judge.md valid: it
// must parse, build every judge metric and sample 5 % of one agent's runs.
func TestDocsJudgeExample(t *testing.T) {
	page, err := os.ReadFile("../../docs/judge.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(page)
	i := strings.Index(text, "Hallucination and a custom rubric for one agent")
	if i < 0 {
		t.Fatal("docs/judge.md lost its judge example")
	}
	start := strings.Index(text[i:], "```yaml\n")
	end := strings.Index(text[i+start+8:], "```")
	if start < 0 || end < 0 {
		t.Fatal("docs/judge.md judge example is not a yaml block")
	}
	doc := text[i+start+8 : i+start+8+end]
	cfg, err := Parse([]byte(doc), func(k string) (string, bool) { return "test-key", k == "OPENAI_API_KEY" })
	if err != nil {
		t.Fatalf("docs/judge.md judge example: %v", err)
	}
	if len(cfg.Judge.Metrics) != 2 {
		t.Fatalf("%d judge metrics", len(cfg.Judge.Metrics))
	}
	for _, m := range cfg.Judge.Metrics {
		if r := m.Sampling.EffectiveRate(); r != 0.05 || len(m.Sampling.Filter.Agent) != 1 {
			t.Errorf("%s: rate %v filter %v", m.Name, r, m.Sampling.Filter)
		}
	}
	if cfg.Judge.Judges[0].Budget.TokensPerDay == 0 {
		t.Error("no daily token budget in the example")
	}
}

func TestJudgeFallbackCycleIsAConfigError(t *testing.T) {
	doc := `
judge:
  judges:
    - {name: a, provider: openai, model: m, api_key: k, fallback: b}
    - {name: b, provider: openai, model: m, api_key: k, fallback: a}`
	_, err := Parse([]byte(doc), func(string) (string, bool) { return "", false })
	if err == nil || !strings.Contains(err.Error(), `judge.judges: judge "a": fallback cycle a -> b -> a`) {
		t.Errorf("err = %v", err)
	}
}
