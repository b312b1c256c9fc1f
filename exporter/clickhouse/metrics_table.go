package clickhouse

import (
	"context"
	"fmt"
	"math"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// DescribeMetrics sets the metrics whose semantics the exporter writes to
// the metrics table once the schema is ready (with create_schema). Call
// it before Start.
func (x *Exporter) DescribeMetrics(ms []scorer.Metric) {
	x.readyMu.Lock()
	defer x.readyMu.Unlock()
	x.described = append([]scorer.Metric(nil), ms...)
}

// writeMetrics inserts one metrics-table row per described metric,
// stamped now; the table keeps the latest row of each name.
func (x *Exporter) writeMetrics(ctx context.Context, s schema, now time.Time) error {
	if len(x.described) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, x.cfg.Timeout)
	defer cancel()
	extra := ch.Settings{}
	if s.cfg.Cluster != "" {
		extra["insert_distributed_sync"] = 1 // as the row inserts
	}
	pb, err := x.conn.PrepareBatch(x.queryCtx(ctx, s, extra), fmt.Sprintf(
		"INSERT INTO %s.%s (name, direction, unit, min, max, threshold, comparison, description, updated)",
		s.cfg.Database, s.cfg.Tables.Metrics))
	if err != nil {
		return fmt.Errorf("clickhouse exporter: write metrics table: %w", err)
	}
	for _, m := range x.described {
		sem := scorer.SemanticsOf(m)
		var threshold *float64
		comparison := ""
		if sem.Pass != nil {
			threshold, comparison = &sem.Pass.Threshold, sem.Pass.Op
		}
		if err := pb.Append(m.Name(), string(sem.Direction), string(sem.Unit), bound(sem.Min), bound(sem.Max),
			threshold, comparison, sem.Description, now.UTC()); err != nil {
			_ = pb.Abort()
			return fmt.Errorf("clickhouse exporter: write metrics table: %w", err)
		}
	}
	if err := pb.Send(); err != nil {
		return fmt.Errorf("clickhouse exporter: write metrics table: %w", err)
	}
	return nil
}

// bound is a semantics bound as a Nullable(Float64): NULL when unbounded.
func bound(v float64) *float64 {
	if math.IsNaN(v) {
		return nil
	}
	return &v
}
