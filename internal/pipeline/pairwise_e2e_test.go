package pipeline

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"google.golang.org/grpc"

	"github.com/evalsidecar/evalsidecar/exporter/otelevents"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/promtest"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
)

// pairwiseConfig judges every candidate run of an eval case against the
// latest run of the case by the baseline release (a release, or
// previous), with the judge at the first argument.
const pairwiseConfig = `
judge:
  judges:
    - name: primary
      provider: openai
      model: judge-model
      base_url: %s
      api_key: sk-test-key
  baseline:
    version: "%s"
  metrics:
    - name: pairwise_coherence
`

// canaryRun sends one agent run of case caseID ("" for none) through tp
// and returns its trace id.
func canaryRun(ctx context.Context, tp *sdktrace.TracerProvider, caseID, prompt, answer string) string {
	_, root := tp.Tracer("pairwise-test").Start(ctx, "invoke_agent shop")
	root.SetAttributes(
		attribute.String("gen_ai.operation.name", "invoke_agent"),
		attribute.String("gen_ai.agent.name", "shop"),
		attribute.String("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"`+prompt+`"}]}]`),
		attribute.String("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"`+answer+`"}]}]`),
	)
	if caseID != "" {
		root.SetAttributes(attribute.String("eval.case_id", caseID))
	}
	root.End()
	return root.SpanContext().TraceID().String()
}

// pairwiseJudge is the local judge of the pairwise tests: it reads the two
// responses of each prompt and answers as a judge with a preference does.
// Case 1: it prefers the candidate's answer; case 2: the baseline's;
// case 3: it always says A (pure position bias).
func pairwiseJudge(t *testing.T) *judgetest.Server {
	srv := judgetest.New(t)
	srv.Handle(judgetest.OpenAI, func(r judgetest.CapturedRequest) judgetest.Reply {
		a, _, ok := responses(r.User)
		choice := "SAME"
		switch {
		case !ok:
			return judgetest.Text("no responses")
		case strings.Contains(r.User, "question 1"):
			choice = map[bool]string{true: "A", false: "B"}[strings.Contains(a, "candidate")]
		case strings.Contains(r.User, "question 2"):
			choice = map[bool]string{true: "A", false: "B"}[strings.Contains(a, "baseline")]
		case strings.Contains(r.User, "question 3"):
			choice = "A"
		}
		return judgetest.JSON(`{"explanation": "compared", "pairwise_choice": "` + choice + `"}`)
	})
	return srv
}

// responses splits a pairwise prompt into its Response A and Response B.
func responses(prompt string) (a, b string, ok bool) {
	_, rest, ok1 := strings.Cut(prompt, "### Response A\n")
	a, b, ok2 := strings.Cut(rest, "### Response B\n")
	return a, b, ok1 && ok2
}

// waitFor polls cond every 50 ms for up to 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// pairwiseScore is a pairwise line of scores.jsonl.
type pairwiseScore struct {
	TraceID string  `json:"trace_id"`
	Metric  string  `json:"metric"`
	Score   float64 `json:"score"`
	Label   string  `json:"label"`
	Details struct {
		Choice     string   `json:"pairwise_choice"`
		Consistent bool     `json:"position_consistent"`
		Choices    []string `json:"choices"`
		Baseline   string   `json:"baseline_trace_id"`
	} `json:"details"`
}

// pairwiseDecision is a line of decisions.jsonl.
type pairwiseDecision struct {
	TraceID string `json:"trace_id"`
	Metric  string `json:"metric"`
	Outcome string `json:"outcome"`
	Reason  string `json:"reason"`
}

// evalEvents is an OTLP/gRPC logs endpoint keeping the label of every
// gen_ai.evaluation.result event by trace id and evaluation name.
type evalEvents struct {
	plogotlp.UnimplementedGRPCServer
	mu     sync.Mutex
	labels map[string]string // trace id + " " + name → label
}

func (c *evalEvents) Export(_ context.Context, req plogotlp.ExportRequest) (plogotlp.ExportResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	rls := req.Logs().ResourceLogs()
	for i := range rls.Len() {
		sls := rls.At(i).ScopeLogs()
		for j := range sls.Len() {
			lrs := sls.At(j).LogRecords()
			for k := range lrs.Len() {
				lr := lrs.At(k)
				a := lr.Attributes().AsRaw()
				name, _ := a["gen_ai.evaluation.name"].(string)
				label, _ := a["gen_ai.evaluation.score.label"].(string)
				c.labels[lr.TraceID().String()+" "+name] = label
			}
		}
	}
	return plogotlp.NewExportResponse(), nil
}

// listenEvents starts an evalEvents endpoint on loopback.
func listenEvents(t *testing.T) (*evalEvents, string) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	col := &evalEvents{labels: map[string]string{}}
	srv := grpc.NewServer()
	plogotlp.RegisterGRPCServer(srv, col)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return col, lis.Addr().String()
}

// TestPairwiseCanaryEndToEnd sends, through the real OTel SDK, release
// 1.0's runs of three eval cases and then release 2.0's runs of the same
// cases (plus one case 1.0 never ran, and an untagged run). Each candidate
// run must be judged against its case's baseline run in both orders, the
// prompts carrying both answers; the choices, scores and the baseline
// trace id must reach the scores file; the runs not compared must be in
// the ledger with their reason; the choices must reach the OTel events;
// and Prometheus' ratio histogram must give the win, tie and loss counts
// of release 2.0.
func TestPairwiseCanaryEndToEnd(t *testing.T) {
	srv := pairwiseJudge(t)
	dir := t.TempDir()
	cfg, err := config.Parse(fmt.Appendf(nil, pairwiseConfig, srv.OpenAIBaseURL(), "1.0"), nil)
	if err != nil {
		t.Fatal(err)
	}
	def := testConfig(dir)
	cfg.Receiver, cfg.Exporters, cfg.Extractor = def.Receiver, def.Exporters, def.Extractor
	events, addr := listenEvents(t)
	oe := config.ExporterConfig[otelevents.Config](cfg.Exporters)
	oe.Enabled, oe.Endpoint, oe.TLS.Insecure = true, addr, true
	p, ctx := startOnline(t, cfg, Options{})
	base := sdkTracerProvider(t, ctx, p, "shop", attribute.String("service.version", "1.0"))
	cand := sdkTracerProvider(t, ctx, p, "shop", attribute.String("service.version", "2.0"))

	baselineIDs := map[int]string{}
	for c := 1; c <= 3; c++ {
		baselineIDs[c] = canaryRun(ctx, base, fmt.Sprint("case-", c), fmt.Sprintf("question %d", c), fmt.Sprintf("baseline answer %d", c))
	}
	waitFor(t, "the baseline runs to be recorded", func() bool {
		return promtest.Sum(t, p.Registry, "evalsidecar_baseline_runs", nil) == 3
	})
	candidateIDs := map[int]string{}
	for c := 1; c <= 4; c++ {
		candidateIDs[c] = canaryRun(ctx, cand, fmt.Sprint("case-", c), fmt.Sprintf("question %d", c), fmt.Sprintf("candidate answer %d", c))
	}
	untagged := canaryRun(ctx, cand, "", "question 1", "candidate answer")
	for _, tp := range []*sdktrace.TracerProvider{base, cand} {
		if err := tp.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	// The judge saw each compared case twice, the baseline first then
	// second, the case's question and both answers each time.
	reqs := srv.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d judge requests, want 6 (3 compared runs, both orders)", len(reqs))
	}
	seen := map[string]int{}
	for _, r := range reqs {
		a, b, _ := responses(r.User)
		c := strings.TrimPrefix(strings.SplitN(r.User[strings.Index(r.User, "question "):], "\n", 2)[0], "question ")
		c = c[:1]
		bl, cd := "baseline answer "+c, "candidate answer "+c
		switch {
		case strings.Contains(a, bl) && strings.Contains(b, cd):
			seen[c+" baseline first"]++
		case strings.Contains(a, cd) && strings.Contains(b, bl):
			seen[c+" candidate first"]++
		default:
			t.Errorf("judge request %d does not show %q and %q as A and B: %q", r.Seq, bl, cd, r.User)
		}
	}
	for c := 1; c <= 3; c++ {
		if seen[fmt.Sprint(c, " baseline first")] != 1 || seen[fmt.Sprint(c, " candidate first")] != 1 {
			t.Errorf("case %d: orders seen %v, want each once", c, seen)
		}
	}

	scores := map[string]pairwiseScore{}
	for _, s := range readLines[pairwiseScore](t, filepath.Join(dir, "scores.jsonl")) {
		if s.Metric == "pairwise_coherence" {
			scores[s.TraceID] = s
		}
	}
	want := map[int]struct {
		label      string
		score      float64
		consistent bool
	}{1: {"CANDIDATE", 1, true}, 2: {"BASELINE", 0, true}, 3: {"TIE", 0.5, false}}
	for c, w := range want {
		s, ok := scores[candidateIDs[c]]
		if !ok {
			t.Errorf("case %d: no pairwise score for the candidate run", c)
			continue
		}
		if s.Label != w.label || s.Details.Choice != w.label || s.Score != w.score || s.Details.Consistent != w.consistent ||
			s.Details.Baseline != baselineIDs[c] {
			t.Errorf("case %d: score %+v, want %s %v consistent=%v against baseline %s", c, s, w.label, w.score, w.consistent, baselineIDs[c])
		}
		events.mu.Lock()
		if got := events.labels[candidateIDs[c]+" pairwise_coherence"]; got != w.label {
			t.Errorf("case %d: OTel event label %q, want %s", c, got, w.label)
		}
		events.mu.Unlock()
	}
	if len(scores) != 3 {
		t.Errorf("%d pairwise scores, want 3: %+v", len(scores), scores)
	}

	reasons, queued := map[string]string{}, map[string]bool{}
	for _, d := range readLines[pairwiseDecision](t, filepath.Join(dir, "decisions.jsonl")) {
		if d.Metric == "pairwise_coherence" && d.Outcome == "not_applicable" {
			reasons[d.TraceID] = d.Reason
		}
		if d.Metric == "pairwise_coherence" && d.Outcome == "queued" {
			queued[d.TraceID] = true
		}
	}
	// Runs that cannot be compared are decided before sampling: they
	// never wait for the judge.
	for _, id := range append([]string{untagged}, baselineIDs[1], baselineIDs[2], baselineIDs[3]) {
		if queued[id] {
			t.Errorf("run %s was queued for the judge although it cannot be compared", id)
		}
	}
	for c, id := range baselineIDs {
		if reasons[id] != "baseline_release" {
			t.Errorf("baseline run of case %d: reason %q, want baseline_release", c, reasons[id])
		}
	}
	if reasons[candidateIDs[4]] != "no_baseline" || reasons[untagged] != "no_case_id" {
		t.Errorf("reasons: case 4 %q (want no_baseline), untagged %q (want no_case_id)", reasons[candidateIDs[4]], reasons[untagged])
	}
	if got := promtest.Sum(t, p.Registry, "evalsidecar_eval_skipped_total", prometheus.Labels{"metric": "pairwise_coherence", "reason": "not_applicable"}); got != 5 {
		t.Errorf("pairwise_coherence not applicable = %v, want 5 (3 baseline runs, no baseline, no case id)", got)
	}
	if got := promtest.Sum(t, p.Registry, "evalsidecar_baseline_lookups_total", prometheus.Labels{"result": "miss"}); got != 1 {
		t.Errorf("baseline lookups that missed = %v, want 1", got)
	}

	// Prometheus: release 2.0's pairwise scores, 0 / 0.5 / 1, give the
	// loss, tie and win counts from the ratio histogram's buckets.
	counts := ratioBuckets(t, p.Registry, "pairwise_coherence", "2.0")
	if counts[0] != 1 || counts[0.5] != 2 || counts[1] != 3 {
		t.Errorf("release 2.0 pairwise buckets le=0: %v, le=0.5: %v, le=1: %v; want 1, 2, 3", counts[0], counts[0.5], counts[1])
	}
}

// ratioBuckets returns the cumulative bucket counts of metric's ratio
// score histogram for release version.
func ratioBuckets(t *testing.T, g prometheus.Gatherer, metric, version string) map[float64]uint64 {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[float64]uint64{}
	for _, mf := range mfs {
		if mf.GetName() != "evalsidecar_eval_score_ratio" {
			continue
		}
		for _, m := range mf.GetMetric() {
			lbl := map[string]string{}
			for _, l := range m.GetLabel() {
				lbl[l.GetName()] = l.GetValue()
			}
			if lbl["metric"] != metric || lbl["service_version"] != version {
				continue
			}
			for _, b := range m.GetHistogram().GetBucket() {
				out[b.GetUpperBound()] = b.GetCumulativeCount()
			}
		}
	}
	return out
}

// TestPairwiseAcrossReplicas: release 1.0's canary runs are scored by one
// sidecar and release 2.0's runs of the same cases by another, both
// writing to one ClickHouse database. The second finds each baseline run
// in ClickHouse (it never saw them), judges against it, and its pairwise
// scores land in the evaluations table with the baseline's trace id and
// release. The baseline release is named, or found as the release before
// 2.0 from the first runs ClickHouse holds.
func TestPairwiseAcrossReplicas(t *testing.T) {
	for _, version := range []string{"1.0", "previous"} {
		t.Run(version, func(t *testing.T) { pairwiseAcrossReplicas(t, version) })
	}
}

func pairwiseAcrossReplicas(t *testing.T, version string) {
	tdb := newTestDB(t, "t_pairwise_")
	db, conn := tdb.db, tdb.conn
	srv := pairwiseJudge(t)
	start := func() (*Pipeline, context.Context) {
		dir := t.TempDir()
		cfg, err := config.Parse(fmt.Appendf(nil, pairwiseConfig, srv.OpenAIBaseURL(), version), nil)
		if err != nil {
			t.Fatal(err)
		}
		def := tdb.config(testConfig(dir), dir)
		cfg.Receiver, cfg.Exporters, cfg.Extractor = def.Receiver, def.Exporters, def.Extractor
		return startOnline(t, cfg, Options{})
	}
	first, ctx := start()
	second, _ := start()
	base := sdkTracerProvider(t, ctx, first, "shop", attribute.String("service.version", "1.0"))
	cand := sdkTracerProvider(t, ctx, second, "shop", attribute.String("service.version", "2.0"))

	baselineIDs := map[int]string{}
	for c := 1; c <= 3; c++ {
		baselineIDs[c] = canaryRun(ctx, base, fmt.Sprint("case-", c), fmt.Sprintf("question %d", c), fmt.Sprintf("baseline answer %d", c))
	}
	if err := base.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := first.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	var stored uint64
	if err := conn.QueryRow(ctx, "SELECT count() FROM "+db+".trajectories WHERE service_version = '1.0'").Scan(&stored); err != nil || stored != 3 {
		t.Fatalf("%d baseline runs in ClickHouse (%v), want 3", stored, err)
	}
	candidateIDs := map[int]string{}
	for c := 1; c <= 3; c++ {
		candidateIDs[c] = canaryRun(ctx, cand, fmt.Sprint("case-", c), fmt.Sprintf("question %d", c), fmt.Sprintf("candidate answer %d", c))
	}
	if err := cand.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := second.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if got := promtest.Sum(t, second.Registry, "evalsidecar_baseline_lookups_total", prometheus.Labels{"result": "clickhouse"}); got != 3 {
		t.Errorf("baseline lookups answered by ClickHouse on the second sidecar = %v, want 3", got)
	}
	for _, r := range srv.Requests() {
		a, b, _ := responses(r.User)
		if !strings.Contains(a+b, "baseline answer") || !strings.Contains(a+b, "candidate answer") {
			t.Errorf("judge request %d lacks one side: %q", r.Seq, r.User)
		}
	}
	rows, err := conn.Query(ctx, "SELECT trace_id, score, label, visitParamExtractString(details, 'baseline_trace_id'), service_version, visitParamExtractString(details, 'baseline_release') FROM "+db+
		".evaluations FINAL WHERE metric = 'pairwise_coherence'")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := map[string]struct {
		label, baseline string
		score           float64
	}{
		candidateIDs[1]: {"CANDIDATE", baselineIDs[1], 1},
		candidateIDs[2]: {"BASELINE", baselineIDs[2], 0},
		candidateIDs[3]: {"TIE", baselineIDs[3], 0.5},
	}
	n := 0
	for rows.Next() {
		var trace, label, baseline, release, baseRelease string
		var score float64
		if err := rows.Scan(&trace, &score, &label, &baseline, &release, &baseRelease); err != nil {
			t.Fatal(err)
		}
		n++
		w := want[trace]
		if label != w.label || score != w.score || baseline != w.baseline || release != "2.0" || baseRelease != "1.0" {
			t.Errorf("run %s: %s %v against %s (release %s against %s), want %s %v against %s (release 2.0 against 1.0)",
				trace, label, score, baseline, release, baseRelease, w.label, w.score, w.baseline)
		}
	}
	if n != 3 {
		t.Errorf("%d pairwise rows in ClickHouse, want 3", n)
	}
}
