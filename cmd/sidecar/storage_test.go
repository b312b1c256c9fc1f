package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/simulator"
)

// startServe runs serve in-process with args and returns its OTLP/gRPC
// address, its log and a channel with its exit code.
func startServe(t *testing.T, ctx context.Context, args ...string) (string, *syncBuffer, chan int) {
	t.Helper()
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	args = append([]string{"serve", "-grpc-endpoint", "127.0.0.1:0", "-http-endpoint", "127.0.0.1:0",
		"-metrics-endpoint", "127.0.0.1:0", "-log-format", "json"}, args...)
	go func() { done <- run(ctx, args, &stdout, &stderr) }()
	deadline := time.After(30 * time.Second)
	for {
		for _, line := range strings.Split(stderr.String(), "\n") {
			var rec struct {
				Msg  string `json:"msg"`
				GRPC string `json:"otlp_grpc"`
			}
			if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "evalsidecar started" {
				return rec.GRPC, &stderr, done
			}
		}
		select {
		case code := <-done:
			t.Fatalf("serve exited %d before starting: %s", code, stderr.String())
		case <-deadline:
			t.Fatalf("serve did not start: %s", stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// One data directory holds every file (-data-dir): JSON lines and the
// ClickHouse spool. A second sidecar process on the same directory exits
// with a clear error instead of sharing the spool. With ClickHouse
// unreachable, shutdown ends within shutdown_timeout (well before it: the
// spool keeps the rows) and logs how many rows it left in the spool.
func TestDataDirLockAndShutdownWithUnreachableClickHouse(t *testing.T) {
	dataDir := filepath.Join(t.TempDir(), "data")
	const shutdownTimeout = 4 * time.Second
	common := []string{"-data-dir", dataDir,
		"--set", "exporters.clickhouse.enabled=true",
		"--set", "exporters.clickhouse.endpoint=clickhouse://127.0.0.1:1",
		"--set", "exporters.clickhouse.flush_interval=100ms",
		"--set", "extractor.quiet_period=200ms",
		"--set", "shutdown_timeout=" + shutdownTimeout.String(),
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	grpcAddr, logs, done := startServe(t, ctx, common...)

	// A second, real process on the same directory.
	second := exec.Command(buildSidecar(t), append([]string{"serve", "-grpc-endpoint", "127.0.0.1:0", "-http-endpoint", "127.0.0.1:0",
		"-metrics-endpoint", "127.0.0.1:0"}, common...)...)
	out, err := second.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("second sidecar on %s: %v, want exit 1\n%s", dataDir, err, out)
	}
	for _, want := range []string{"spool directory is in use by another process", filepath.Join(dataDir, "clickhouse-spool"),
		"pid " + strconv.Itoa(os.Getpid())} {
		if !strings.Contains(string(out), want) {
			t.Errorf("second sidecar's error does not name %q:\n%s", want, out)
		}
	}

	simCfg := simulator.DefaultConfig()
	simCfg.Endpoint, simCfg.Protocol, simCfg.Seed = grpcAddr, simulator.ProtocolGRPC, 7
	sim, err := simulator.New(ctx, simCfg)
	if err != nil {
		t.Fatal(err)
	}
	const runs = 5
	if err := sim.Run(ctx, runs, 10*time.Millisecond, nil); err != nil {
		t.Fatal(err)
	}
	if err := sim.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	scores := filepath.Join(dataDir, "scores.jsonl")
	waitUntil(t, 20*time.Second, "scores in "+scores, func() bool {
		b, _ := os.ReadFile(scores)
		return strings.Count(string(b), "\n") > 0
	})

	start := time.Now()
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exited %d: %s", code, logs.String())
		}
	case <-time.After(shutdownTimeout + 5*time.Second):
		t.Fatalf("serve did not stop within shutdown_timeout %s", shutdownTimeout)
	}
	took := time.Since(start)
	t.Logf("shutdown with ClickHouse unreachable took %s (shutdown_timeout %s)", took, shutdownTimeout)
	if took > shutdownTimeout {
		t.Errorf("shutdown took %s, more than shutdown_timeout %s", took, shutdownTimeout)
	}
	var left int
	for _, line := range strings.Split(logs.String(), "\n") {
		var rec struct {
			Msg  string `json:"msg"`
			Rows int    `json:"rows"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && strings.Contains(rec.Msg, "rows left in the spool") {
			left = rec.Rows
		}
	}
	if left == 0 {
		t.Errorf("no log of the rows left in the spool:\n%s", logs.String())
	}
	batches, _ := filepath.Glob(filepath.Join(dataDir, "clickhouse-spool", "*.batch"))
	if len(batches) == 0 {
		t.Errorf("no spooled batches under %s/clickhouse-spool", dataDir)
	}
	for _, f := range []string{"trajectories.jsonl", "scores.jsonl"} {
		if _, err := os.Stat(filepath.Join(dataDir, f)); err != nil {
			t.Errorf("JSON lines not under the data directory: %v", err)
		}
	}
}

func waitUntil(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// serve with an http:// ClickHouse endpoint on a server whose HTTP
// interface the client cannot use (the test server, 18.16) exits 1 at
// start, naming the native-protocol fix.
func TestServeRefusesUnusableClickHouseProtocol(t *testing.T) {
	httpURL := os.Getenv("EVALSIDECAR_CLICKHOUSE_HTTP")
	if httpURL == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("EVALSIDECAR_CLICKHOUSE_HTTP is not set (scripts/test starts ClickHouse)")
		}
		t.Skip("EVALSIDECAR_CLICKHOUSE_HTTP not set; run scripts/test to start ClickHouse")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // ends serve if it starts after all
	defer cancel()
	var out, errOut syncBuffer
	code := run(ctx, []string{"serve", "-grpc-endpoint", "127.0.0.1:0", "-http-endpoint", "127.0.0.1:0",
		"-metrics-endpoint", "127.0.0.1:0", "-data-dir", t.TempDir(),
		"--set", "exporters.clickhouse.enabled=true", "--set", "exporters.clickhouse.endpoint=" + httpURL}, &out, &errOut)
	stderr := errOut.String()
	if strings.Contains(stderr, "evalsidecar started") {
		t.Skipf("this ClickHouse server accepts the client's HTTP protocol: %s", stderr)
	}
	if code != 1 || !strings.Contains(stderr, "use the native protocol: endpoint: clickhouse://") {
		t.Errorf("exit %d, want 1 with the fix:\n%s", code, stderr)
	}
}
