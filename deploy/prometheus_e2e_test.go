package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/evalsidecar/evalsidecar/dashboards"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/pipeline"
	"github.com/evalsidecar/evalsidecar/internal/simulator"
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
// against the 40s before, evaluated every second.
func e2eRuleParams() dashboards.RuleParams {
	p := dashboards.DefaultRuleParams()
	p.Interval = time.Second
	p.RecentWindow = 20 * time.Second
	p.BaselineWindow = 40 * time.Second
	p.BaselineOffset = 20 * time.Second
	p.For = 5 * time.Second
	return p
}

// Panels (or "panel refId") of the SRE dashboard that have no data while
// the demo runs, and why. Every other query must return data.
var emptyInDemo = map[string]string{
	"Judge requests by outcome":          "the demo configures no LLM judge",
	"Judge latency p95":                  "the demo configures no LLM judge",
	"Judge tokens per second":            "the demo configures no LLM judge",
	"Judge cost per hour":                "the demo configures no LLM judge",
	"Judge circuit open":                 "the demo configures no LLM judge",
	"Judge budget skips":                 "the demo configures no LLM judge",
	"Judge skipped by metric and reason": "the demo configures no LLM judge",
	"Judge queue and in flight":          "the demo configures no LLM judge",
	"Judge retries by class":             "the demo configures no LLM judge",
	"Judge redactions by type":           "the demo configures no LLM judge",
	"Exported records B":                 "the demo exports no OpenTelemetry evaluation events",
	"Exporter spool":                     "no spooling exporter runs in the demo",
	"Refused":                            "the simulator sends only valid data",
	"Dropped":                            "nothing is dropped at this load",
	"Regression significance (z)":        "its baseline starts 1h ago, before the test began",
	"Received B":                         "the simulator sends messages as span attributes, not log records",
}

// TestPrometheusEndToEnd runs a sidecar fed by the simulated agent, a real
// Prometheus scraping it every second with the alert rules loaded, injects
// a regression (the agent switches to a worse release) and waits until the
// run-failure regression alert fires. It then runs every PromQL query of
// the SRE dashboard against that Prometheus.
func TestPrometheusEndToEnd(t *testing.T) {
	promBin := binary(t, "EVALSIDECAR_PROMETHEUS_BIN", "prometheus")
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dir := t.TempDir()

	// The sidecar.
	cfg := config.Default()
	cfg.Receiver.GRPC.Endpoint = "127.0.0.1:0"
	cfg.Receiver.HTTP.Endpoint = "127.0.0.1:0"
	cfg.Exporters.Prometheus.Endpoint = "127.0.0.1:0"
	cfg.Exporters.JSONL.Enabled = true
	cfg.Exporters.JSONL.Directory = filepath.Join(dir, "jsonl")
	cfg.Extractor.QuietPeriod = 200 * time.Millisecond
	cfg.Extractor.Tick = 50 * time.Millisecond
	p, err := pipeline.New(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), pipeline.Options{Online: true, Version: "e2e"})
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

	// The regression: a new release that fails far more often.
	sim.SetQuality(simulator.Degraded)
	sim.SetRelease("1.1.0")
	injected := time.Now()
	api.waitFor(ctx, t, "EvalSidecarRunFailureRateRegression firing", func() (bool, error) {
		active, err := api.alerts(ctx, "EvalSidecarRunFailureRateRegression")
		for _, a := range active {
			if a.State == "firing" && a.Labels["service"] == simCfg.Service {
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

	checkDashboardQueries(ctx, t, api)
}

// checkDashboardQueries runs every query of the SRE dashboard with its
// variables set to "all": each must parse, and return data unless listed
// in emptyInDemo; exemplar queries must return exemplars with a trace id.
func checkDashboardQueries(ctx context.Context, t *testing.T, api promAPI) {
	t.Helper()
	qs, err := dashboards.PromQueries(dashboards.Dashboard{UID: dashboards.SREUID, Build: dashboards.SRE}, dashboards.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	expand := strings.NewReplacer("$service", ".*", "$agent", ".*", "$instance", ".*", "$__rate_interval", "1m")
	for _, q := range qs {
		expr := expand.Replace(q.Expr)
		n, err := api.count(ctx, expr)
		switch {
		case err != nil:
			t.Errorf("panel %q %s: %v\n%s", q.Panel, q.RefID, err, expr)
		case n == 0 && emptyInDemo[q.Panel] == "" && emptyInDemo[q.Panel+" "+q.RefID] == "":
			t.Errorf("panel %q %s returned no data\n%s", q.Panel, q.RefID, expr)
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
	promCfg := fmt.Sprintf(`global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: [committed.rules.yaml, fast.rules.yaml]
scrape_configs:
  - job_name: evalsidecar
    static_configs:
      - targets: [%q]
`, target)
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

// count runs an instant query and returns the number of series.
func (a promAPI) count(ctx context.Context, expr string) (int, error) {
	var data struct {
		Result []vectorSample `json:"result"`
	}
	err := a.get(ctx, "/api/v1/query", url.Values{"query": {expr}}, &data)
	return len(data.Result), err
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
