package pipeline

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	otellog "go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"

	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/extractor"
)

// TestLogRecordsAfterTheirRoot checks the default quiet period against
// the way an SDK reports a run in the GenAI v1.28–1.36 event form: the
// spans go out when they end, the root last, while the messages go out as
// log records with the log processor's own schedule (every second by
// default), so the run's last gen_ai.choice record can reach the sidecar
// up to a second after its root span. Sent with the real OTel SDK, a
// choice that arrives 0.7 s after its root must still be the run's output;
// one that arrives 2 s after, when the run has been scored, is counted
// late and never becomes a second, partial run.
func TestLogRecordsAfterTheirRoot(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(dir)
	def := extractor.DefaultConfig()
	cfg.Extractor.QuietPeriod, cfg.Extractor.Tick = def.QuietPeriod, def.Tick
	p, ctx := startOnline(t, cfg, Options{})

	tp := sdkTracerProvider(t, ctx, p, "shop-agent") // each span exported as it ends
	lexp, err := otlploggrpc.New(ctx, otlploggrpc.WithEndpoint(p.Receiver.GRPCAddr()), otlploggrpc.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	// records go out only when the test flushes, standing in for the
	// processor's tick (every second by default)
	lp := sdklog.NewLoggerProvider(sdklog.WithProcessor(sdklog.NewBatchProcessor(lexp, sdklog.WithExportInterval(time.Hour))))
	defer func() {
		_ = lp.Shutdown(context.Background())
		_ = tp.Shutdown(context.Background())
	}()
	tracer, logger := tp.Tracer("agent"), lp.Logger("agent")
	event := func(ctx context.Context, name string, body ...attribute.KeyValue) {
		var r otellog.Record
		r.SetEventName(name)
		r.SetTimestamp(time.Now())
		r.SetBody(attribute.MapValue(body...))
		r.AddAttributes(attribute.String("gen_ai.system", "openai"))
		logger.Emit(ctx, r)
	}

	// run sends one run whose answer is in a gen_ai.choice record that
	// reaches the sidecar after the root span by after; it returns the
	// run's trace id.
	run := func(answer string, after time.Duration) string {
		rootCtx, root := tracer.Start(ctx, "invoke_agent shop-agent")
		root.SetAttributes(attribute.String("gen_ai.operation.name", "invoke_agent"), attribute.String("gen_ai.agent.name", "shop-agent"))
		chatCtx, chat := tracer.Start(rootCtx, "chat gpt-4o")
		chat.SetAttributes(attribute.String("gen_ai.operation.name", "chat"), attribute.String("gen_ai.request.model", "gpt-4o"), attribute.String("gen_ai.system", "openai"))
		event(chatCtx, "gen_ai.user.message", attribute.String("content", "Where is my order?"))
		if err := lp.ForceFlush(ctx); err != nil {
			t.Fatal(err)
		}
		event(chatCtx, "gen_ai.choice", attribute.Int("index", 0), attribute.String("finish_reason", "stop"),
			attribute.KeyValue{Key: "message", Value: attribute.MapValue(attribute.String("role", "assistant"), attribute.String("content", answer))})
		chat.End()
		root.End() // the root span arrives now
		time.Sleep(after)
		if err := lp.ForceFlush(ctx); err != nil {
			t.Fatal(err)
		}
		return root.SpanContext().TraceID().String()
	}
	onTime := run("It ships tomorrow.", 700*time.Millisecond)
	late := run("It shipped yesterday.", 2*time.Second)

	metricsURL := "http://" + p.Metrics.Addr() + "/metrics"
	for {
		families := scrape(t, metricsURL)
		if sumCounter(families["evalsidecar_trajectories_total"], nil) >= 2 && sumCounter(families["evalsidecar_dropped_total"], map[string]string{"reason": "late"}) >= 1 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%v trajectories, %v late records", sumCounter(families["evalsidecar_trajectories_total"], nil),
				sumCounter(families["evalsidecar_dropped_total"], map[string]string{"reason": "late"}))
		case <-time.After(100 * time.Millisecond):
		}
	}
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	got := map[string]record.TrajectoryRecord{}
	for _, tr := range readLines[record.TrajectoryRecord](t, filepath.Join(dir, "trajectories.jsonl")) {
		if _, dup := got[tr.TraceID]; dup {
			t.Errorf("trace %s written twice: a late record became a second run", tr.TraceID)
		}
		got[tr.TraceID] = tr
	}
	if len(got) != 2 {
		t.Fatalf("%d trajectories, want 2", len(got))
	}
	if tr := got[onTime]; tr.Output != "It ships tomorrow." {
		t.Errorf("choice 0.7 s after the root: output %q, want the answer (input %q)", tr.Output, tr.Input)
	}
	if tr := got[late]; tr.Output == "It shipped yesterday." || tr.Input != "Where is my order?" {
		t.Errorf("choice 2 s after the root: output %q input %q; want the run scored without it", tr.Output, tr.Input)
	}
}
