package pipeline

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/attribute"

	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/promtest"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
	"github.com/evalsidecar/evalsidecar/scorer/judge/sampling"
)

// plantedSecrets are put in the runs' user input, tool results and final
// answers; none may reach a judge request.
var plantedSecrets = []string{
	"jane.doe@example.com",
	"4111 1111 1111 1111",
	"sk-proj-Abc123Def456Ghi789Jkl012Mno345",
	"AKIAIOSFODNN7EXAMPLE",
	"ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
	"DE89 3704 0044 0532 0130 00",
	"+1 415 555 0134",
	"203.0.113.77",
}

// judgeConfig is the judge section a user writes to judge every run for
// coherence and half of them with a custom rubric, with a daily token
// budget.
const judgeConfig = `
judge:
  judges:
    - name: primary
      provider: openai
      model: judge-model
      base_url: %s
      api_key: sk-test-key-not-a-secret-of-the-runs
      prices: {input_per_million_tokens: 1, output_per_million_tokens: 4}
  metrics:
    - name: coherence
      budget: {tokens_per_day: 10000000}
    - name: conciseness
      type: pointwise
      params:
        criteria: {Conciseness: "The answer is short and to the point."}
        rating_rubric: {1: "Concise", 0: "Wordy"}
        input_variables: [prompt]
      sampling: {rate: 0.5}
`

// TestJudgeEndToEnd sends runs through the real OTel SDK to a sidecar with
// two judge metrics whose judge is a local server speaking the OpenAI chat
// completions format. Every coherence judgement and the sampled half of the
// custom rubric must come back as follow-up scores with judge usage; the
// ledger must say why every other run was not judged; and no planted
// secret may appear in a judge request.
func TestJudgeEndToEnd(t *testing.T) {
	srv := judgetest.New(t)
	srv.Handle(judgetest.OpenAI, func(r judgetest.CapturedRequest) judgetest.Reply {
		reply := judgetest.JSON(`{"explanation": "clear and relevant", "score": 4}`)
		if strings.Contains(r.System+r.User, "Conciseness") {
			reply = judgetest.JSON(`{"explanation": "short", "score": 1}`)
		}
		reply.InputTokens, reply.OutputTokens = 300, 20
		return reply
	})
	dir := t.TempDir()
	data := []byte(fmt.Sprintf(judgeConfig, srv.OpenAIBaseURL()))
	cfg, err := config.Parse(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	def := testConfig(dir)
	cfg.Receiver, cfg.Exporters, cfg.Extractor = def.Receiver, def.Exporters, def.Extractor
	p, ctx := startOnline(t, cfg, Options{})
	tp := sdkTracerProvider(t, ctx, p, "support-agent")
	tracer := tp.Tracer("judge-test")
	secrets := strings.Join(plantedSecrets, ", ")
	const runs = 24
	var ids []string
	for i := range runs {
		rctx, root := tracer.Start(ctx, "invoke_agent support")
		root.SetAttributes(
			attribute.String("gen_ai.operation.name", "invoke_agent"),
			attribute.String("gen_ai.agent.name", "support"),
			attribute.String("gen_ai.input.messages", fmt.Sprintf(`[{"role":"user","parts":[{"type":"text","content":"Question %d from %s: where is order ORD-%d?"}]}]`, i, secrets, 1000+i)),
			attribute.String("gen_ai.output.messages", fmt.Sprintf(`[{"role":"assistant","parts":[{"type":"text","content":"Order ORD-%d ships tomorrow; we wrote to jane.doe@example.com."}]}]`, 1000+i)),
		)
		_, tool := tracer.Start(rctx, "execute_tool lookup_order")
		tool.SetAttributes(
			attribute.String("gen_ai.operation.name", "execute_tool"),
			attribute.String("gen_ai.tool.name", "lookup_order"),
			attribute.String("gen_ai.tool.call.arguments", fmt.Sprintf(`{"order_id": "ORD-%d"}`, 1000+i)),
			attribute.String("gen_ai.tool.call.result", fmt.Sprintf(`{"status": "ships tomorrow", "card": "%s", "key": "%s"}`, plantedSecrets[1], plantedSecrets[3])),
		)
		tool.End()
		root.End()
		ids = append(ids, root.SpanContext().TraceID().String())
	}
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	type scoreLine struct {
		TraceID string  `json:"trace_id"`
		Metric  string  `json:"metric"`
		Score   float64 `json:"score"`
		Judge   *struct {
			Judge       string  `json:"judge"`
			Model       string  `json:"model"`
			InputTokens int64   `json:"input_tokens"`
			CostUSD     float64 `json:"cost_usd"`
			Calls       int     `json:"calls"`
		} `json:"judge"`
	}
	type decisionLine struct {
		TraceID string `json:"trace_id"`
		Metric  string `json:"metric"`
		Outcome string `json:"outcome"`
	}
	scores := map[string]map[string]scoreLine{}
	for _, s := range readLines[scoreLine](t, filepath.Join(dir, "scores.jsonl")) {
		if s.Judge == nil {
			continue
		}
		if scores[s.TraceID] == nil {
			scores[s.TraceID] = map[string]scoreLine{}
		}
		scores[s.TraceID][s.Metric] = s
	}
	final := map[string]map[string]string{} // trace → metric → final outcome
	for _, d := range readLines[decisionLine](t, filepath.Join(dir, "decisions.jsonl")) {
		if final[d.TraceID] == nil {
			final[d.TraceID] = map[string]string{}
		}
		if d.Outcome != scorer.OutcomeQueued {
			final[d.TraceID][d.Metric] = d.Outcome
		}
	}
	sampled := 0
	for _, id := range ids {
		c, ok := scores[id]["coherence"]
		if !ok || c.Score != 4 || c.Judge.Judge != "primary" || c.Judge.Model != "judge-model" || c.Judge.InputTokens != 300 || c.Judge.Calls != 1 {
			t.Errorf("run %s: coherence = %+v", id, c)
		} else if want := (300*1 + 20*4) / 1e6; c.Judge.CostUSD < want*0.999 || c.Judge.CostUSD > want*1.001 {
			t.Errorf("run %s: cost %v, want %v", id, c.Judge.CostUSD, want)
		}
		if final[id]["coherence"] != scorer.OutcomeScored {
			t.Errorf("run %s: coherence ledger outcome %q", id, final[id]["coherence"])
		}
		_, judged := scores[id]["conciseness"]
		want := scorer.OutcomeSampledOut
		if sampling.Sampled(id, 0.5) {
			want = scorer.OutcomeScored
			sampled++
			if s := scores[id]["conciseness"]; !judged || s.Score != 1 {
				t.Errorf("run %s: conciseness = %+v", id, s)
			}
		} else if judged {
			t.Errorf("run %s: judged by conciseness although outside its 50%% sample", id)
		}
		if final[id]["conciseness"] != want {
			t.Errorf("run %s: conciseness ledger outcome %q, want %q", id, final[id]["conciseness"], want)
		}
	}

	reqs := srv.Requests()
	if len(reqs) != runs+sampled {
		t.Errorf("%d judge requests, want %d", len(reqs), runs+sampled)
	}
	for _, r := range reqs {
		for _, s := range plantedSecrets {
			if strings.Contains(string(r.Body), s) {
				t.Errorf("judge request %d carries the planted secret %q", r.Seq, s)
			}
		}
		if !strings.Contains(r.User, "ORD-") {
			t.Errorf("judge request %d lost the run's order id (over-redaction): %q", r.Seq, r.User)
		}
		if !r.HasSchema() {
			t.Errorf("judge request %d asked for no structured output", r.Seq)
		}
	}

	if got := promtest.Sum(t, p.Registry, "evalsidecar_judge_requests_total", prometheus.Labels{"judge": "primary", "outcome": "ok"}); int(got) != len(reqs) {
		t.Errorf("judge_requests_total{outcome=ok} = %v, want %d", got, len(reqs))
	}
	if got := promtest.Sum(t, p.Registry, "evalsidecar_eval_skipped_total", prometheus.Labels{"metric": "conciseness", "reason": "sampled_out"}); int(got) != runs-sampled {
		t.Errorf("eval_skipped_total{conciseness,sampled_out} = %v, want %d", got, runs-sampled)
	}
	for _, typ := range []string{"email", "card", "api_key"} {
		if promtest.Sum(t, p.Registry, "evalsidecar_judge_redactions_total", prometheus.Labels{"type": typ}) == 0 {
			t.Errorf("no %s redaction counted", typ)
		}
	}
}
