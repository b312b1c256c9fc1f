package stage

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/internal/promtest"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
)

// TestReportedCostEqualsBilled: twelve runs, three deliveries of each of
// four contents, judged by the local judge server through the result
// cache. The judge is called once per content; the cost and tokens the
// score records carry, summed, and the Prometheus counters equal what the
// server billed, and the reused results say cached with zero usage.
func TestReportedCostEqualsBilled(t *testing.T) {
	const inPrice, outPrice = 2.5, 10.0 // USD per million tokens
	var (
		mu             sync.Mutex
		billedIn, bOut int64
	)
	srv := judgetest.New(t)
	srv.Handle(judgetest.OpenAI, func(r judgetest.CapturedRequest) judgetest.Reply {
		in, out := int64(len(r.Body)/4), int64(37+r.Seq)
		mu.Lock()
		billedIn, bOut = billedIn+in, bOut+out
		mu.Unlock()
		return judgetest.Reply{JSON: `{"explanation": "fine", "score": 4}`, InputTokens: in, OutputTokens: out}
	})
	cfg := parseConfig(t, fmt.Sprintf(`
judges:
  - name: primary
    provider: openai
    model: m
    base_url: %s
    api_key: k
    prices: {input_per_million_tokens: %v, output_per_million_tokens: %v}
metrics:
  - name: coherence
`, srv.OpenAIBaseURL(), inPrice, outPrice))
	rec := &recorder{}
	reg := prometheus.NewRegistry()
	st, err := Build(cfg, rec, Settings{Settings: telemetry.Settings{Registerer: reg}})
	if err != nil {
		t.Fatal(err)
	}
	st.Start(t.Context())
	// The engine exports each offered evaluation (cache hits are added to
	// it) and the stage's sink the judged ones.
	var exported []*scorer.Evaluation
	for round := range 3 {
		for i := range 4 {
			in := answerInstance()
			in.Response = fmt.Sprintf("answer %d", i)
			exported = append(exported, offer(st, in))
		}
		if round == 0 {
			// let the first round be judged so later rounds hit the cache
			deadline := time.Now().Add(10 * time.Second)
			for len(srv.Requests()) < 4 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if err := st.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()); n != 4 {
		t.Fatalf("%d judge calls, want one per content (4)", n)
	}
	billedUSD := (float64(billedIn)*inPrice + float64(bOut)*outPrice) / 1e6

	var (
		sumIn, sumOut  int64
		sumUSD         float64
		scored, cached int
	)
	for _, ev := range append(exported, rec.all()...) {
		for _, s := range record.ScoresAt(ev, time.Now()) {
			j := s.Judge
			if j == nil {
				t.Fatalf("score without judge usage: %+v", s)
			}
			sumIn, sumOut, sumUSD = sumIn+j.InputTokens, sumOut+j.OutputTokens, sumUSD+j.CostUSD
			if j.Cached {
				cached++
				if j.InputTokens != 0 || j.OutputTokens != 0 || j.CostUSD != 0 || j.Calls != 0 || j.Model != "m" {
					t.Errorf("cached result reports usage: %+v", j)
				}
			} else {
				scored++
			}
		}
	}
	if scored != 4 || cached != 8 {
		t.Errorf("%d judged and %d cached results, want 4 and 8", scored, cached)
	}
	if sumIn != billedIn || sumOut != bOut || math.Abs(sumUSD-billedUSD) > 1e-12 {
		t.Errorf("records: %d in, %d out, $%.9f; billed %d in, %d out, $%.9f", sumIn, sumOut, sumUSD, billedIn, bOut, billedUSD)
	}
	promUSD := promtest.Sum(t, reg, "evalsidecar_judge_cost_usd_total", nil)
	promIn := promtest.Sum(t, reg, "evalsidecar_judge_tokens_total", prometheus.Labels{"type": "input"})
	promOut := promtest.Sum(t, reg, "evalsidecar_judge_tokens_total", prometheus.Labels{"type": "output"})
	if math.Abs(promUSD-billedUSD) > 1e-12 || promIn != float64(billedIn) || promOut != float64(bOut) {
		t.Errorf("prometheus: %v in, %v out, $%.9f; billed %d in, %d out, $%.9f", promIn, promOut, promUSD, billedIn, bOut, billedUSD)
	}
}
