package pipeline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	promexp "github.com/evalsidecar/evalsidecar/exporter/prometheus"
	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/simulator"
)

// testConfig returns the defaults with every listener on a free loopback
// port, JSON lines in dir and a short quiet period.
func testConfig(dir string) config.Config {
	cfg := config.Default()
	cfg.Receiver.GRPC.Endpoint = "127.0.0.1:0"
	cfg.Receiver.HTTP.Endpoint = "127.0.0.1:0"
	config.ExporterConfig[promexp.Config](cfg.Exporters).Endpoint = "127.0.0.1:0"
	jl := config.ExporterConfig[jsonl.Config](cfg.Exporters)
	jl.Enabled, jl.Directory, jl.FlushInterval = true, dir, 50*time.Millisecond
	cfg.Extractor.QuietPeriod = 300 * time.Millisecond
	cfg.Extractor.Tick = 50 * time.Millisecond
	return cfg
}

// TestEndToEnd sends agent runs with the real OpenTelemetry Go SDK (gRPC and
// HTTP trace exporters; the log SDK for the v1.28–1.36 event form) to a
// running sidecar on loopback, then checks the trajectories it wrote and the
// Prometheus samples it serves against what the simulated agent really did.
func TestEndToEnd(t *testing.T) {
	tests := []struct {
		name      string
		protocol  string
		eventForm bool
	}{
		{name: "grpc attributes", protocol: simulator.ProtocolGRPC},
		{name: "http attributes", protocol: simulator.ProtocolHTTP},
		{name: "grpc log events", protocol: simulator.ProtocolGRPC, eventForm: true},
		{name: "http log events", protocol: simulator.ProtocolHTTP, eventForm: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const runs = 12
			dir := t.TempDir()
			p, ctx := startOnline(t, testConfig(dir), Options{})
			shutdown := func() {
				if err := p.Shutdown(ctx); err != nil {
					t.Errorf("shutdown: %v", err)
				}
			}
			defer func() {
				if p != nil {
					shutdown()
				}
			}()

			simCfg := simulator.DefaultConfig()
			simCfg.Protocol = tt.protocol
			simCfg.Endpoint = p.Receiver.GRPCAddr()
			if tt.protocol == simulator.ProtocolHTTP {
				simCfg.Endpoint = p.Receiver.HTTPAddr()
			}
			simCfg.EventForm = tt.eventForm
			simCfg.Quality = simulator.Degraded // failures, repeats and invalid arguments
			simCfg.Seed = 7
			sim, err := simulator.New(ctx, simCfg)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]simulator.Run{}
			if err := sim.Run(ctx, runs, 0, func(r simulator.Run) { want[r.TraceID] = r }); err != nil {
				t.Fatal(err)
			}
			if err := sim.Shutdown(ctx); err != nil {
				t.Fatal(err)
			}

			// Wait until every run has been assembled, scored and
			// exported: the exporter counts a run's trajectory and tool
			// calls before it observes the run's scores, so a run whose
			// scores are all observed is counted in full.
			metricsURL := "http://" + p.Metrics.Addr() + "/metrics"
			var families map[string]*dto.MetricFamily
			for {
				families = scrape(t, metricsURL)
				if sumCounter(families["evalsidecar_trajectories_total"], nil) >= runs && scoresObserved(families) >= runs {
					break
				}
				select {
				case <-ctx.Done():
					t.Fatalf("only %v of %d trajectories counted, %d scored", sumCounter(families["evalsidecar_trajectories_total"], nil), runs, scoresObserved(families))
				case <-time.After(100 * time.Millisecond):
				}
			}
			checkMetrics(t, families, want)
			shutdown()
			p = nil
			checkTrajectories(t, filepath.Join(dir, "trajectories.jsonl"), want)
			checkScores(t, filepath.Join(dir, "scores.jsonl"), want)
		})
	}
}

// scoreMetrics are metrics every run is scored by, with the score
// histogram of their unit.
var scoreMetrics = map[string]string{
	"latency":         "evalsidecar_eval_score_seconds",
	"failure":         "evalsidecar_eval_score_ratio",
	"tool_call_count": "evalsidecar_eval_score_items",
}

// scoresObserved returns the number of runs whose every score of
// scoreMetrics is observed in the histogram of its unit.
func scoresObserved(families map[string]*dto.MetricFamily) int {
	least := -1
	for metric, family := range scoreMetrics {
		var n uint64
		for _, m := range families[family].GetMetric() {
			if labelsMatch(m, map[string]string{"metric": metric}) {
				n += m.GetHistogram().GetSampleCount()
			}
		}
		if least < 0 || int(n) < least {
			least = int(n)
		}
	}
	return least
}

func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return families
}

// sumCounter adds the counter values of mf whose labels include match.
func sumCounter(mf *dto.MetricFamily, match map[string]string) float64 {
	if mf == nil {
		return 0
	}
	var sum float64
	for _, m := range mf.GetMetric() {
		if labelsMatch(m, match) {
			sum += m.GetCounter().GetValue()
		}
	}
	return sum
}

func labelsMatch(m *dto.Metric, match map[string]string) bool {
	for k, v := range match {
		found := false
		for _, lp := range m.GetLabel() {
			if lp.GetName() == k && lp.GetValue() == v {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func checkMetrics(t *testing.T, families map[string]*dto.MetricFamily, want map[string]simulator.Run) {
	t.Helper()
	var failed, calls, callErrors, spansMin int
	for _, r := range want {
		if r.Failed {
			failed++
		}
		calls += len(r.ToolCalls)
		for _, c := range r.ToolCalls {
			if c.Error != "" {
				callErrors++
			}
		}
		spansMin += 1 + len(r.ToolCalls) + r.LLMCalls
	}
	runs := float64(len(want))
	traj := families["evalsidecar_trajectories_total"]
	if got := sumCounter(traj, map[string]string{"outcome": "failed"}); got != float64(failed) {
		t.Errorf("trajectories_total{outcome=failed} = %v, want %d", got, failed)
	}
	if got := sumCounter(traj, map[string]string{"outcome": "ok", "service_name": "demo-agent"}); got != runs-float64(failed) {
		t.Errorf("trajectories_total{outcome=ok,service_name=demo-agent} = %v, want %v", got, runs-float64(failed))
	}
	tc := families["evalsidecar_tool_calls_total"]
	if got := sumCounter(tc, nil); got != float64(calls) {
		t.Errorf("tool_calls_total = %v, want %d", got, calls)
	}
	if got := sumCounter(tc, map[string]string{"outcome": "error"}); got != float64(callErrors) {
		t.Errorf("tool_calls_total{outcome=error} = %v, want %d", got, callErrors)
	}
	if got := sumCounter(families["evalsidecar_receiver_spans_total"], nil); got < float64(spansMin) {
		t.Errorf("receiver_spans_total = %v, want >= %d", got, spansMin)
	}
	if got := sumCounter(families["evalsidecar_dropped_total"], nil); got != 0 {
		t.Errorf("dropped_total = %v, want 0", got)
	}
	// Every run gets a latency, a failure and a tool call count score; the
	// histogram of each one's unit counts them.
	for metric, family := range scoreMetrics {
		var n uint64
		for _, m := range families[family].GetMetric() {
			if labelsMatch(m, map[string]string{"metric": metric}) {
				n += m.GetHistogram().GetSampleCount()
			}
		}
		if n != uint64(len(want)) {
			t.Errorf("%s{metric=%s} count = %d, want %d", family, metric, n, len(want))
		}
	}
	var failureSum float64
	for _, m := range families["evalsidecar_eval_score_ratio"].GetMetric() {
		if labelsMatch(m, map[string]string{"metric": "failure"}) {
			failureSum += m.GetHistogram().GetSampleSum()
		}
	}
	// failure passes (its rule: score <= 0) exactly for the runs that
	// did not fail.
	if got := sumCounter(families["evalsidecar_eval_passed_total"], map[string]string{"metric": "failure"}); got != runs-float64(failed) {
		t.Errorf("eval_passed_total{metric=failure} = %v, want %v runs that did not fail", got, runs-float64(failed))
	}
	if got := sumCounter(families["evalsidecar_eval_scored_total"], map[string]string{"metric": "failure"}); got != runs {
		t.Errorf("eval_scored_total{metric=failure} = %v, want %v", got, runs)
	}
	if failureSum != float64(failed) {
		t.Errorf("eval_score_ratio{metric=failure} sum = %v, want %d failed runs", failureSum, failed)
	}
}

func readLines[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func checkTrajectories(t *testing.T, path string, want map[string]simulator.Run) {
	t.Helper()
	got := readLines[record.TrajectoryRecord](t, path)
	if len(got) != len(want) {
		t.Fatalf("%d trajectories written, want %d", len(got), len(want))
	}
	for _, tr := range got {
		r, ok := want[tr.TraceID]
		if !ok {
			t.Errorf("trajectory for unknown trace %s", tr.TraceID)
			continue
		}
		if tr.Input != r.Input || tr.Output != r.Output || tr.Failed != r.Failed || tr.Agent != r.Agent || tr.SpanID != r.SpanID {
			t.Errorf("trace %s: got input %q output %q failed %v agent %q span %s; want %q %q %v %q %s",
				tr.TraceID, tr.Input, tr.Output, tr.Failed, tr.Agent, tr.SpanID, r.Input, r.Output, r.Failed, r.Agent, r.SpanID)
		}
		if tr.ServiceVersion != r.Release || tr.SessionID != r.ConversationID || tr.Convention != "genai" {
			t.Errorf("trace %s: version %q session %q convention %q", tr.TraceID, tr.ServiceVersion, tr.SessionID, tr.Convention)
		}
		if len(tr.ToolCalls) != len(r.ToolCalls) {
			t.Errorf("trace %s: %d tool calls, want %d", tr.TraceID, len(tr.ToolCalls), len(r.ToolCalls))
			continue
		}
		for i, c := range tr.ToolCalls {
			w := r.ToolCalls[i]
			if c.Name != w.Name || c.ID != w.ID || (c.Error != "") != (w.Error != "") || c.Result != w.Result {
				t.Errorf("trace %s call %d: got %s/%s error %q result %q; want %s/%s error %q result %q",
					tr.TraceID, i, c.ID, c.Name, c.Error, c.Result, w.ID, w.Name, w.Error, w.Result)
			}
			if !sameArguments(c.Arguments, w.Arguments) {
				t.Errorf("trace %s call %d arguments = %s, want %s", tr.TraceID, i, c.Arguments, w.Arguments)
			}
		}
	}
}

// sameArguments compares a written arguments field (a JSON object, or a JSON
// string holding text that is not an object) with the raw text sent.
func sameArguments(written json.RawMessage, sent string) bool {
	var s string
	if json.Unmarshal(written, &s) == nil {
		return s == sent
	}
	var a, b any
	if json.Unmarshal(written, &a) != nil || json.Unmarshal([]byte(sent), &b) != nil {
		return false
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func checkScores(t *testing.T, path string, want map[string]simulator.Run) {
	t.Helper()
	got := readLines[record.ScoreRecord](t, path)
	byTrace := map[string]map[string]float64{}
	for _, s := range got {
		if byTrace[s.TraceID] == nil {
			byTrace[s.TraceID] = map[string]float64{}
		}
		byTrace[s.TraceID][s.Metric] = s.Score
	}
	for id, r := range want {
		scores := byTrace[id]
		if scores == nil {
			t.Errorf("no scores for trace %s", id)
			continue
		}
		if got := scores["tool_call_count"]; got != float64(len(r.ToolCalls)) {
			t.Errorf("trace %s tool_call_count = %v, want %d", id, got, len(r.ToolCalls))
		}
		wantFailure := 0.0
		if r.Failed {
			wantFailure = 1
		}
		if got := scores["failure"]; got != wantFailure {
			t.Errorf("trace %s failure = %v, want %v", id, got, wantFailure)
		}
		if len(r.ToolCalls) > 0 {
			var errs int
			for _, c := range r.ToolCalls {
				if c.Error != "" {
					errs++
				}
			}
			if got, want := scores["tool_error_rate"], float64(errs)/float64(len(r.ToolCalls)); got != want {
				t.Errorf("trace %s tool_error_rate = %v, want %v", id, got, want)
			}
		}
	}
}
