package pipeline

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	otellog "go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkresource "go.opentelemetry.io/otel/sdk/resource"
	"go.opentelemetry.io/otel/trace"

	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/scorer/feedback"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
)

// feedbackJudgeConfig judges every run for coherence and measures the
// judge's agreement with people over the last 200 labelled runs.
const feedbackJudgeConfig = `
judge:
  judges:
    - name: primary
      provider: openai
      model: judge-model
      base_url: %s
      api_key: sk-test
  metrics:
    - name: coherence
  calibration:
    window: 200
    min_labels: 20
    floor: {coherence: 0.95}
`

// runMarker names the run in its content, so the judge server knows which
// run it is asked about.
var runMarker = regexp.MustCompile(`RUN-(\d+)`)

// feedbackJudgeScore is the judge's 1–5 rating of run i; feedbackHuman
// is the person's: the same on three runs in four, one point off on the
// fourth.
func feedbackJudgeScore(i int) float64 { return float64(1 + i%5) }

func feedbackHuman(i int) float64 {
	j := feedbackJudgeScore(i)
	switch {
	case i%4 != 1:
		return j
	case j < 5:
		return j + 1
	}
	return j - 1
}

// TestFeedbackEndToEnd sends runs with the real OTel SDK to a sidecar
// whose coherence judge is the local judge server, and people's ratings of
// the runs as feedback log events with the SDK's log exporter over OTLP:
// half before their run is judged, half after, plus one malformed record.
// The agreement gauges on /metrics must show the mean absolute error and
// Cohen's kappa of the ratings, and ClickHouse must hold every accepted
// feedback row beside the judge's scores.
func TestFeedbackEndToEnd(t *testing.T) {
	tdb := newTestDB(t, "t_feedback_")
	srv := judgetest.New(t)
	srv.Handle(judgetest.OpenAI, func(r judgetest.CapturedRequest) judgetest.Reply {
		m := runMarker.FindStringSubmatch(r.User)
		if m == nil {
			return judgetest.Status(400)
		}
		i, _ := strconv.Atoi(m[1])
		return judgetest.JSON(fmt.Sprintf(`{"explanation": "rated", "score": %g}`, feedbackJudgeScore(i)))
	})
	cfg, err := config.Parse([]byte(fmt.Sprintf(feedbackJudgeConfig, srv.OpenAIBaseURL())), nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	db, conn := tdb.db, tdb.conn
	def := tdb.config(testConfig(dir), dir)
	config.ExporterConfig[jsonl.Config](def.Exporters).Enabled = true
	cfg.Receiver, cfg.Exporters, cfg.Extractor = def.Receiver, def.Exporters, def.Extractor
	p, ctx := startOnline(t, cfg, Options{})

	tp := sdkTracerProvider(t, ctx, p, "support-agent")
	tracer := tp.Tracer("feedback-test")
	lexp, err := otlploggrpc.New(ctx, otlploggrpc.WithEndpoint(p.Receiver.GRPCAddr()), otlploggrpc.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	lp := sdklog.NewLoggerProvider(sdklog.WithProcessor(sdklog.NewSimpleProcessor(lexp)),
		sdklog.WithResource(sdkresource.NewSchemaless(attribute.String("service.name", "annotation-ui"))))
	logger := lp.Logger("annotation-ui")
	rate := func(sc trace.SpanContext, i int) {
		var rec otellog.Record
		rec.SetEventName(feedback.EventName)
		rec.SetTimestamp(time.Now())
		rec.AddAttributes(
			attribute.String("gen_ai.evaluation.name", "coherence"),
			attribute.Float64("gen_ai.evaluation.score.value", feedbackHuman(i)),
			attribute.String("user.id", "reviewer-"+strconv.Itoa(i%3)),
		)
		logger.Emit(trace.ContextWithSpanContext(ctx, sc), rec)
	}

	const runs = 24
	ids := make([]string, runs)
	later := map[int]trace.SpanContext{}
	for i := range runs {
		rctx, root := tracer.Start(ctx, "invoke_agent support")
		root.SetAttributes(
			attribute.String("gen_ai.operation.name", "invoke_agent"),
			attribute.String("gen_ai.agent.name", "support"),
			attribute.String("gen_ai.input.messages", fmt.Sprintf(`[{"role":"user","parts":[{"type":"text","content":"RUN-%d: where is my order?"}]}]`, i)),
			attribute.String("gen_ai.output.messages", fmt.Sprintf(`[{"role":"assistant","parts":[{"type":"text","content":"RUN-%d: it ships tomorrow."}]}]`, i)),
		)
		_, tool := tracer.Start(rctx, "execute_tool lookup_order")
		tool.SetAttributes(attribute.String("gen_ai.operation.name", "execute_tool"), attribute.String("gen_ai.tool.name", "lookup_order"))
		tool.End()
		if i%2 == 0 { // the person's rating arrives before the run is even complete
			rate(root.SpanContext(), i)
		} else {
			later[i] = root.SpanContext()
		}
		root.End()
		ids[i] = root.SpanContext().TraceID().String()
	}
	// one malformed record: no metric
	var bad otellog.Record
	bad.SetEventName(feedback.EventName)
	bad.AddAttributes(attribute.String("gen_ai.evaluation.score.label", "pass"))
	logger.Emit(trace.ContextWithSpanContext(ctx, later[1]), bad)

	metricsURL := "http://" + p.Metrics.Addr() + "/metrics"
	waitMetric := func(what string, cond func(map[string]*dto.MetricFamily) bool) map[string]*dto.MetricFamily {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			fams := scrape(t, metricsURL)
			if cond(fams) {
				return fams
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	// every run judged, then the other half rated
	waitMetric("every run judged", func(f map[string]*dto.MetricFamily) bool {
		return sumCounter(f["evalsidecar_judge_decisions_total"], map[string]string{"metric": "coherence", "outcome": "scored"}) >= runs
	})
	for i := range later {
		// as an annotation tool does, from the run's trace id alone
		tid, err := trace.TraceIDFromHex(ids[i])
		if err != nil {
			t.Fatal(err)
		}
		rate(trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid}), i)
	}
	fams := waitMetric("every run labelled", func(f map[string]*dto.MetricFamily) bool {
		return gaugeOf(f["evalsidecar_judge_agreement_labels"], map[string]string{"metric": "coherence"}) >= runs
	})

	// The oracle: mean absolute error and Cohen's kappa of the two ratings
	// from their confusion counts.
	var abs, agree float64
	judgeN, humanN := map[float64]float64{}, map[float64]float64{}
	for i := range runs {
		j, h := feedbackJudgeScore(i), feedbackHuman(i)
		abs += math.Abs(j - h)
		if j == h {
			agree++
		}
		judgeN[j]++
		humanN[h]++
	}
	var pe float64
	for v, n := range humanN {
		pe += n / runs * judgeN[v] / runs
	}
	wantMAE, wantKappa := abs/runs, (agree/runs-pe)/(1-pe)
	stat := func(s string) float64 {
		return gaugeOf(fams["evalsidecar_judge_agreement"], map[string]string{"metric": "coherence", "statistic": s})
	}
	if got := stat("mae"); math.Abs(got-wantMAE) > 1e-9 {
		t.Errorf("agreement{mae} = %v, want %v", got, wantMAE)
	}
	if got := stat("kappa"); math.Abs(got-wantKappa) > 1e-9 {
		t.Errorf("agreement{kappa} = %v, want %v", got, wantKappa)
	}
	if got := stat("spearman"); !(got > 0.5 && got < 1) {
		t.Errorf("agreement{spearman} = %v, want a strong but imperfect correlation", got)
	}
	if got := gaugeOf(fams["evalsidecar_judge_agreement_floor"], map[string]string{"metric": "coherence", "statistic": "spearman"}); got != 0.95 {
		t.Errorf("agreement_floor{statistic=spearman} = %v, want 0.95", got)
	}
	if got := sumCounter(fams["evalsidecar_feedback_received_total"], nil); got != runs {
		t.Errorf("feedback received %v, want %d", got, runs)
	}
	if got := sumCounter(fams["evalsidecar_feedback_rejected_total"], map[string]string{"reason": feedback.ReasonNoMetric}); got != 1 {
		t.Errorf("feedback rejected{no_metric} %v, want 1", got)
	}

	if err := lp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	// ClickHouse: each run's feedback row beside the judge's score.
	rows, err := conn.Query(ctx, "SELECT f.trace_id, f.value, f.has_value, f.annotator, f.service, e.score FROM "+db+".feedback AS f "+
		"ALL INNER JOIN (SELECT trace_id, metric, score FROM "+db+".evaluations WHERE judge_model = 'judge-model') AS e USING (trace_id, metric) "+
		"WHERE f.metric = 'coherence'")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[string][2]float64{}
	for rows.Next() {
		var trace, annotator, service string
		var value, score float64
		var hasValue uint8
		if err := rows.Scan(&trace, &value, &hasValue, &annotator, &service, &score); err != nil {
			t.Fatal(err)
		}
		if hasValue != 1 || service != "annotation-ui" || annotator == "" {
			t.Errorf("feedback row of %s: has_value %d, service %q, annotator %q", trace, hasValue, service, annotator)
		}
		got[trace] = [2]float64{score, value}
	}
	if len(got) != runs {
		t.Errorf("%d runs with feedback beside their judge score in ClickHouse, want %d", len(got), runs)
	}
	for i, id := range ids {
		if w := [2]float64{feedbackJudgeScore(i), feedbackHuman(i)}; got[id] != w {
			t.Errorf("run %d (%s): judge score and feedback %v, want %v", i, id, got[id], w)
		}
	}
	if n := len(readLines[map[string]any](t, filepath.Join(dir, "feedback.jsonl"))); n != runs {
		t.Errorf("feedback.jsonl has %d records, want %d", n, runs)
	}
}

// gaugeOf returns the value of mf's gauge whose labels include match, or
// NaN when there is none.
func gaugeOf(mf *dto.MetricFamily, match map[string]string) float64 {
	if mf != nil {
		for _, m := range mf.GetMetric() {
			if labelsMatch(m, match) {
				return m.GetGauge().GetValue()
			}
		}
	}
	return math.NaN()
}
