package pipeline

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/attribute"

	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/promtest"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
)

// TestJudgeCostEveryDollarBilled sends twelve runs, three of each of four
// contents, through the real OTel SDK to a sidecar whose judge is the
// local judge server billing a different number of tokens per call. The
// judge is called once per content (the later runs reuse the result);
// the tokens and dollars that every sink reports (JSON lines, ClickHouse
// and the Prometheus counters), summed, equal what the server billed, and
// the reused results say cached at no cost.
func TestJudgeCostEveryDollarBilled(t *testing.T) {
	tdb := newTestDB(t, "t_billing_")
	const inPrice, outPrice = 2.5, 10.0 // USD per million tokens
	var (
		mu             sync.Mutex
		billedIn, bOut int64
		calls          int
	)
	srv := judgetest.New(t)
	srv.Handle(judgetest.OpenAI, func(r judgetest.CapturedRequest) judgetest.Reply {
		in, out := int64(len(r.Body)/4), int64(37+r.Seq)
		mu.Lock()
		billedIn, bOut, calls = billedIn+in, bOut+out, calls+1
		mu.Unlock()
		reply := judgetest.JSON(`{"explanation": "fine", "score": 4}`)
		reply.InputTokens, reply.OutputTokens = in, out
		return reply
	})
	cfg, err := config.Parse([]byte(fmt.Sprintf(`
judge:
  judges:
    - name: primary
      provider: openai
      model: judge-model
      base_url: %s
      api_key: sk-test
      prices: {input_per_million_tokens: %v, output_per_million_tokens: %v}
  metrics:
    - name: coherence
`, srv.OpenAIBaseURL(), inPrice, outPrice)), nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	def := tdb.config(testConfig(dir), dir)
	config.ExporterConfig[jsonl.Config](def.Exporters).Enabled = true
	cfg.Receiver, cfg.Exporters, cfg.Extractor = def.Receiver, def.Exporters, def.Extractor
	db, conn := tdb.db, tdb.conn

	p, ctx := startOnline(t, cfg, Options{})
	tp := sdkTracerProvider(t, ctx, p, "support-agent")
	tracer := tp.Tracer("billing-test")
	for round := range 3 {
		for i := range 4 {
			_, root := tracer.Start(ctx, "invoke_agent support")
			root.SetAttributes(
				attribute.String("gen_ai.operation.name", "invoke_agent"),
				attribute.String("gen_ai.agent.name", "support"),
				attribute.String("gen_ai.input.messages", fmt.Sprintf(`[{"role":"user","parts":[{"type":"text","content":"question %d"}]}]`, i)),
				attribute.String("gen_ai.output.messages", fmt.Sprintf(`[{"role":"assistant","parts":[{"type":"text","content":"answer %d"}]}]`, i)),
			)
			root.End()
		}
		if round == 0 { // the first round is judged before the others arrive
			for len(srv.Requests()) < 4 {
				select {
				case <-ctx.Done():
					t.Fatalf("%d judge calls for the first round, want 4", len(srv.Requests()))
				case <-time.After(20 * time.Millisecond):
				}
			}
		}
	}
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	promIn := promtest.Sum(t, p.Registry, "evalsidecar_judge_tokens_total", prometheus.Labels{"type": "input"})
	promOut := promtest.Sum(t, p.Registry, "evalsidecar_judge_tokens_total", prometheus.Labels{"type": "output"})
	promUSD := promtest.Sum(t, p.Registry, "evalsidecar_judge_cost_usd_total", nil)
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if calls != 4 {
		t.Fatalf("%d judge calls, want one per content (4)", calls)
	}
	billedUSD := (float64(billedIn)*inPrice + float64(bOut)*outPrice) / 1e6
	check := func(sink string, in, out int64, usd float64) {
		t.Helper()
		if in != billedIn || out != bOut || math.Abs(usd-billedUSD) > 1e-12 {
			t.Errorf("%s: %d input and %d output tokens, $%.9f; billed %d, %d, $%.9f", sink, in, out, usd, billedIn, bOut, billedUSD)
		}
	}
	checkCached := func(sink string, cached int) {
		t.Helper()
		if cached != 8 {
			t.Errorf("%s: %d results said cached, want 8", sink, cached)
		}
	}

	type judgeUsage struct {
		InputTokens  int64   `json:"input_tokens"`
		OutputTokens int64   `json:"output_tokens"`
		CostUSD      float64 `json:"cost_usd"`
		Cached       bool    `json:"cached"`
	}
	var in, out int64
	var usd float64
	cached := 0
	for _, s := range readLines[struct {
		Judge *judgeUsage `json:"judge"`
	}](t, filepath.Join(dir, "scores.jsonl")) {
		if j := s.Judge; j != nil {
			in, out, usd = in+j.InputTokens, out+j.OutputTokens, usd+j.CostUSD
			if j.Cached {
				cached++
			}
		}
	}
	check("JSON lines", in, out, usd)
	checkCached("JSON lines", cached)

	var chIn, chOut, chCached uint64
	var chUSD float64
	if err := conn.QueryRow(context.Background(), "SELECT sum(judge_input_tokens), sum(judge_output_tokens), sum(judge_cost_usd), sum(judge_cached) FROM "+
		db+".evaluations FINAL WHERE metric = 'coherence'").Scan(&chIn, &chOut, &chUSD, &chCached); err != nil {
		t.Fatal(err)
	}
	check("ClickHouse", int64(chIn), int64(chOut), chUSD)
	checkCached("ClickHouse", int(chCached))

	if float64(int64(promIn)) != promIn || float64(int64(promOut)) != promOut {
		t.Fatalf("prometheus token counters are not whole: %v, %v", promIn, promOut)
	}
	check("Prometheus", int64(promIn), int64(promOut), promUSD)
}
