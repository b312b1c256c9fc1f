package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"gopkg.in/yaml.v3"

	"github.com/evalsidecar/evalsidecar/dashboards"
	chexp "github.com/evalsidecar/evalsidecar/exporter/clickhouse"
	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	"github.com/evalsidecar/evalsidecar/exporter/otelevents"
	promexp "github.com/evalsidecar/evalsidecar/exporter/prometheus"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/pipeline"
	"github.com/evalsidecar/evalsidecar/internal/simulator"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer/judge/calibration"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
)

// binary returns the path in env (or name on PATH). In CI a missing binary
// fails the test; elsewhere it skips.
func binary(t testing.TB, env, name string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not set and %s is not on PATH (scripts/test installs it)", env, name)
	}
	t.Skipf("%s not set and %s not on PATH; run scripts/test", env, name)
	return ""
}

// e2eRuleParams are the regression rules at test speed: the last 20s
// against the 40s before (at low traffic 30s against the 90s before),
// evaluated every second.
func e2eRuleParams() dashboards.RuleParams {
	p := dashboards.DefaultRuleParams()
	p.Interval = time.Second
	p.RecentWindow = 20 * time.Second
	p.BaselineWindow = 40 * time.Second
	p.BaselineOffset = 20 * time.Second
	p.For = 5 * time.Second
	// Windows of their own, so that no recording name of the fast groups
	// is one of the committed file's.
	p.LowTrafficRecentWindow = 30 * time.Second
	p.LowTrafficBaselineWindow = 90 * time.Second
	return p
}

// Panels (or "panel refId") of the SRE dashboard that have no data while
// the demo runs (every exporter and a judge enabled), and why. Every other
// query must return data.
var emptyInDemo = map[string]string{
	"Exporter retries and drops B": "nothing is dropped at this load",
	"ClickHouse insert time p95 B": "no insert fails in the demo",
	"Regression significance (z)":  "its baseline starts 1h ago, before the test began",
}

// wantInDemo are label values some targets (panel and refId) must show
// while the demo runs: both releases, the pass rates of the metrics with
// a pass rule, every exporter, the judge's successes and server errors.
var wantInDemo = map[string]map[string][]string{
	"Runs per second by release A":        {"service_version": {"1.0.0", "1.1.0"}},
	"Pass rate by metric and release A":   {"metric": {"failure", "tool_error_rate"}, "service_version": {"1.0.0", "1.1.0"}},
	"Exported records A":                  {"exporter": {"jsonl", "clickhouse"}},
	"Exported records B":                  {"outcome": {"exported"}},
	"Exporter queue and spool fill A":     {"exporter": {"jsonl", "clickhouse"}},
	"Exporter queue and spool fill B":     {"exporter": {"clickhouse"}},
	"Judge requests by outcome A":         {"outcome": {"ok", "server_error"}},
	"Judge retries by class A":            {"class": {"server_error"}},
	"Requests by code A":                  {"code": {"ok", "invalid_argument"}},
	"Parked batches A":                    {"table": {"evaluations", "trajectories", "tool_calls"}},
	"Ratio scores with trace exemplars A": {"metric": {"failure"}},
}

// TestPrometheusEndToEnd runs a sidecar with every exporter and a judge,
// fed by the simulated agent, and a real Prometheus scraping it every
// second the way a ServiceMonitor does (the Operator's target labels,
// honor_labels) with the alert rules loaded; it injects a regression (the
// agent switches to a worse release) and waits until the run-failure
// regression alert fires for the agent's service. It then checks that the
// agent's service survives the target labels, runs every PromQL query of
// the SRE dashboard against that Prometheus, and checks that every metric
// name a rule or panel reads is on the live /metrics.
func TestPrometheusEndToEnd(t *testing.T) {
	promBin := binary(t, "EVALSIDECAR_PROMETHEUS_BIN", "prometheus")
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	dir := t.TempDir()

	// The sidecar, with every exporter and an LLM judge.
	cfg := e2eConfig(ctx, t, dir)
	p, err := pipeline.New(cfg, telemetry.Settings{Version: "e2e"}, pipeline.Options{Online: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := p.Shutdown(context.Background()); err != nil {
			t.Errorf("sidecar shutdown: %v", err)
		}
	}()

	// Prometheus with the committed rules and the fast regression variant.
	promAddr := startPrometheus(ctx, t, promBin, dir, p.Metrics.Addr())
	api := promAPI{base: "http://" + promAddr}

	// The agent: 40 runs/s of the good release.
	simCfg := simulator.DefaultConfig()
	simCfg.Endpoint = p.Receiver.GRPCAddr()
	sim, err := simulator.New(ctx, simCfg)
	if err != nil {
		t.Fatal(err)
	}
	simCtx, stopSim := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := sim.Run(simCtx, 0, 25*time.Millisecond, nil); err != nil {
			t.Errorf("simulator: %v", err)
		}
	})
	defer func() {
		stopSim()
		wg.Wait()
		if err := sim.Shutdown(context.Background()); err != nil {
			t.Errorf("simulator shutdown: %v", err)
		}
	}()

	// Wait for a full baseline of the good release, and check that no
	// regression alert is pending or firing on it.
	baseline := `service_agent:evalsidecar_trajectories:increase40s offset 20s`
	api.waitFor(ctx, t, "a full baseline window", func() (bool, error) {
		v, err := api.scalar(ctx, "min("+baseline+")")
		return v >= 300, err
	})
	if active, err := api.alerts(ctx, "Regression"); err != nil {
		t.Fatal(err)
	} else if len(active) > 0 {
		t.Fatalf("regression alerts active on the good release: %v", active)
	}

	// What the simulator does not send: a log record, and a traces and a
	// logs request that cannot be decoded.
	sendOTLPHTTP(ctx, t, p.Receiver.HTTPAddr())

	// The regression: a new release that fails far more often.
	sim.SetQuality(simulator.Degraded)
	sim.SetRelease("1.1.0")
	injected := time.Now()
	api.waitFor(ctx, t, "EvalSidecarRunFailureRateRegression firing", func() (bool, error) {
		active, err := api.alerts(ctx, "EvalSidecarRunFailureRateRegression")
		for _, a := range active {
			if a.State == "firing" && a.Labels["service_name"] == simCfg.Service {
				t.Logf("alert firing %s after the regression: %s", time.Since(injected).Round(time.Second), a.Annotations["description"])
				return true, nil
			}
		}
		return false, err
	})

	// The new release is visible as a label.
	if v, err := api.scalar(ctx, `sum(service_version_agent_outcome:evalsidecar_trajectories:rate5m{service_version="1.1.0"})`); err != nil || v <= 0 {
		t.Errorf("no runs recorded for service_version 1.1.0 (%v, %v)", v, err)
	}

	checkServiceLabels(ctx, t, api, simCfg.Service)
	checkDashboardQueries(ctx, t, api, simCfg.Service)
	checkMetricNames(ctx, t, p.Metrics.Addr())
}

// sendOTLPHTTP posts to the receiver's OTLP/HTTP endpoints one log record
// (accepted), one span twice (the copy is dropped as duplicate_span) and
// one undecodable request per signal (refused), checking the answers.
func sendOTLPHTTP(ctx context.Context, t *testing.T, addr string) {
	t.Helper()
	for _, r := range []struct {
		path, contentType, body string
		want                    int
	}{
		{"/v1/logs", "application/json", `{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":{"stringValue":"hello"}}]}]}]}`, http.StatusOK},
		{"/v1/traces", "application/json", duplicateSpan, http.StatusOK},
		{"/v1/traces", "application/json", duplicateSpan, http.StatusOK},
		{"/v1/logs", "application/x-protobuf", "not protobuf", http.StatusBadRequest},
		{"/v1/traces", "application/x-protobuf", "not protobuf", http.StatusBadRequest},
	} {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+r.path, strings.NewReader(r.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", r.contentType)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != r.want {
			t.Errorf("POST %s (%s): %s, want %d", r.path, r.contentType, resp.Status, r.want)
		}
	}
}

// duplicateSpan is an OTLP/JSON traces request of one span that is no
// agent run (it has no gen_ai attributes).
const duplicateSpan = `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"dup"}}]},` +
	`"scopeSpans":[{"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"GET /health",` +
	`"kind":1,"startTimeUnixNano":"1700000000000000000","endTimeUnixNano":"1700000001000000000"}]}]}]}`

// e2eJudgeConfig judges a fifth of the runs for coherence with a judge
// that is the local judge server speaking the OpenAI format.
const e2eJudgeConfig = `
judge:
  judges:
    - name: primary
      provider: openai
      model: judge-model
      base_url: %s
      api_key: sk-test-key
      prices: {input_per_million_tokens: 1, output_per_million_tokens: 4}
  metrics:
    - name: coherence
      sampling: {rate: 0.2}
`

// e2eConfig is the sidecar of the end-to-end test with every exporter
// enabled: Prometheus, JSON lines, ClickHouse (the real server of
// EVALSIDECAR_CLICKHOUSE_DSN, a fresh database) and OpenTelemetry
// evaluation events (sent to a second sidecar's OTLP receiver, which is
// also the upstream the requests are forwarded to), and a judge whose
// every tenth answer is a server error, so that its retries show.
func e2eConfig(ctx context.Context, t *testing.T, dir string) config.Config {
	t.Helper()
	dsn := os.Getenv("EVALSIDECAR_CLICKHOUSE_DSN")
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("EVALSIDECAR_CLICKHOUSE_DSN is not set (scripts/test starts ClickHouse)")
		}
		t.Skip("EVALSIDECAR_CLICKHOUSE_DSN not set; run scripts/test")
	}
	srv := judgetest.New(t)
	var calls atomic.Int64
	srv.Handle(judgetest.OpenAI, func(judgetest.CapturedRequest) judgetest.Reply {
		if calls.Add(1)%10 == 0 {
			return judgetest.Status(http.StatusInternalServerError)
		}
		r := judgetest.JSON(`{"explanation": "clear", "score": 4}`)
		r.InputTokens, r.OutputTokens = 300, 20
		return r
	})
	cfg, err := config.Parse([]byte(fmt.Sprintf(e2eJudgeConfig, srv.OpenAIBaseURL())), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Receiver.GRPC.Endpoint = "127.0.0.1:0"
	cfg.Receiver.HTTP.Endpoint = "127.0.0.1:0"
	config.ExporterConfig[promexp.Config](cfg.Exporters).Endpoint = "127.0.0.1:0"
	jl := config.ExporterConfig[jsonl.Config](cfg.Exporters)
	jl.Enabled, jl.Directory = true, filepath.Join(dir, "jsonl")
	ch := config.ExporterConfig[chexp.Config](cfg.Exporters)
	ch.Enabled, ch.Endpoint = true, dsn
	ch.Database = fmt.Sprintf("t_prom_e2e_%d", time.Now().UnixNano())
	ch.Spool.Directory = filepath.Join(dir, "spool")
	ch.FlushInterval = 200 * time.Millisecond
	oe := config.ExporterConfig[otelevents.Config](cfg.Exporters)
	oe.Enabled, oe.AllMetrics = true, true
	sink := otlpSink(ctx, t)
	oe.Endpoint, oe.Protocol = "http://"+sink+"/v1/logs", "http/protobuf"
	cfg.Receiver.Forward.Endpoint, cfg.Receiver.Forward.Protocol = "http://"+sink, "http"
	cfg.Extractor.QuietPeriod = 200 * time.Millisecond
	cfg.Extractor.Tick = 50 * time.Millisecond
	return cfg
}

// otlpSink starts a second sidecar to receive the evaluation events and
// the forwarded requests over OTLP/HTTP and returns its HTTP address.
func otlpSink(ctx context.Context, t *testing.T) string {
	t.Helper()
	cfg := config.Default()
	cfg.Receiver.GRPC.Endpoint = "127.0.0.1:0"
	cfg.Receiver.HTTP.Endpoint = "127.0.0.1:0"
	config.ExporterConfig[promexp.Config](cfg.Exporters).Endpoint = "127.0.0.1:0"
	config.ExporterConfig[jsonl.Config](cfg.Exporters).Enabled = false // it only receives; nothing is written into the working directory
	p, err := pipeline.New(cfg, telemetry.Settings{Version: "e2e-sink"}, pipeline.Options{Online: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Shutdown(context.Background()) })
	return p.Receiver.HTTPAddr()
}

// metricName is a metric name in PromQL: recording rule names (with a
// colon) match as one token and are skipped.
var metricName = regexp.MustCompile(`[a-zA-Z_:][a-zA-Z0-9_:]*`)

// checkMetricNames checks that every metric name the rules and the SRE
// dashboard read is exposed by the sidecar's live /metrics: a histogram
// is read through its _bucket, _count and _sum series.
func checkMetricNames(ctx context.Context, t *testing.T, addr string) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/metrics", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.LegacyValidation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	exposed := map[string]bool{}
	for name, f := range families {
		exposed[name] = true
		if f.GetType() == dto.MetricType_HISTOGRAM {
			exposed[name+"_bucket"], exposed[name+"_count"], exposed[name+"_sum"] = true, true, true
		}
	}
	var exprs []string
	rules, err := dashboards.SRERules(dashboards.DefaultRuleParams())
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			exprs = append(exprs, r.Expr)
		}
	}
	qs, err := dashboards.PromQueries(dashboards.Dashboard{UID: dashboards.SREUID, Build: dashboards.SRE}, dashboards.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		exprs = append(exprs, q.Expr)
	}
	missing := map[string]bool{}
	read := 0
	for _, e := range exprs {
		for _, name := range metricName.FindAllString(e, -1) {
			if !strings.HasPrefix(name, "evalsidecar_") || strings.Contains(name, ":") {
				continue
			}
			read++
			if !exposed[name] {
				missing[name] = true
			}
		}
	}
	if read == 0 {
		t.Fatal("no metric names found in the rules and panels")
	}
	for name := range missing {
		if why, ok := absentInDemo[name]; ok {
			t.Logf("%s is not exposed: %s", name, why)
			continue
		}
		t.Errorf("%s is read by a rule or panel but not exposed on /metrics", name)
	}
}

// absentInDemo are metrics a rule reads that have no series while the
// demo runs, and why.
var absentInDemo = map[string]string{
	calibration.MetricAgreement: "agreement with people needs feedback records, which the demo does not send (internal/pipeline TestFeedbackEndToEnd reads it on /metrics)",
	calibration.MetricFloor:     "exported with the first agreement figure (internal/pipeline TestFeedbackEndToEnd reads it on /metrics)",
}

// operatorTargetLabels are the target labels the Prometheus Operator adds
// to every series scraped through a ServiceMonitor or PodMonitor (job and
// instance come from the scrape itself). The test's scrape config adds
// them, with honor_labels: true as the chart's monitors set it.
var operatorTargetLabels = map[string]string{
	"service":   "evalsidecar",
	"namespace": "agents",
	"pod":       "evalsidecar-0",
	"container": "evalsidecar",
	"endpoint":  "metrics",
}

// checkServiceLabels checks that the agent's service survives the
// Operator's target labels: no series carries an exported_* label, every
// recording rule groups by the agent's service (service_name), and the raw
// series keep the target's own service label beside it.
func checkServiceLabels(ctx context.Context, t *testing.T, api promAPI, service string) {
	t.Helper()
	for l := range operatorTargetLabels {
		if n, err := api.count(ctx, fmt.Sprintf(`{exported_%s=~".+"}`, l)); err != nil || n > 0 {
			t.Errorf("%d series carry exported_%s (%v): a sidecar label collides with a target label", n, l, err)
		}
	}
	groups, err := api.query(ctx, `count by (service_name) ({__name__=~".+:.+", service_name!=""})`)
	if err != nil || len(groups) != 1 || groups[0].Metric["service_name"] != service {
		t.Errorf("recording rules group by service_name %v (%v), want only the agent's %q", groups, err, service)
	}
	raw, err := api.query(ctx, `count by (service, service_name) (evalsidecar_trajectories_total)`)
	if err != nil || len(raw) != 1 || raw[0].Metric["service"] != operatorTargetLabels["service"] || raw[0].Metric["service_name"] != service {
		t.Errorf("evalsidecar_trajectories_total by (service, service_name) = %v (%v), want the target's %q beside the agent's %q",
			raw, err, operatorTargetLabels["service"], service)
	}
}

// checkDashboardQueries runs every query of the SRE dashboard with its
// variables set to "all": each must parse, and return data unless listed
// in emptyInDemo, with the label values of wantInDemo; a series grouped by
// service_name must be the agent's service; exemplar queries must return
// exemplars with a trace id.
func checkDashboardQueries(ctx context.Context, t *testing.T, api promAPI, service string) {
	t.Helper()
	qs, err := dashboards.PromQueries(dashboards.Dashboard{UID: dashboards.SREUID, Build: dashboards.SRE}, dashboards.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	expand := strings.NewReplacer("$service", ".*", "$agent", ".*", "$instance", ".*", "$__rate_interval", "1m")
	for _, q := range qs {
		expr := expand.Replace(q.Expr)
		res, err := api.query(ctx, expr)
		n := len(res)
		for _, r := range res {
			if v, ok := r.Metric["service_name"]; ok && v != service {
				t.Errorf("panel %q %s: series of service_name %q, want the agent's %q", q.Panel, q.RefID, v, service)
			}
		}
		for label, values := range wantInDemo[q.Panel+" "+q.RefID] {
			have := map[string]bool{}
			for _, r := range res {
				have[r.Metric[label]] = true
			}
			for _, v := range values {
				if !have[v] {
					t.Errorf("panel %q %s: no series with %s=%q", q.Panel, q.RefID, label, v)
				}
			}
		}
		excused := emptyInDemo[q.Panel] != "" || emptyInDemo[q.Panel+" "+q.RefID] != ""
		switch {
		case err != nil:
			t.Errorf("panel %q %s: %v\n%s", q.Panel, q.RefID, err, expr)
		case n == 0 && !excused:
			t.Errorf("panel %q %s returned no data\n%s", q.Panel, q.RefID, expr)
		case n > 0 && excused:
			t.Errorf("panel %q %s is listed in emptyInDemo but returned data", q.Panel, q.RefID)
		}
		if q.Exemplar {
			ids, err := api.exemplarTraceIDs(ctx, expr)
			if err != nil || len(ids) == 0 {
				t.Errorf("panel %q: no exemplars with a trace_id (%v)", q.Panel, err)
			}
		}
	}
}

// startPrometheus writes a configuration scraping the sidecar every second
// with the rule files loaded, starts prometheus on a free loopback port and
// waits until it is ready. The process is stopped when the test ends.
func startPrometheus(ctx context.Context, t *testing.T, bin, dir, target string) string {
	t.Helper()
	committed, err := os.ReadFile(filepath.Join("helm", "evalsidecar", "files", "evalsidecar.rules.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	fast, err := dashboards.SRERules(e2eRuleParams())
	if err != nil {
		t.Fatal(err)
	}
	// Keep only the regression groups: their recordings carry the short
	// windows in their names, so they do not collide with the committed file.
	var groups []dashboards.RuleGroup
	for _, g := range fast.Groups {
		if strings.HasSuffix(g.Name, "-regressions") {
			g.Name += ".e2e"
			groups = append(groups, g)
		}
	}
	fastYAML, err := yaml.Marshal(dashboards.RuleFile{Groups: groups})
	if err != nil {
		t.Fatal(err)
	}
	// The committed rules are evaluated every second instead of every
	// minute, so their recordings exist within the test's first minute.
	committed = []byte(strings.ReplaceAll(string(committed), "interval: 1m\n", "interval: 1s\n"))
	files := map[string][]byte{"committed.rules.yaml": committed, "fast.rules.yaml": fastYAML}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	targetLabels, err := json.Marshal(operatorTargetLabels)
	if err != nil {
		t.Fatal(err)
	}
	promCfg := fmt.Sprintf(`global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: [committed.rules.yaml, fast.rules.yaml]
scrape_configs:
  - job_name: evalsidecar
    honor_labels: true
    static_configs:
      - targets: [%q]
        labels: %s
`, target, targetLabels)
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(promCfg), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	logf, err := os.Create(filepath.Join(dir, "prometheus.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin,
		"--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(dir, "tsdb"),
		"--web.listen-address="+addr,
		"--enable-feature=exemplar-storage",
	)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		logf.Close()
		if t.Failed() {
			if b, err := os.ReadFile(logf.Name()); err == nil {
				t.Logf("prometheus log:\n%s", tail(string(b), 40))
			}
		}
	})
	api := promAPI{base: "http://" + addr}
	api.waitFor(ctx, t, "prometheus ready", func() (bool, error) {
		resp, err := http.Get(api.base + "/-/ready")
		if err != nil {
			return false, nil
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, nil
	})
	return addr
}

func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// promAPI is a minimal client of the Prometheus HTTP API.
type promAPI struct{ base string }

// waitFor polls cond every 500ms until it holds or ctx ends.
func (a promAPI) waitFor(ctx context.Context, t *testing.T, what string, cond func() (bool, error)) {
	t.Helper()
	var lastErr error
	for {
		ok, err := cond()
		if ok {
			return
		}
		if err != nil {
			lastErr = err
		}
		select {
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %s (last error: %v)", what, lastErr)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func (a promAPI) get(ctx context.Context, path string, params url.Values, into any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.base+path+"?"+params.Encode(), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var env struct {
		Status string          `json:"status"`
		Error  string          `json:"error"`
		Data   json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		return fmt.Errorf("%s: %s: %w", path, resp.Status, err)
	}
	if env.Status != "success" {
		return fmt.Errorf("%s: %s", path, env.Error)
	}
	return json.Unmarshal(env.Data, into)
}

type vectorSample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

// query runs an instant query and returns its series.
func (a promAPI) query(ctx context.Context, expr string) ([]vectorSample, error) {
	var data struct {
		Result []vectorSample `json:"result"`
	}
	err := a.get(ctx, "/api/v1/query", url.Values{"query": {expr}}, &data)
	return data.Result, err
}

// count runs an instant query and returns the number of series.
func (a promAPI) count(ctx context.Context, expr string) (int, error) {
	r, err := a.query(ctx, expr)
	return len(r), err
}

// scalar runs an instant query and returns the value of its first series.
func (a promAPI) scalar(ctx context.Context, expr string) (float64, error) {
	var data struct {
		Result []vectorSample `json:"result"`
	}
	if err := a.get(ctx, "/api/v1/query", url.Values{"query": {expr}}, &data); err != nil {
		return 0, err
	}
	if len(data.Result) == 0 {
		return 0, nil
	}
	s, _ := data.Result[0].Value[1].(string)
	var v float64
	_, err := fmt.Sscan(s, &v)
	return v, err
}

type alert struct {
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
	State       string            `json:"state"`
}

// alerts returns the pending and firing alerts whose name contains name.
func (a promAPI) alerts(ctx context.Context, name string) ([]alert, error) {
	var data struct {
		Alerts []alert `json:"alerts"`
	}
	if err := a.get(ctx, "/api/v1/alerts", nil, &data); err != nil {
		return nil, err
	}
	var out []alert
	for _, al := range data.Alerts {
		if strings.Contains(al.Labels["alertname"], name) {
			out = append(out, al)
		}
	}
	return out, nil
}

// exemplarTraceIDs returns the trace ids of the exemplars of expr over the
// last five minutes.
func (a promAPI) exemplarTraceIDs(ctx context.Context, expr string) ([]string, error) {
	now := time.Now()
	var data []struct {
		Exemplars []struct {
			Labels map[string]string `json:"labels"`
		} `json:"exemplars"`
	}
	params := url.Values{
		"query": {expr},
		"start": {fmt.Sprint(now.Add(-5 * time.Minute).Unix())},
		"end":   {fmt.Sprint(now.Unix())},
	}
	if err := a.get(ctx, "/api/v1/query_exemplars", params, &data); err != nil {
		return nil, err
	}
	var ids []string
	for _, s := range data {
		for _, e := range s.Exemplars {
			if id := e.Labels["trace_id"]; id != "" {
				ids = append(ids, id)
			}
		}
	}
	return ids, nil
}
