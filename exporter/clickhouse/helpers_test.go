package clickhouse

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/configretry"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// serverDSN returns the test server's DSN: tests that need ClickHouse fail
// in CI without it and skip elsewhere.
func serverDSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv("EVALSIDECAR_CLICKHOUSE_DSN")
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("EVALSIDECAR_CLICKHOUSE_DSN is not set (scripts/test starts ClickHouse)")
		}
		t.Skip("EVALSIDECAR_CLICKHOUSE_DSN not set; run scripts/test to start ClickHouse")
	}
	return dsn
}

// testServer is a connection to the test server and a fresh database.
type testServer struct {
	dsn  string
	conn driver.Conn
	db   string
}

func newTestServer(t testing.TB) *testServer {
	t.Helper()
	return connectTestServer(t, serverDSN(t))
}

// connectTestServer connects to dsn and picks a fresh database name.
func connectTestServer(t testing.TB, dsn string) *testServer {
	t.Helper()
	opts, err := ch.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	opts.Settings = ch.Settings{"allow_experimental_low_cardinality_type": 1}
	conn, err := ch.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	var id [4]byte
	_, _ = rand.Read(id[:])
	name := strings.NewReplacer("/", "_", "-", "_").Replace(t.Name())
	if len(name) > 40 {
		name = name[:40]
	}
	s := &testServer{dsn: dsn, conn: conn, db: "t_" + name + "_" + hex.EncodeToString(id[:])}
	t.Cleanup(func() {
		if !t.Failed() || os.Getenv("EVALSIDECAR_KEEP_DB") == "" {
			_ = s.exec(context.Background(), "DROP DATABASE IF EXISTS "+s.db)
		}
		_ = conn.Close()
	})
	return s
}

func (s *testServer) exec(ctx context.Context, q string) error {
	return s.conn.Exec(ctx, q)
}

// count runs a count query; errors give -1.
func (s *testServer) count(t testing.TB, q string) int {
	t.Helper()
	var n uint64
	if err := s.conn.QueryRow(context.Background(), q).Scan(&n); err != nil {
		var ex *ch.Exception
		if errors.As(err, &ex) {
			return -1
		}
		t.Fatalf("%s: %v", q, err)
	}
	return int(n)
}

// waitFor polls cond until it holds; it fails the test after limit. The
// limit only bounds a broken run: assertions are on the final state.
func waitFor(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// testConfig is a config for the test server with fast timers.
func (s *testServer) config(t testing.TB) Config {
	cfg := DefaultConfig()
	cfg.Enabled = true
	cfg.Endpoint = s.dsn
	cfg.Database = s.db
	cfg.Spool.Directory = t.TempDir()
	cfg.Spool.Fsync = false
	cfg.FlushInterval = 50 * time.Millisecond
	cfg.Timeout = 10 * time.Second
	cfg.DialTimeout = time.Second
	cfg.RetryOnFailure = configretry.BackOffConfig{Enabled: true, InitialInterval: 20 * time.Millisecond, MaxInterval: 200 * time.Millisecond, Multiplier: 2, RandomizationFactor: 0.1}
	cfg.ParkInterval = 100 * time.Millisecond
	return cfg
}

type harness struct {
	x     *Exporter
	reg   *prometheus.Registry
	drops *telemetry.Drops
}

func startExporter(t testing.TB, cfg Config) *harness {
	t.Helper()
	reg := prometheus.NewRegistry()
	drops := telemetry.NewDrops(reg)
	x, err := New(cfg, telemetry.Settings{Registerer: reg, Drops: drops, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	h := &harness{x: x, reg: reg, drops: drops}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = x.Shutdown(ctx)
	})
	return h
}

func (h *harness) rows(table, outcome string) int {
	return int(testutil.ToFloat64(h.x.m.rows.WithLabelValues(table, outcome)))
}

func (h *harness) dropped(reason string) int {
	return int(testutil.ToFloat64(h.drops.Vec().WithLabelValues(dropStage, reason)))
}

var baseTime = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// testEvaluation is run i of a synthetic stream: three tool calls (the
// third repeats the first and fails), two scores (one judged), one metric
// not applicable and one error. Rows: 2 evaluations, 1 trajectory, 3 tool
// calls, 4 decisions.
func testEvaluation(i int) *scorer.Evaluation {
	start := baseTime.Add(time.Duration(i) * time.Second)
	tr := &agentrun.Trajectory{
		TraceID:        fmt.Sprintf("%032x", i+1),
		RootSpanID:     fmt.Sprintf("%016x", i+1),
		Service:        "support-bot",
		ServiceVersion: []string{"1.0.0", "1.1.0"}[i%2],
		Environment:    "prod",
		Agent:          []string{"triage", "refunds"}[i%2],
		SessionID:      fmt.Sprintf("s-%d", i/3),
		Convention:     "genai",
		Start:          start,
		End:            start.Add(1500 * time.Millisecond),
		Input:          "refund order 42",
		Output:         "done",
		ToolCalls: []agentrun.ToolCall{
			{ID: "c1", Name: "lookup_order", Arguments: `{"id":42}`, ArgumentsValid: true, Result: "found",
				Start: start.Add(100 * time.Millisecond), End: start.Add(300 * time.Millisecond), SpanID: "a1"},
			{ID: "c2", Name: "refund", Arguments: `{"id":42,"amount":10}`, ArgumentsValid: true, Result: "ok",
				Start: start.Add(400 * time.Millisecond), End: start.Add(900 * time.Millisecond), SpanID: "a2"},
			{ID: "c3", Name: "lookup_order", Arguments: `{"id":42}`, ArgumentsValid: true, Error: "timeout",
				Start: start.Add(1000 * time.Millisecond), End: start.Add(1400 * time.Millisecond), SpanID: "a3"},
		},
		LLMCalls: []agentrun.LLMCall{
			{Model: "gpt-x", InputTokens: 100, OutputTokens: 20},
			{Model: "gpt-x", InputTokens: 150, OutputTokens: 30},
		},
		Attributes: map[string]string{"intent": "refund"},
	}
	failed := false // tool_error_rate's pass rule is <= 0
	return &scorer.Evaluation{
		Trajectory: tr,
		Results: []scorer.Result{
			{Metric: "tool_error_rate", Score: 1.0 / 3, Passed: &failed, Details: map[string]any{"errors": 1}},
			{Metric: "hallucination_v1", Score: float64(i%10) / 10, Label: "ok", Explanation: fmt.Sprintf("run %d explained", i),
				Judge: &scorer.JudgeUsage{Provider: "openai", Model: "judge-1", InputTokens: 500, OutputTokens: 50, Latency: time.Second}},
		},
		NotApplicable: []string{"trajectory_exact_match"},
		Errors:        []scorer.MetricError{{Metric: "rouge_l_sum", Reason: "error", Err: errors.New("no reference")}},
		// One person's label of the run: a real sink gets feedback in
		// evaluations of its own, the row builder takes either.
		Feedback: []scorer.Feedback{{Time: start.Add(time.Minute), TraceID: tr.TraceID, Metric: "hallucination_v1",
			Label: "ok", Value: float64(i % 2), HasValue: i%2 == 0, Annotator: "ann"}},
	}
}

// rowsPerEvaluation is what testEvaluation adds to each table.
var rowsPerEvaluation = [numTables]int{tEvaluations: 2, tTrajectories: 1, tToolCalls: 3, tDecisions: 4, tFeedback: 1}

// rowsPerRun is the number of rows testEvaluation adds over all tables.
func rowsPerRun() int {
	n := 0
	for _, r := range rowsPerEvaluation {
		n += r
	}
	return n
}

func gaugeValue(c prometheus.Collector) float64 { return testutil.ToFloat64(c) }

func newDropsForTest() *telemetry.Drops { return telemetry.NewDrops(nil) }
