package baseline_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/agentrun"
	chexp "github.com/evalsidecar/evalsidecar/exporter/clickhouse"
	"github.com/evalsidecar/evalsidecar/internal/promtest"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/baseline"
)

// TestClickHouseDownFallsBackToMemory: with the ClickHouse server gone, a
// candidate whose baseline this replica recorded is still compared with
// it, one whose baseline it did not is not applicable with the reason
// baseline_lookup_failed, and both failures are counted and logged once.
func TestClickHouseDownFallsBackToMemory(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0") // a port with no server behind it once closed
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	chcfg := chexp.DefaultConfig()
	chcfg.Endpoint, chcfg.DialTimeout, chcfg.Timeout = "clickhouse://"+addr, 200*time.Millisecond, time.Second
	src, err := chexp.NewBaselineReader(chcfg, "eval.case_id")
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	cfg := baseline.DefaultConfig()
	cfg.Version = "1.0"
	var logs bytes.Buffer
	s, err := baseline.New(cfg, "eval.case_id", src, telemetry.Settings{Registerer: reg, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	in := func(trace, version, caseID string) *scorer.Instance {
		return scorer.FromTrajectory(&agentrun.Trajectory{TraceID: trace, Service: "shop", ServiceVersion: version, Input: "Hi?",
			Output: "answer " + trace, Start: time.Now(), Attributes: map[string]string{"eval.case_id": caseID}})
	}
	ctx := context.Background()
	s.Enrich(ctx, in("b1", "1.0", "c1"))
	b, err := s.Find(ctx, in("k1", "2.0", "c1"))
	if err != nil || b.TraceID != "b1" {
		t.Errorf("case c1: %+v, %v; want the baseline in memory", b, err)
	}
	_, err = s.Find(ctx, in("k2", "2.0", "c2"))
	var na *scorer.NotApplicableError
	if !errors.As(err, &na) || na.Reason != baseline.ReasonBaselineFailed {
		t.Errorf("case c2: %v, want not applicable %s", err, baseline.ReasonBaselineFailed)
	}
	for result, want := range map[string]float64{"error": 2, "memory": 1, "miss": 0} {
		if got := promtest.Sum(t, reg, "evalsidecar_baseline_lookups_total", prometheus.Labels{"result": result}); got != want {
			t.Errorf("lookups{result=%s} = %v, want %v", result, got, want)
		}
	}
	if n := strings.Count(logs.String(), "level=WARN"); n != 1 {
		t.Errorf("%d warnings for one outage, want 1:\n%s", n, logs.String())
	}
}
