package deploy

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/extractor"
	"github.com/evalsidecar/evalsidecar/internal/loadgen"
)

// BenchmarkFootprint runs the sidecar (default configuration, JSON lines
// on) and, beside it, the OpenTelemetry Collector doing the least a
// Collector does with the same traffic (otlp receiver -> batch -> nop),
// and replays the real-client captures to both at once, at the same rate,
// for 20 seconds: at about 1K spans/s, at about 10K spans/s, and as fast as
// each accepts. It reports each process's CPU-seconds per 100K spans, peak
// RSS and 99th percentile request round trip, and the sidecar's ratios to
// the Collector.
//
//	EVALSIDECAR_OTELCOL_BIN=... go test -run '^$' -bench Footprint -benchtime 1x ./deploy/
func BenchmarkFootprint(b *testing.B) {
	otelcol := binary(b, "EVALSIDECAR_OTELCOL_BIN", "otelcol-evalsidecar")
	bin := buildSidecar(b)
	captures := loadCaptures(b)
	spans := 0
	for _, c := range captures {
		spans += c.Count
	}
	perRun := float64(spans) / float64(len(captures))
	for _, bc := range []struct {
		name     string
		spansPS  float64 // 0: saturation
		inFlight int
	}{
		{"1k_spans_per_s", 1000, 100},
		{"10k_spans_per_s", 10000, 1000},
		{"saturation", 0, 1000},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var sc, col loadgen.ProcStats
			var scSpans, colSpans int
			var scP99, colP99 time.Duration
			for b.Loop() {
				dir := b.TempDir()
				grpc, metrics := freeAddr(b), freeAddr(b)
				// the sidecar's own defaults: its quiet period decides how long
				// finished runs stay buffered
				quiet := extractor.DefaultConfig().QuietPeriod.String()
				r := startReplica(b, bin, dir, grpc, metrics, replicaConfig(grpc, metrics, dir, quiet, "5m", "", ""))
				colAddr, colPID := startNopCollector(b, otelcol, dir)
				cfg := func(ep string) loadgen.Config {
					return loadgen.Config{Protocol: "grpc", Endpoints: []string{ep}, Captures: captures,
						Duration: 20 * time.Second, Rate: bc.spansPS / perRun, InFlight: bc.inFlight,
						SpansPerRequest: 8, Senders: 4, Seed: uint64(time.Now().UnixNano())}
				}
				var wg sync.WaitGroup
				measure := func(ep string, pid int, stats *loadgen.ProcStats, sent *int, p99 *time.Duration) {
					before, err := loadgen.ReadProcStats(pid)
					if err != nil {
						b.Error(err)
						return
					}
					rep, err := loadgen.Replay(context.Background(), cfg(ep))
					if err != nil {
						b.Error(err)
						return
					}
					after, err := loadgen.ReadProcStats(pid)
					if err != nil {
						b.Error(err)
						return
					}
					*sent, *p99 = rep.Spans, rep.Latency(0.99)
					*stats = loadgen.ProcStats{CPUSeconds: after.CPUSeconds - before.CPUSeconds, PeakRSS: after.PeakRSS}
				}
				wg.Go(func() { measure(r.grpc, r.cmd.Process.Pid, &sc, &scSpans, &scP99) })
				wg.Go(func() { measure(colAddr, colPID, &col, &colSpans, &colP99) })
				wg.Wait()
				r.stop()
			}
			per100K := func(s loadgen.ProcStats, n int) float64 { return s.CPUSeconds * 100000 / float64(max(n, 1)) }
			mib := func(s loadgen.ProcStats) float64 { return float64(s.PeakRSS) / (1 << 20) }
			b.ReportMetric(float64(scSpans)/20, "sidecar-spans/s")
			b.ReportMetric(per100K(sc, scSpans), "sidecar-cpu-s/100k-spans")
			b.ReportMetric(mib(sc), "sidecar-peak-MiB")
			b.ReportMetric(float64(colSpans)/20, "collector-spans/s")
			b.ReportMetric(per100K(col, colSpans), "collector-cpu-s/100k-spans")
			b.ReportMetric(mib(col), "collector-peak-MiB")
			b.ReportMetric(per100K(sc, scSpans)/per100K(col, colSpans), "cpu-ratio")
			b.ReportMetric(mib(sc)/mib(col), "rss-ratio")
			b.ReportMetric(float64(scP99.Microseconds())/1000, "sidecar-p99-ms")
			b.ReportMetric(float64(colP99.Microseconds())/1000, "collector-p99-ms")
			b.ReportMetric(float64(scP99)/float64(max(colP99, 1)), "p99-ratio")
		})
	}
}

// startNopCollector runs the Collector with otlp -> batch -> nop and
// returns its OTLP/gRPC address and process id.
func startNopCollector(t testing.TB, bin, dir string) (string, int) {
	t.Helper()
	endpoint := freeAddr(t)
	cfg := fmt.Sprintf(`receivers:
  otlp:
    protocols:
      grpc: {endpoint: %q}
processors:
  batch: {}
exporters:
  nop: {}
service:
  telemetry:
    metrics: {level: none}
    logs: {level: warn}
  pipelines:
    traces: {receivers: [otlp], processors: [batch], exporters: [nop]}
`, endpoint)
	path := filepath.Join(dir, "otelcol-nop.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config", path)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	waitUntil(t, 30*time.Second, "collector listening", func() bool {
		c, err := net.DialTimeout("tcp", endpoint, time.Second)
		if err != nil {
			return false
		}
		c.Close()
		return true
	})
	return endpoint, cmd.Process.Pid
}
