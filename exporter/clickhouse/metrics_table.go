package clickhouse

import (
	"context"
	"fmt"
	"math"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

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
	rows := make([][]any, len(x.described))
	for i, m := range x.described {
		sem := scorer.SemanticsOf(m)
		var threshold *float64
		comparison := ""
		if sem.Pass != nil {
			threshold, comparison = &sem.Pass.Threshold, sem.Pass.Op
		}
		rows[i] = []any{m.Name(), string(sem.Direction), string(sem.Unit), bound(sem.Min), bound(sem.Max),
			threshold, comparison, sem.Description, now.UTC()}
	}
	if err := insertRows(x.queryCtx(ctx, s, extra), x.conn, fmt.Sprintf(
		"INSERT INTO %s.%s (name, direction, unit, min, max, threshold, comparison, description, updated)",
		s.cfg.Database, s.cfg.Tables.Metrics), rows...); err != nil {
		return fmt.Errorf("clickhouse exporter: write metrics table: %w", err)
	}
	return nil
}

// insertRows inserts rows with one prepared batch.
func insertRows(ctx context.Context, conn driver.Conn, q string, rows ...[]any) error {
	pb, err := conn.PrepareBatch(ctx, q)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if err := pb.Append(r...); err != nil {
			_ = pb.Abort()
			return err
		}
	}
	return pb.Send()
}

// bound is a semantics bound as a Nullable(Float64): NULL when unbounded.
func bound(v float64) *float64 {
	if math.IsNaN(v) {
		return nil
	}
	return &v
}
