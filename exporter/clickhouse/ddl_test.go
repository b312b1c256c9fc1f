package clickhouse

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file\ngot:\n%s", name, got)
	}
}

// TestDDLGolden renders the schema for old and new servers, single node
// and cluster mode; the replicated cluster DDL cannot run on the test
// server (no Keeper), so its golden file is its test.
func TestDDLGolden(t *testing.T) {
	base := DefaultConfig()
	cluster := base
	cluster.Cluster = "analytics"
	plainCluster := cluster
	plainCluster.ClusterReplicated, plainCluster.ClusterDDL = false, false
	hourTTL := base
	hourTTL.TTL = 36 * time.Hour
	hourTTL.Engine = EngineMergeTree
	cases := []struct {
		file string
		cfg  Config
		v    serverVersion
	}{
		{"ddl_18.16.sql", base, serverVersion{18, 16, 1}},
		{"ddl_19.8.sql", hourTTL, serverVersion{19, 8, 3}},
		{"ddl_24.8.sql", base, serverVersion{24, 8, 1}},
		{"ddl_cluster_replicated_24.8.sql", cluster, serverVersion{24, 8, 1}},
		{"ddl_cluster_distributed_18.16.sql", plainCluster, serverVersion{18, 16, 1}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			stmts := schema{cfg: c.cfg, f: featuresFor(c.v)}.ddl()
			var b bytes.Buffer
			fmt.Fprintf(&b, "-- server %s, features: %s\n", c.v, featuresFor(c.v).enabled())
			for _, s := range stmts {
				b.WriteString(s)
				b.WriteString(";\n\n")
			}
			golden(t, c.file, b.Bytes())
		})
	}
}

// ddl returns every statement a fresh install runs, in order: database,
// migrations table, then each migration.
func (s schema) ddl() []string {
	out := []string{s.createDatabase(), s.createMigrations()}
	for _, m := range migrations {
		out = append(out, m.statements(s)...)
	}
	return out
}

func TestInsertSQLHasExplicitColumns(t *testing.T) {
	s := schema{cfg: DefaultConfig()}
	got := s.insertSQL(tToolCalls, toolCallsDef.columns)
	if !strings.HasPrefix(got, "INSERT INTO evalsidecar.tool_calls (start, trace_id, run_span_id,") || !strings.HasSuffix(got, "sidecar_version, row_key)") {
		t.Errorf("insert = %s", got)
	}
}

func TestFeatureGates(t *testing.T) {
	cases := []struct {
		v    serverVersion
		want string
	}{
		{serverVersion{18, 16, 1}, "low_cardinality_setting"},
		{serverVersion{19, 6, 0}, "low_cardinality_setting,ttl"},
		{serverVersion{20, 3, 0}, "ttl,ttl_only_drop_parts,codecs,datetime64,skip_indexes"},
		{serverVersion{22, 1, 0}, "ttl,ttl_only_drop_parts,codecs,datetime64,skip_indexes,non_replicated_dedup"},
		{serverVersion{22, 2, 0}, "ttl,ttl_only_drop_parts,codecs,datetime64,skip_indexes,non_replicated_dedup,dedup_token"},
	}
	for _, c := range cases {
		if got := featuresFor(c.v).enabled(); got != c.want {
			t.Errorf("%s: %s, want %s", c.v, got, c.want)
		}
	}
}

// TestClusterDistributed runs cluster mode for real: local MergeTree
// tables and Distributed tables over Debian's test_shard_localhost
// cluster; rows inserted through the Distributed tables land in the local
// ones, synchronously.
func TestClusterDistributed(t *testing.T) {
	s := newTestServer(t)
	cfg := s.config(t)
	cfg.Cluster = "test_shard_localhost"
	cfg.ClusterReplicated = false
	cfg.ClusterDDL = false
	h := startExporter(t, cfg)
	const n = 120
	for i := range n {
		if err := h.x.Export(context.Background(), testEvaluation(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.x.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "inserts", func() bool { return h.x.queueRows() == 0 })
	for tb := range numTables {
		want := n * rowsPerEvaluation[tb]
		// Synchronous Distributed inserts: the local table has every row
		// as soon as the insert is acknowledged.
		if got := s.count(t, fmt.Sprintf("SELECT count() FROM %s.%s_local", s.db, tb)); got != want {
			t.Errorf("%s_local: %d rows, want %d", tb, got, want)
		}
		if got := s.count(t, fmt.Sprintf("SELECT count() FROM %s.%s", s.db, tb)); got != want {
			t.Errorf("%s (Distributed): %d rows, want %d", tb, got, want)
		}
	}
	var engine string
	if err := s.conn.QueryRow(context.Background(), fmt.Sprintf(
		"SELECT engine FROM system.tables WHERE database = '%s' AND name = 'evaluations'", s.db)).Scan(&engine); err != nil {
		t.Fatal(err)
	}
	if engine != "Distributed" {
		t.Errorf("evaluations engine = %s, want Distributed", engine)
	}
}
