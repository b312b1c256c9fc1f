package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/evalsidecar/evalsidecar/exporter"
)

// runSender inserts t's spooled batches in order until ctx ends.
func (x *Exporter) runSender(ctx context.Context, t tableID) {
	defer x.senders.Done()
	for {
		e, err := x.spool.head(ctx, t)
		if err != nil {
			return
		}
		b, err := x.spool.load(e)
		if err != nil {
			continue // moved aside and counted by load
		}
		if !x.send(ctx, e, b) {
			x.spool.release(e)
			return
		}
	}
}

// send inserts one batch, retrying and parking as its errors say. It
// returns false when ctx ended first (the batch stays spooled).
func (x *Exporter) send(ctx context.Context, e *entry, b *batch) bool {
	table := e.table.String()
	var (
		attempt     int
		firstFail   time.Time
		parkedSince time.Time
		lastLog     time.Time
	)
	defer func() {
		if !parkedSince.IsZero() {
			x.m.parked.WithLabelValues(table).Dec()
		}
	}()
	for {
		err := x.ensureReady(ctx)
		if err == nil {
			start := time.Now()
			err = x.insert(ctx, e, b)
			result := "ok"
			if err != nil {
				result = "error"
			}
			x.m.duration.WithLabelValues(table, result).Observe(time.Since(start).Seconds())
			if err == nil {
				// Counted before the batch leaves the spool, so that an
				// empty queue implies the count is complete.
				x.m.rows.WithLabelValues(table, exporter.OutcomeSent).Add(float64(e.rows))
				x.spool.done(e)
				if !parkedSince.IsZero() {
					x.logger.Info("clickhouse exporter: parked batch accepted, writing resumed", "table", table,
						"parked_for", time.Since(parkedSince).Round(time.Millisecond))
				}
				return true
			}
		}
		if ctx.Err() != nil {
			return false
		}
		class := classify(err)
		var wait time.Duration
		switch class {
		case classPark:
			if parkedSince.IsZero() {
				parkedSince = time.Now()
				x.m.parked.WithLabelValues(table).Inc()
				x.m.rows.WithLabelValues(table, exporter.OutcomeParked).Add(float64(e.rows))
				x.logger.Error("clickhouse exporter: server refused the batch for its schema; batch parked, nothing written",
					"table", table, "rows", e.rows, "code", exceptionCode(err), "error", err)
				lastLog = time.Now()
			}
			if max := x.cfg.MaxParkDuration; max > 0 && time.Since(parkedSince) >= max {
				x.spool.done(e)
				x.countDrop(table, e.rows, reasonPermanent)
				x.logger.Error("clickhouse exporter: parked batch dropped after max_park_duration",
					"table", table, "rows", e.rows, "error", err)
				return true
			}
			wait = x.cfg.ParkInterval
		default:
			if firstFail.IsZero() {
				firstFail = time.Now()
			}
			if x.cfg.RetryOnFailure.GiveUp(firstFail, time.Now()) {
				x.spool.done(e)
				x.countDrop(table, e.rows, reasonRetriesExhausted)
				x.logger.Error("clickhouse exporter: batch dropped, retry_on_failure gave up",
					"table", table, "rows", e.rows, "error", err)
				return true
			}
			x.m.rows.WithLabelValues(table, exporter.OutcomeRetried).Add(float64(e.rows))
			if time.Since(lastLog) > 30*time.Second {
				x.logger.Warn("clickhouse exporter: insert failed, retrying", "table", table, "rows", e.rows,
					"code", exceptionCode(err), "error", err)
				lastLog = time.Now()
			}
			wait = x.cfg.RetryOnFailure.Wait(attempt)
			attempt++
		}
		x.stalled.Add(1)
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
		x.stalled.Add(-1)
		if ctx.Err() != nil {
			return false
		}
	}
}

// ensureReady detects the server version (once) and, with create_schema,
// creates the schema and applies pending migrations. Until it succeeds
// every sender retries it.
func (x *Exporter) ensureReady(ctx context.Context) error {
	x.readyMu.Lock()
	defer x.readyMu.Unlock()
	if x.ready {
		return nil
	}
	sv, err := x.conn.ServerVersion()
	if err != nil {
		return fmt.Errorf("clickhouse exporter: server version: %w", err)
	}
	v := serverVersion{Major: sv.Version.Major, Minor: sv.Version.Minor, Patch: sv.Version.Patch}
	f := featuresFor(v)
	sch := schema{cfg: x.cfg, f: f}
	if x.cfg.CreateSchema {
		if err := x.migrate(ctx, sch); err != nil {
			return err
		}
		if err := x.writeMetrics(ctx, sch, x.now()); err != nil {
			return err
		}
	}
	x.sch = sch
	x.ready = true
	x.logger.Info("clickhouse exporter connected", "server_version", v.String(), "features", f.enabled(),
		"create_schema", x.cfg.CreateSchema, "cluster", x.cfg.Cluster)
	return nil
}

func (x *Exporter) queryCtx(ctx context.Context, s schema, extra ch.Settings) context.Context {
	set := ch.Settings{}
	if s.f.LowCardinalitySetting {
		set["allow_experimental_low_cardinality_type"] = 1
	}
	maps.Copy(set, extra)
	return ch.Context(ctx, ch.WithSettings(set))
}

// migrate creates the database and migrations table and applies every
// migration the server has not recorded.
func (x *Exporter) migrate(ctx context.Context, s schema) error {
	ctx, cancel := context.WithTimeout(ctx, x.cfg.Timeout)
	defer cancel()
	qctx := x.queryCtx(ctx, s, nil)
	for _, q := range []string{s.createDatabase(), s.createMigrations()} {
		if err := x.conn.Exec(qctx, q); err != nil {
			return fmt.Errorf("clickhouse exporter: create schema: %w", err)
		}
	}
	applied := map[uint32]bool{}
	rows, err := x.conn.Query(qctx, fmt.Sprintf("SELECT version FROM %s.%s", s.cfg.Database, migrationsTable))
	if err != nil {
		return fmt.Errorf("clickhouse exporter: read migrations: %w", err)
	}
	for rows.Next() {
		var v uint32
		if err := rows.Scan(&v); err != nil {
			_ = rows.Close()
			return fmt.Errorf("clickhouse exporter: read migrations: %w", err)
		}
		applied[v] = true
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("clickhouse exporter: read migrations: %w", err)
	}
	for _, m := range migrations {
		if applied[m.version] {
			continue
		}
		stmts := m.statements(s)
		for _, ac := range m.columns {
			q, err := x.missingColumns(qctx, s, ac)
			if err != nil {
				return fmt.Errorf("clickhouse exporter: migration %d (%s): %w", m.version, m.name, err)
			}
			stmts = append(stmts, q...)
		}
		for _, q := range stmts {
			if err := x.conn.Exec(qctx, q); err != nil {
				return fmt.Errorf("clickhouse exporter: migration %d (%s): %w", m.version, m.name, err)
			}
		}
		if err := insertRows(qctx, x.conn, fmt.Sprintf("INSERT INTO %s.%s (version, name, applied_at, sidecar_version)",
			s.cfg.Database, migrationsTable), []any{m.version, m.name, time.Now().UTC(), x.rb.sidecarVersion}); err != nil {
			return fmt.Errorf("clickhouse exporter: record migration %d: %w", m.version, err)
		}
		x.logger.Info("clickhouse exporter applied schema migration", "version", m.version, "name", m.name)
	}
	return nil
}

// missingColumns returns the ALTER TABLE statements that add ac to the
// tables of its table that lack it.
func (x *Exporter) missingColumns(ctx context.Context, s schema, ac addedColumn) ([]string, error) {
	tables := []string{s.storageTable(ac.table)}
	if s.cfg.Cluster != "" {
		tables = append(tables, s.cfg.Tables.name(ac.table))
	}
	var out []string
	for _, t := range tables {
		var n uint64
		err := x.conn.QueryRow(ctx, "SELECT count() FROM system.columns WHERE database = ? AND table = ? AND name = ?",
			s.cfg.Database, t, ac.name).Scan(&n)
		if err != nil {
			return nil, fmt.Errorf("read columns of %s: %w", t, err)
		}
		if n > 0 {
			continue
		}
		q, err := s.addColumn(ac.table, t, ac.name)
		if err != nil {
			return nil, err
		}
		out = append(out, q)
	}
	return out, nil
}

// insert sends one batch with a native column-wise insert.
func (x *Exporter) insert(ctx context.Context, e *entry, b *batch) error {
	ctx, cancel := context.WithTimeout(ctx, x.cfg.Timeout)
	defer cancel()
	extra := ch.Settings{}
	if x.sch.f.DedupToken {
		extra["insert_deduplication_token"] = e.token
	}
	if x.cfg.Cluster != "" {
		// Synchronous Distributed inserts: a batch is acknowledged only
		// when the shards have it, so a replay cannot be lost in the
		// Distributed table's own queue.
		extra["insert_distributed_sync"] = 1
	}
	pb, err := x.conn.PrepareBatch(x.queryCtx(ctx, x.sch, extra), x.sch.insertSQL(b.table, b.columns))
	if err != nil {
		return err
	}
	defer func() {
		if !pb.IsSent() {
			_ = pb.Abort()
		}
	}()
	for i, c := range b.columns {
		if err := pb.Column(i).Append(b.cols[i].values(c.kind)); err != nil {
			return &appendError{column: c.name, err: err}
		}
	}
	return pb.Send()
}
