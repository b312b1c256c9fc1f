package deploy

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/evalsidecar/evalsidecar/internal/loadgen"
)

// The gateway topology: an OpenTelemetry Collector with the load_balancing
// exporter (routed by the trace id the transform processor writes into
// evalsidecar.route, as the chart configures it; static resolver) in front of three
// sidecar processes, fed by the load generator replaying the real-client
// captures with fresh trace ids, each run cut into requests of a few spans
// and interleaved with up to two thousand other runs.

// replica is one sidecar process of the gateway.
type replica struct {
	bin, dir, grpc, metrics string
	cmd                     *exec.Cmd
	done                    chan struct{}
}

// replicaConfig is a sidecar's configuration for the routing tests; with
// a ClickHouse DSN and a database it writes to ClickHouse as well.
func replicaConfig(grpc, metrics, dir, quiet, maxAge, clickhouseDSN, database string) string {
	cfg := fmt.Sprintf(`receiver:
  grpc: {endpoint: %q}
  http: {enabled: false}
extractor:
  quiet_period: %s
  max_trace_age: %s
exporters:
  prometheus: {endpoint: %q}
  jsonl:
    directory: %q
    flush_interval: 100ms
`, grpc, quiet, maxAge, metrics, filepath.Join(dir, "out"))
	if clickhouseDSN != "" && database != "" {
		cfg += fmt.Sprintf(`  clickhouse:
    enabled: true
    endpoint: %q
    database: %q
    flush_interval: 200ms
    spool: {directory: %q, fsync: false}
`, clickhouseDSN, database, filepath.Join(dir, "spool"))
	}
	return cfg
}

// startReplica starts a sidecar with cfg and waits until it serves.
func startReplica(t testing.TB, bin, dir, grpc, metrics, cfg string) *replica {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &replica{bin: bin, dir: dir, grpc: grpc, metrics: metrics}
	r.start(t)
	t.Cleanup(func() { r.stop() })
	return r
}

func (r *replica) start(t testing.TB) {
	t.Helper()
	logf, err := os.OpenFile(filepath.Join(r.dir, "sidecar.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	r.cmd = exec.Command(r.bin, "serve", "-config", filepath.Join(r.dir, "config.yaml"), "-log-format", "json")
	r.cmd.Stdout, r.cmd.Stderr = logf, logf
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.done = make(chan struct{})
	go func() { _ = r.cmd.Wait(); logf.Close(); close(r.done) }()
	waitUntil(t, 60*time.Second, "sidecar "+r.grpc+" ready", func() bool {
		resp, err := http.Get("http://" + r.metrics + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
}

// kill ends the process at once, as an OOM kill or a node loss would.
func (r *replica) kill() {
	_ = r.cmd.Process.Kill()
	<-r.done
}

// stop ends the process as Kubernetes does (SIGTERM) and waits.
func (r *replica) stop() {
	select {
	case <-r.done:
		return
	default:
	}
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.done:
	case <-time.After(30 * time.Second):
		r.kill()
	}
}

// metric sums every series of the named family on the replica's /metrics.
func (r *replica) metric(t testing.TB, name string) float64 {
	t.Helper()
	resp, err := http.Get("http://" + r.metrics + "/metrics")
	if err != nil {
		t.Fatalf("scrape %s: %v", r.metrics, err)
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("scrape %s: %v", r.metrics, err)
	}
	sum := 0.0
	for _, m := range families[name].GetMetric() {
		switch {
		case m.Counter != nil:
			sum += m.Counter.GetValue()
		case m.Gauge != nil:
			sum += m.Gauge.GetValue()
		}
	}
	return sum
}

// trajectories reads the replica's trajectories.jsonl: each line by trace id.
func (r *replica) trajectories(t *testing.T) map[string][]map[string]any {
	t.Helper()
	out := map[string][]map[string]any{}
	f, err := os.Open(filepath.Join(r.dir, "out", "trajectories.jsonl"))
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var tr map[string]any
		if err := json.Unmarshal(sc.Bytes(), &tr); err != nil {
			continue // a line being written
		}
		id, _ := tr["trace_id"].(string)
		out[id] = append(out[id], tr)
	}
	return out
}

// collector is the routing tier.
type collector struct {
	endpoint string
	cmd      *exec.Cmd
}

// startCollector runs the load_balancing Collector in front of backends.
func startCollector(t testing.TB, bin, dir string, backends []string) *collector {
	t.Helper()
	endpoint, telemetry := freeAddr(t), freeAddr(t)
	host, port, _ := strings.Cut(telemetry, ":")
	cfg := fmt.Sprintf(`receivers:
  otlp:
    protocols:
      grpc:
        endpoint: %q
processors:
  transform/route:
    error_mode: ignore
    trace_statements:
      - set(span.attributes["evalsidecar.route"], span.trace_id.string)
    log_statements:
      - set(log.attributes["evalsidecar.route"], log.trace_id.string) where log.trace_id != TraceID(0x00000000000000000000000000000000)
      - set(log.attributes["evalsidecar.route"], UUID()) where log.trace_id == TraceID(0x00000000000000000000000000000000)
exporters:
  load_balancing:
    routing_key: attributes
    routing_attributes: [evalsidecar.route]
    protocol:
      otlp:
        tls: {insecure: true}
        timeout: 5s
        retry_on_failure: {enabled: true, initial_interval: 200ms, max_interval: 1s, max_elapsed_time: 2m}
        sending_queue: {enabled: true, queue_size: 100000}
    resolver:
      static:
        hostnames: [%s]
service:
  telemetry:
    logs: {level: warn}
    metrics:
      readers:
        - pull: {exporter: {prometheus: {host: %q, port: %s}}}
  pipelines:
    traces:
      receivers: [otlp]
      processors: [transform/route]
      exporters: [load_balancing]
    logs:
      receivers: [otlp]
      processors: [transform/route]
      exporters: [load_balancing]
`, endpoint, strings.Join(backends, ", "), host, port)
	path := filepath.Join(dir, "otelcol.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	logf, err := os.Create(filepath.Join(dir, "otelcol.log"))
	if err != nil {
		t.Fatal(err)
	}
	c := &collector{endpoint: endpoint, cmd: exec.Command(bin, "--config", path)}
	c.cmd.Stdout, c.cmd.Stderr = logf, logf
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = c.cmd.Wait(); logf.Close(); close(done) }()
	t.Cleanup(func() {
		_ = c.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = c.cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			if b, err := os.ReadFile(logf.Name()); err == nil {
				t.Logf("collector log:\n%s", tail(string(b), 30))
			}
		}
	})
	waitUntil(t, 60*time.Second, "collector ready", func() bool {
		resp, err := http.Get("http://" + telemetry + "/metrics")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return true
	})
	return c
}

// waitUntil polls cond every 200ms until it holds, or fails the test.
func waitUntil(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// buildSidecar builds the sidecar binary once for the package's tests.
func buildSidecar(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "evalsidecar")
	cmd := exec.Command("go", "build", "-o", bin, "../cmd/sidecar")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// loadCaptures returns the real-client captures: each is one agent run in
// one trace.
func loadCaptures(t testing.TB) []loadgen.Capture {
	t.Helper()
	cs, err := loadgen.LoadCaptures(filepath.Join("..", "extractor", "testdata", "realclients"))
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// comparable strips what differs between two replays of one capture: the
// trace id and the absolute times (every time moves by the same amount).
func comparable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if k == "trace_id" || k == "start" || k == "end" {
				continue
			}
			out[k] = comparable(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = comparable(e)
		}
		return out
	}
	return v
}

// replay sends cfg's runs and fails the test when one was not acknowledged.
func replay(t *testing.T, cfg loadgen.Config) *loadgen.Report {
	t.Helper()
	rep, err := loadgen.Replay(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed > 0 || len(rep.Acked()) != len(rep.Runs) {
		t.Fatalf("%d of %d requests failed (%v); %d of %d runs acknowledged", rep.Failed, rep.Requests, rep.Errors, len(rep.Acked()), len(rep.Runs))
	}
	t.Logf("sent %d runs, %d spans in %d requests in %s", len(rep.Runs), rep.Spans, rep.Requests, rep.Elapsed.Round(time.Millisecond))
	return rep
}

// baseline is each capture's trajectory as one sidecar rebuilds it from
// the capture sent whole, in the order recorded.
func baseline(t *testing.T, r *replica, captures []loadgen.Capture) map[string]any {
	t.Helper()
	runs := map[string]string{} // trace id → capture
	for _, c := range captures {
		rep := replay(t, loadgen.Config{Protocol: "grpc", Endpoints: []string{r.grpc}, Captures: []loadgen.Capture{c},
			Runs: 1, InFlight: 1, SpansPerRequest: c.Count, Senders: 1, Seed: uint64(time.Now().UnixNano())})
		runs[rep.Runs[0].TraceIDs[0].String()] = c.Name
	}
	out := map[string]any{}
	var got map[string][]map[string]any
	waitUntil(t, 60*time.Second, "baseline trajectories", func() bool {
		got = r.trajectories(t)
		return len(got) >= len(runs)
	})
	for id, name := range runs {
		if len(got[id]) != 1 {
			t.Fatalf("capture %s: %d trajectories, want 1", name, len(got[id]))
		}
		out[name] = comparable(got[id][0])
	}
	return out
}

// TestTraceIDRouting checks the gateway: every run rebuilt exactly once
// across the replicas and equal to what one sidecar rebuilds; ClickHouse
// holds each run once; a killed replica loses exactly the runs it had
// buffered, and the ring delivers everything after it is back; without the
// routing tier the split runs show on evalsidecar_assembler_partial_traces_total.
func TestTraceIDRouting(t *testing.T) {
	otelcol := binary(t, "EVALSIDECAR_OTELCOL_BIN", "otelcol-evalsidecar")
	dsn := clickhouseDSNForRouting(t)
	bin := buildSidecar(t)
	captures := loadCaptures(t)
	dir := t.TempDir()

	newReplicas := func(t *testing.T, name, quiet, maxAge, database string) []*replica {
		var rs []*replica
		for i := range 3 {
			d := filepath.Join(dir, fmt.Sprintf("%s-%d", name, i))
			grpc, metrics := freeAddr(t), freeAddr(t)
			rs = append(rs, startReplica(t, bin, d, grpc, metrics, replicaConfig(grpc, metrics, d, quiet, maxAge, dsn, database)))
		}
		return rs
	}
	endpoints := func(rs []*replica) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.grpc)
		}
		return out
	}
	merged := func(t *testing.T, rs []*replica) map[string][]map[string]any {
		out := map[string][]map[string]any{}
		for _, r := range rs {
			for id, trs := range r.trajectories(t) {
				out[id] = append(out[id], trs...)
			}
		}
		return out
	}
	sum := func(t *testing.T, rs []*replica, name string) float64 {
		s := 0.0
		for _, r := range rs {
			s += r.metric(t, name)
		}
		return s
	}
	load := func(eps []string, runs int) loadgen.Config {
		return loadgen.Config{Protocol: "grpc", Endpoints: eps, Captures: captures, Runs: runs,
			InFlight: 2000, SpansPerRequest: 3, Senders: 4, Seed: uint64(time.Now().UnixNano())}
	}

	t.Run("routed", func(t *testing.T) {
		database := uniqueDatabase("t_routing")
		rs := newReplicas(t, "routed", "1s", "2m", database)
		want := baseline(t, rs[0], captures)
		col := startCollector(t, otelcol, filepath.Join(dir), endpoints(rs))
		before := sum(t, rs, "evalsidecar_trajectories_total")
		rep := replay(t, load([]string{col.endpoint}, 3000))
		var got map[string][]map[string]any
		waitUntil(t, 90*time.Second, "every run written", func() bool {
			got = merged(t, rs)
			for _, run := range rep.Runs {
				if len(got[run.TraceIDs[0].String()]) == 0 {
					return false
				}
			}
			return true
		})
		for _, run := range rep.Runs {
			trs := got[run.TraceIDs[0].String()]
			if len(trs) != 1 {
				t.Errorf("run %s (%s) rebuilt %d times", run.TraceIDs[0], run.Capture, len(trs))
				continue
			}
			if c := comparable(trs[0]); !reflect.DeepEqual(c, want[run.Capture]) {
				t.Errorf("run %s (%s) differs from the single-replica trajectory:\n got %v\nwant %v", run.TraceIDs[0], run.Capture, c, want[run.Capture])
			}
		}
		if n := sum(t, rs, "evalsidecar_trajectories_total") - before; int(n) != len(rep.Runs) {
			t.Errorf("sum of evalsidecar_trajectories_total grew by %v, want %d", n, len(rep.Runs))
		}
		if n := sum(t, rs, "evalsidecar_assembler_partial_traces_total"); n != 0 {
			t.Errorf("%v partial traces behind the routing tier", n)
		}
		for i, r := range rs {
			if n := r.metric(t, "evalsidecar_trajectories_total"); n < float64(len(rep.Runs))/6 {
				t.Errorf("replica %d rebuilt %v runs: the ring does not spread them", i, n)
			}
		}
		checkClickHouseRuns(t, dsn, database, len(rep.Runs)+len(captures))
	})

	t.Run("replica_killed", func(t *testing.T) {
		// A long quiet period keeps runs buffered in the replicas after the
		// load has been delivered, so the runs lost with the killed replica
		// are exactly its buffered ones.
		rs := newReplicas(t, "killed", "15s", "2m", "")
		col := startCollector(t, otelcol, filepath.Join(dir), endpoints(rs))
		first := replay(t, load([]string{col.endpoint}, 1500))
		waitUntil(t, 60*time.Second, "every span delivered", func() bool {
			return int(sum(t, rs, "evalsidecar_receiver_spans_total")) == first.Spans
		})
		victim := rs[1]
		buffered := int(victim.metric(t, "evalsidecar_assembler_live_traces"))
		victimSpans := int(victim.metric(t, "evalsidecar_receiver_spans_total")) // its counters restart with it
		written := len(victim.trajectories(t))
		victim.kill()
		// the load goes on while the replica is down: the Collector queues
		// and retries what the ring sends it
		second := make(chan *loadgen.Report, 1)
		go func() {
			rep, err := loadgen.Replay(context.Background(), load([]string{col.endpoint}, 1500))
			if err != nil {
				t.Error(err)
			}
			second <- rep
		}()
		time.Sleep(2 * time.Second)
		victim.start(t)
		rep2 := <-second
		if rep2 == nil || len(rep2.Acked()) != len(rep2.Runs) {
			t.Fatal("second load not acknowledged in full")
		}
		var got map[string][]map[string]any
		missing := func() (lost []loadgen.SentRun) {
			for _, run := range first.Runs {
				if len(got[run.TraceIDs[0].String()]) == 0 {
					lost = append(lost, run)
				}
			}
			return lost
		}
		waitUntil(t, 120*time.Second, "both loads released", func() bool {
			return sum(t, rs, "evalsidecar_assembler_live_traces") == 0 &&
				int(sum(t, rs, "evalsidecar_receiver_spans_total")) == rep2.Spans+first.Spans-victimSpans
		})
		got = merged(t, rs)
		if lost := missing(); len(lost) != buffered {
			t.Errorf("%d runs lost; the killed replica had %d buffered (and had written %d)", len(lost), buffered, written)
		}
		for id, trs := range got {
			if len(trs) != 1 {
				t.Errorf("run %s rebuilt %d times", id, len(trs))
			}
		}
		if n := sum(t, rs, "evalsidecar_assembler_partial_traces_total"); n != 0 {
			t.Errorf("%v partial traces after the replica came back", n)
		}
		t.Logf("killed replica had %d runs buffered; %d lost; second load of %d runs delivered in full", buffered, len(missing()), len(rep2.Runs))
	})

	t.Run("without_routing", func(t *testing.T) {
		// A plain load balancer spreads requests, not traces: runs are cut
		// across replicas, and the partial-trace counter shows it.
		rs := newReplicas(t, "spread", "1s", "5s", "")
		rep := replay(t, load(endpoints(rs), 600))
		waitUntil(t, 60*time.Second, "the spread runs released", func() bool {
			return int(sum(t, rs, "evalsidecar_receiver_spans_total")) == rep.Spans &&
				sum(t, rs, "evalsidecar_assembler_live_traces") == 0
		})
		got := merged(t, rs)
		split := 0
		for _, run := range rep.Runs {
			if len(got[run.TraceIDs[0].String()]) != 1 {
				split++
			}
		}
		partial := sum(t, rs, "evalsidecar_assembler_partial_traces_total")
		t.Logf("%d of %d runs split or lost; %v partial traces counted", split, len(rep.Runs), partial)
		if split == 0 || partial == 0 {
			t.Errorf("spreading requests split %d runs and counted %v partial traces; want both above 0", split, partial)
		}
		if partial < float64(split) {
			t.Errorf("%v partial traces counted for %d split runs", partial, split)
		}
	})
}

// clickhouseDSNForRouting is the test server's DSN; in CI a missing server
// fails the test, elsewhere the ClickHouse check is left out.
func clickhouseDSNForRouting(t *testing.T) string {
	dsn := os.Getenv("EVALSIDECAR_CLICKHOUSE_DSN")
	if dsn == "" && os.Getenv("CI") == "true" {
		t.Fatal("EVALSIDECAR_CLICKHOUSE_DSN is not set (scripts/test starts ClickHouse)")
	}
	return dsn
}

// uniqueDatabase names a fresh database.
func uniqueDatabase(prefix string) string {
	return fmt.Sprintf("%s_%d", prefix, time.Now().UnixNano())
}

// checkClickHouseRuns checks that the trajectories table of database
// holds want runs, each once.
func checkClickHouseRuns(t *testing.T, dsn, database string, want int) {
	t.Helper()
	if dsn == "" {
		t.Log("no ClickHouse: rows not checked")
		return
	}
	opts, err := ch.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ch.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := context.Background()
	var rows, runs uint64
	waitUntil(t, 60*time.Second, "ClickHouse rows", func() bool {
		err := conn.QueryRow(ctx, fmt.Sprintf("SELECT count(), uniqExact(trace_id) FROM %s.trajectories FINAL", database)).Scan(&rows, &runs)
		return err == nil && rows >= uint64(want)
	})
	if rows != uint64(want) || runs != uint64(want) {
		t.Errorf("ClickHouse holds %d rows of %d runs, want %d of %d", rows, runs, want, want)
	}
	_ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+database)
}
