package pipeline

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"gopkg.in/yaml.v3"

	"github.com/evalsidecar/evalsidecar/exporter"
	promexp "github.com/evalsidecar/evalsidecar/exporter/prometheus"
	"github.com/evalsidecar/evalsidecar/extractor"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
	"github.com/evalsidecar/evalsidecar/scorer/judgestage"
)

// BenchmarkHotPathJudgeDown is BenchmarkHotPath with the judge stage on
// (two judge metrics, every run sampled) while the judge is down: it
// answers 503 after a delay, so its workers are stuck and its queue is
// full. Ingestion must go on at the hot path's rate: each run only gets
// queue_full ledger decisions. Compare its spans/s with BenchmarkHotPath.
func BenchmarkHotPathJudgeDown(b *testing.B) {
	raw, spans := mediumRequest(b)
	ctx := context.Background()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	reg := prometheus.NewRegistry()
	drops := telemetry.NewDrops(reg)

	srv := judgetest.New(b)
	down := judgetest.Status(503)
	down.Delay = time.Minute
	srv.SetDefault(judgetest.OpenAI, down)
	jcfg := judgestage.DefaultConfig()
	doc := fmt.Sprintf(`
judges:
  - {name: primary, provider: openai, model: m, base_url: %s, api_key: k, timeout: 1m, max_retries: 0}
metrics:
  - {name: coherence}
  - {name: fluency}
queue_size: 64
`, srv.OpenAIBaseURL())
	if err := yaml.Unmarshal([]byte(doc), &jcfg); err != nil {
		b.Fatal(err)
	}

	prom, err := promexp.New(promexp.DefaultConfig(), reg, logger)
	if err != nil {
		b.Fatal(err)
	}
	queue := enqueueSink{ch: make(chan *scorer.Evaluation, 1024)}
	go func() {
		for range queue.ch {
		}
	}()
	defer close(queue.ch)
	fan := exporter.NewFanout(prom, queue)
	stage, err := judgestage.Build(jcfg, fan, judgestage.Settings{Registerer: reg, Logger: logger})
	if err != nil {
		b.Fatal(err)
	}
	stage.Start(ctx)
	defer func() {
		sctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		_ = stage.Shutdown(sctx)
	}()

	cfg := scorer.DefaultConfig()
	metrics, err := scorer.NewRegistry().Build(cfg.Metrics)
	if err != nil {
		b.Fatal(err)
	}
	engine, err := scorer.NewEngine(cfg, metrics, fan, logger, reg, drops)
	if err != nil {
		b.Fatal(err)
	}
	var runs, full int
	score := extractor.SinkFunc(func(ctx context.Context, t *extractor.Trajectory) error {
		runs++
		in := scorer.FromTrajectory(t)
		ev := engine.Evaluate(ctx, in)
		stage.Offer(ctx, in, ev)
		for _, d := range ev.Decisions {
			if d.Outcome == scorer.OutcomeQueueFull {
				full++
			}
		}
		return fan.Export(ctx, ev)
	})
	asm, err := extractor.NewAssembler(extractor.DefaultConfig(), score, logger, reg, drops)
	if err != nil {
		b.Fatal(err)
	}

	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuClock()
	for i := 0; i < b.N; i++ {
		req := ptraceotlp.NewExportRequest()
		if err := req.UnmarshalProto(raw); err != nil {
			b.Fatal(err)
		}
		renumber(req.Traces(), uint64(i))
		if err := asm.ConsumeTraces(ctx, req.Traces()); err != nil {
			b.Fatal(err)
		}
		asm.Cut(time.Now(), true)
	}
	b.StopTimer()
	reportSpans(b, spans, cpuClock()-cpu0)
	if want := b.N * tracesPerRequest; runs != want {
		b.Fatalf("%d trajectories scored, want %d", runs, want)
	}
	b.ReportMetric(float64(full)/float64(runs), "queue_full/run")
}
