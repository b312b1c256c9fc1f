package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"gopkg.in/yaml.v3"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
	"github.com/evalsidecar/evalsidecar/scorer/judge/stage"
)

// BenchmarkHotPathJudgeDown is BenchmarkHotPath with the judge stage on
// (two judge metrics, every run sampled) while the judge is down: it
// answers 503 after a delay, so its workers are stuck and its queue is
// full. Ingestion must go on at the hot path's rate: each run only gets
// queue_full ledger decisions. Compare its spans/s with BenchmarkHotPath.
func BenchmarkHotPathJudgeDown(b *testing.B) {
	srv := judgetest.New(b)
	down := judgetest.Status(503)
	down.Delay = time.Minute
	srv.SetDefault(judgetest.OpenAI, down)
	jcfg := stage.DefaultConfig()
	doc := fmt.Sprintf(`
judges:
  - {name: primary, provider: openai, model: m, base_url: %s, api_key: k, timeout: 1m, max_retries: 0}
metrics:
  - {name: coherence}
  - {name: fluency}
sending_queue: {queue_size: 64}
`, srv.OpenAIBaseURL())
	if err := yaml.Unmarshal([]byte(doc), &jcfg); err != nil {
		b.Fatal(err)
	}
	var st *stage.Stage
	defer func() {
		if st != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			_ = st.Shutdown(ctx)
		}
	}()
	runs, decisions := runHotPath(b, func(sink scorer.Sink, reg prometheus.Registerer, logger *slog.Logger) scorer.Deferred {
		var err error
		if st, err = stage.Build(jcfg, sink, stage.Settings{Settings: telemetry.Settings{Registerer: reg, Logger: logger}}); err != nil {
			b.Fatal(err)
		}
		st.Start(context.Background())
		return st
	})
	b.ReportMetric(float64(decisions[scorer.OutcomeQueueFull])/float64(runs), "queue_full/run")
}
