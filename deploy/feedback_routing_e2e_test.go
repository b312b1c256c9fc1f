package deploy

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	otellog "go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkresource "go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/evalsidecar/evalsidecar/scorer/feedback"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
)

// TestFeedbackThroughRoutingTier: behind the routing tier, a run's log
// records reach the replica that holds its spans (GenAI events, people's
// feedback), so every rating is paired with its judge score although the
// runs are spread over three replicas and the ratings come from another
// process (an annotation tool) than the runs. With the load_balancing
// exporter's own traceID routing this fails: it hashes a span's raw trace
// id and a log record's hex form, so the two land on different replicas.
func TestFeedbackThroughRoutingTier(t *testing.T) {
	otelcol := binary(t, "EVALSIDECAR_OTELCOL_BIN", "otelcol-evalsidecar")
	bin := buildSidecar(t)
	srv := judgetest.New(t)
	srv.Handle(judgetest.OpenAI, func(judgetest.CapturedRequest) judgetest.Reply {
		return judgetest.JSON(`{"explanation": "fine", "score": 4}`)
	})
	dir := t.TempDir()
	var rs []*replica
	var backends []string
	for i := range 3 {
		d := filepath.Join(dir, fmt.Sprintf("replica-%d", i))
		grpc, metrics := freeAddr(t), freeAddr(t)
		cfg := replicaConfig(grpc, metrics, d, "500ms", "2m", "", "") + fmt.Sprintf(`judge:
  judges:
    - {name: primary, provider: openai, model: judge-model, base_url: %q, api_key: sk-test}
  metrics:
    - name: coherence
  calibration: {window: 200, min_labels: 1}
`, srv.OpenAIBaseURL())
		rs = append(rs, startReplica(t, bin, d, grpc, metrics, cfg))
		backends = append(backends, grpc)
	}
	col := startCollector(t, otelcol, dir, backends)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	texp, err := otlptracegrpc.New(ctx, otlptracegrpc.WithEndpoint(col.endpoint), otlptracegrpc.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(texp),
		sdktrace.WithResource(sdkresource.NewSchemaless(attribute.String("service.name", "support-agent"))))
	lexp, err := otlploggrpc.New(ctx, otlploggrpc.WithEndpoint(col.endpoint), otlploggrpc.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	lp := sdklog.NewLoggerProvider(sdklog.WithProcessor(sdklog.NewSimpleProcessor(lexp)),
		sdklog.WithResource(sdkresource.NewSchemaless(attribute.String("service.name", "annotation-ui"))))
	tracer, logger := tp.Tracer("agent"), lp.Logger("annotation-ui")

	const runs = 60
	for i := range runs {
		_, root := tracer.Start(ctx, "invoke_agent support")
		root.SetAttributes(
			attribute.String("gen_ai.operation.name", "invoke_agent"),
			attribute.String("gen_ai.agent.name", "support"),
			attribute.String("gen_ai.input.messages", fmt.Sprintf(`[{"role":"user","parts":[{"type":"text","content":"question %d"}]}]`, i)),
			attribute.String("gen_ai.output.messages", fmt.Sprintf(`[{"role":"assistant","parts":[{"type":"text","content":"answer %d"}]}]`, i)),
		)
		root.End()
		var rec otellog.Record
		rec.SetEventName(feedback.EventName)
		rec.SetTimestamp(time.Now())
		rec.AddAttributes(
			attribute.String("gen_ai.evaluation.name", "coherence"),
			attribute.Float64("gen_ai.evaluation.score.value", 4),
		)
		logger.Emit(trace.ContextWithSpanContext(ctx, root.SpanContext()), rec)
	}
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := lp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	labelled := func() (total float64, replicas int) {
		for _, r := range rs {
			if n := r.metric(t, "evalsidecar_judge_agreement_labels"); n > 0 {
				total += n
				replicas++
			}
		}
		return total, replicas
	}
	waitUntil(t, 90*time.Second, "every rating paired with its judge score", func() bool {
		total, _ := labelled()
		return total == runs
	})
	if _, replicas := labelled(); replicas < 2 {
		t.Errorf("labelled runs on %d replica(s): the runs were not spread", replicas)
	}
	received := 0.0
	for _, r := range rs {
		received += r.metric(t, "evalsidecar_feedback_received_total")
	}
	if received != runs {
		t.Errorf("%v feedback records received over the replicas, want %d", received, runs)
	}
}
