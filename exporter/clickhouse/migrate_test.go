package clickhouse

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/catalog"
)

// createPreviousSchema creates the tables as schema version 1 did (the
// evaluations table without passed and judge_cached, tool_calls without
// their texts, trajectories without replies) and records version 1 as
// applied.
func createPreviousSchema(t *testing.T, s *testServer, cfg Config) {
	t.Helper()
	ctx := context.Background()
	sv, err := s.conn.ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	sch := schema{cfg: cfg, f: featuresFor(serverVersion{Major: sv.Version.Major, Minor: sv.Version.Minor, Patch: sv.Version.Patch})}
	db, mt := sch.createDatabase(), sch.createMigrations()
	v1 := migrations[0].statements(sch)
	passed := kNullUInt8.chType(sch.f)
	if sch.f.Codecs {
		passed += " CODEC(" + codecZSTD + ")"
	}
	text, u8 := "String", "UInt8"
	if sch.f.Codecs {
		text += " CODEC(" + codecZSTD + ")"
		u8 += " CODEC(" + codecZSTD + ")"
	}
	for _, q := range append([]string{db, mt}, v1...) {
		for _, col := range []string{"passed " + passed, "judge_cached " + u8, "arguments " + text, "result " + text, "replies " + text} {
			q = strings.Replace(q, col+",\n    ", "", 1)
		}
		if err := s.exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if n := s.count(t, fmt.Sprintf("SELECT count() FROM system.columns WHERE database = '%s' AND name IN ('passed', 'judge_cached', 'arguments', 'result', 'replies')", s.db)); n != 0 {
		t.Fatal("the previous schema has the new columns")
	}
	insert := func(q string, vals ...any) {
		pb, err := s.conn.PrepareBatch(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if err := pb.Append(vals...); err != nil {
			t.Fatal(err)
		}
		if err := pb.Send(); err != nil {
			t.Fatal(err)
		}
	}
	insert(fmt.Sprintf("INSERT INTO %s.schema_migrations (version, name, applied_at, sidecar_version)", s.db),
		uint32(1), "create tables", baseTime, "previous")
	insert(fmt.Sprintf("INSERT INTO %s.%s (timestamp, run_start, trace_id, metric, score, row_key)", s.db, sch.storageTable(tEvaluations)),
		baseTime, baseTime, "old-run", "failure", 1.0, uint64(7))
}

// TestMigrationAddsPassedAndMetricsTable upgrades a database created by
// the previous schema: the evaluations table gains passed (its rows kept,
// NULL there), new rows carry their verdicts, the metrics table describes
// the configured metrics, and a second start changes nothing.
func TestMigrationAddsPassedAndMetricsTable(t *testing.T) {
	t.Run("single server", func(t *testing.T) { testMigration(t, "") })
	// Cluster mode: local tables and Distributed tables over Debian's
	// test_shard_localhost cluster, both migrated.
	t.Run("cluster", func(t *testing.T) { testMigration(t, "test_shard_localhost") })
}

func testMigration(t *testing.T, cluster string) {
	s := newTestServer(t)
	cfg := s.config(t)
	cfg.Cluster, cfg.ClusterReplicated, cfg.ClusterDDL = cluster, false, false
	createPreviousSchema(t, s, cfg)
	ms, err := catalog.NewRegistry().Build(catalog.DefaultMetrics())
	if err != nil {
		t.Fatal(err)
	}
	start := func() *Exporter {
		x, err := New(cfg, telemetry.Settings{Registerer: prometheus.NewRegistry(), Drops: newDropsForTest(), Version: "test"})
		if err != nil {
			t.Fatal(err)
		}
		x.DescribeMetrics(ms)
		if err := x.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		return x
	}
	x := start()
	if err := x.Export(context.Background(), testEvaluation(0)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := x.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	// The columns are those of a fresh install, in the same order, in
	// every table (local and Distributed in cluster mode).
	// The feedback table, new in version 4, is there as a fresh install
	// creates it.
	defs := map[string]*tableDef{}
	for _, def := range []*tableDef{&evaluationsDef, &toolCallsDef, &trajectoriesDef, &feedbackDef} {
		defs[def.id.String()] = def
		if cluster != "" {
			defs[def.id.String()+localSuffix] = def
		}
	}
	for table, def := range defs {
		rows, err := s.conn.Query(context.Background(), fmt.Sprintf(
			"SELECT name FROM system.columns WHERE database = '%s' AND table = '%s'", s.db, table))
		if err != nil {
			t.Fatal(err)
		}
		var cols []string
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				t.Fatal(err)
			}
			cols = append(cols, n)
		}
		_ = rows.Close()
		var want []string
		for _, c := range def.columns {
			want = append(want, c.name)
		}
		if !slices.Equal(cols, want) {
			t.Errorf("%s columns after migration\n got %v\nwant %v", table, cols, want)
		}
	}
	var args, result string
	if err := s.conn.QueryRow(context.Background(), fmt.Sprintf(
		"SELECT arguments, result FROM %s.tool_calls WHERE position = 1", s.db)).Scan(&args, &result); err != nil {
		t.Fatal(err)
	}
	if args != `{"id":42,"amount":10}` || result != "ok" {
		t.Errorf("tool call 1: arguments %q result %q", args, result)
	}
	var fbTrace, fbLabel string
	if err := s.conn.QueryRow(context.Background(), fmt.Sprintf(
		"SELECT trace_id, label FROM %s.feedback WHERE metric = 'hallucination_v1'", s.db)).Scan(&fbTrace, &fbLabel); err != nil {
		t.Fatal(err)
	}
	if fbTrace != fmt.Sprintf("%032x", 1) || fbLabel != "ok" {
		t.Errorf("feedback row: trace %q label %q", fbTrace, fbLabel)
	}
	verdicts := map[string]string{}
	rows, err := s.conn.Query(context.Background(), fmt.Sprintf(
		"SELECT trace_id, metric, ifNull(toString(passed), 'NULL') FROM %s.evaluations", s.db))
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, metric, passed string
		if err := rows.Scan(&id, &metric, &passed); err != nil {
			t.Fatal(err)
		}
		verdicts[id+"/"+metric] = passed
	}
	_ = rows.Close()
	wantVerdicts := map[string]string{
		"old-run/failure":                        "NULL", // written before the column existed
		fmt.Sprintf("%032x/tool_error_rate", 1):  "0",
		fmt.Sprintf("%032x/hallucination_v1", 1): "NULL",
	}
	if fmt.Sprint(verdicts) != fmt.Sprint(wantVerdicts) {
		t.Errorf("verdicts %v, want %v", verdicts, wantVerdicts)
	}
	checkMetricsTable(t, s, ms)

	// A second start finds nothing to migrate and rewrites the metrics.
	x = start()
	if err := x.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if got := s.count(t, "SELECT count() FROM "+s.db+".schema_migrations"); got != len(migrations) {
		t.Errorf("schema_migrations has %d rows, want %d", got, len(migrations))
	}
	checkMetricsTable(t, s, ms)
}

// checkMetricsTable compares the metrics table's latest row of each
// metric with the metrics' semantics.
func checkMetricsTable(t *testing.T, s *testServer, ms []scorer.Metric) {
	t.Helper()
	rows, err := s.conn.Query(context.Background(), fmt.Sprintf(`SELECT name,
		argMax(direction, updated), argMax(unit, updated), argMax(ifNull(min, nan), updated), argMax(ifNull(max, nan), updated),
		argMax(ifNull(threshold, nan), updated), argMax(comparison, updated), argMax(description, updated)
		FROM %s.metrics GROUP BY name ORDER BY name`, s.db))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[string]string{}
	for rows.Next() {
		var name, dir, unit, cmp, desc string
		var lo, hi, th float64
		if err := rows.Scan(&name, &dir, &unit, &lo, &hi, &th, &cmp, &desc); err != nil {
			t.Fatal(err)
		}
		got[name] = fmt.Sprintf("%s %s [%v, %v] %s %v %s", dir, unit, lo, hi, cmp, th, desc)
	}
	if len(got) != len(ms) {
		t.Errorf("metrics table has %d metrics, want %d: %v", len(got), len(ms), got)
	}
	for _, m := range ms {
		sem := scorer.SemanticsOf(m)
		cmp, th := "", math.NaN()
		if sem.Pass != nil {
			cmp, th = sem.Pass.Op, sem.Pass.Threshold
		}
		want := fmt.Sprintf("%s %s [%v, %v] %s %v %s", sem.Direction, sem.Unit, sem.Min, sem.Max, cmp, th, sem.Description)
		if got[m.Name()] != want {
			t.Errorf("metrics row %s:\n got %s\nwant %s", m.Name(), got[m.Name()], want)
		}
	}
	if got["failure"] != "lower_is_better ratio [0, 1] <= 0 1 when the run failed, else 0" {
		t.Errorf("failure row: %s", got["failure"])
	}
}
