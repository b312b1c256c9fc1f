package pipeline

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/scorer/session"
)

// TestSessionsAcrossReplicas: the turns of each conversation go to two
// different replicas, which write their runs to one ClickHouse database;
// a third sidecar with sessions.source clickhouse scores every
// conversation once, with every turn, once it is idle.
func TestSessionsAcrossReplicas(t *testing.T) {
	tdb := newTestDB(t, "t_replicas_")
	count, withClickHouse, conn, db := tdb.count, tdb.config, tdb.conn, tdb.db
	var replicas []*Pipeline
	var tps []*sdktrace.TracerProvider
	var ctx context.Context
	for range 2 {
		dir := t.TempDir()
		p, c := startOnline(t, withClickHouse(testConfig(dir), dir), Options{Version: "test"})
		replicas, ctx = append(replicas, p), c
		tps = append(tps, sdkTracerProvider(t, c, p, "chat-agent"))
	}

	const conversations, turns = 3, 3
	t0 := time.Now().Add(-time.Minute)
	for conv := range conversations {
		for k := range turns {
			tracer := tps[(conv+k)%2].Tracer("replicas-test") // turns alternate between the replicas
			at := t0.Add(time.Duration(conv*10+k) * time.Second)
			rctx, root := tracer.Start(ctx, "invoke_agent chat", trace.WithTimestamp(at))
			root.SetAttributes(
				attribute.String("gen_ai.operation.name", "invoke_agent"),
				attribute.String("gen_ai.agent.name", "chat"),
				attribute.String("gen_ai.conversation.id", fmt.Sprintf("conv-%d", conv)),
				attribute.String("gen_ai.input.messages", fmt.Sprintf(`[{"role":"user","parts":[{"type":"text","content":"turn %d"}]}]`, k)),
				attribute.String("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"ok"}]}]`),
			)
			_, tool := tracer.Start(rctx, "execute_tool lookup", trace.WithTimestamp(at.Add(100*time.Millisecond)))
			tool.SetAttributes(attribute.String("gen_ai.operation.name", "execute_tool"), attribute.String("gen_ai.tool.name", "lookup"))
			if k == 1 && conv == 0 {
				tool.SetAttributes(attribute.String("error.type", "timeout"))
			}
			tool.End(trace.WithTimestamp(at.Add(200 * time.Millisecond)))
			root.End(trace.WithTimestamp(at.Add(time.Second)))
		}
	}
	for i, tp := range tps {
		if err := tp.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
		if err := replicas[i].Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if got := count("SELECT count() FROM " + db + ".trajectories FINAL"); got != conversations*turns {
		t.Fatalf("%d runs in ClickHouse after the replicas flushed, want %d", got, conversations*turns)
	}

	dir := t.TempDir()
	cfg := withClickHouse(testConfig(dir), dir)
	cfg.Exporters.JSONL.Enabled = true
	cfg.Sessions.Enabled = true
	cfg.Sessions.Source = session.SourceClickHouse
	cfg.Sessions.IdleTimeout = time.Second
	scorer, err := New(cfg, slog.New(slog.DiscardHandler), Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := scorer.Start(ctx); err != nil {
		t.Fatal(err)
	}
	perSession := 4 // turns, failed, tool error rate, duration
	q := "SELECT count() FROM " + db + ".evaluations WHERE trace_id = ''"
	for count(q) < conversations*perSession {
		select {
		case <-ctx.Done():
			t.Fatalf("%d session scores in ClickHouse, want %d", count(q), conversations*perSession)
		case <-time.After(100 * time.Millisecond):
		}
	}
	time.Sleep(time.Second) // more polls: none may score a session again
	if err := scorer.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if got := count(q); got != conversations*perSession {
		t.Errorf("%d session score rows (not collapsed), want %d: a session was scored twice", got, conversations*perSession)
	}
	var turnsScore float64
	if err := conn.QueryRow(context.Background(), "SELECT score FROM "+db+".evaluations WHERE session_id = 'conv-0' AND metric = 'session_tool_error_rate'").Scan(&turnsScore); err != nil {
		t.Fatal(err)
	}
	if turnsScore != 1.0/3 {
		t.Errorf("conv-0 session_tool_error_rate = %v, want 1/3", turnsScore)
	}
	sessions := readLines[record.SessionRecord](t, filepath.Join(dir, "sessions.jsonl"))
	if len(sessions) != conversations {
		t.Fatalf("sessions.jsonl has %d sessions, want %d", len(sessions), conversations)
	}
	for _, s := range sessions {
		if s.TurnCount != turns || len(s.Turns) != turns {
			t.Errorf("session %s has %d turns, want %d (turns from both replicas)", s.SessionID, s.TurnCount, turns)
		}
		for k, tn := range s.Turns {
			if want := t0.Add(time.Duration(int(s.SessionID[len(s.SessionID)-1]-'0')*10+k) * time.Second); !tn.Start.Equal(want.Truncate(time.Nanosecond)) && !tn.Start.Equal(want.Truncate(time.Second)) {
				t.Errorf("session %s turn %d starts %v, want %v", s.SessionID, k, tn.Start, want)
			}
		}
	}
}

// testDB is a fresh ClickHouse database on the test server, dropped at
// the end of the test.
type testDB struct {
	dsn, db string
	conn    driver.Conn
}

// newTestDB names a database prefix+random; the test fails with CI=true
// and skips otherwise when no ClickHouse server is given.
func newTestDB(t *testing.T, prefix string) *testDB {
	t.Helper()
	dsn := os.Getenv("EVALSIDECAR_CLICKHOUSE_DSN")
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("EVALSIDECAR_CLICKHOUSE_DSN is not set (scripts/test starts ClickHouse)")
		}
		t.Skip("EVALSIDECAR_CLICKHOUSE_DSN not set")
	}
	var id [4]byte
	_, _ = rand.Read(id[:])
	opts, err := ch.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ch.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	d := &testDB{dsn: dsn, db: prefix + hex.EncodeToString(id[:]), conn: conn}
	t.Cleanup(func() {
		_ = conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+d.db)
		_ = conn.Close()
	})
	return d
}

// count runs a count query; -1 while the tables are not created yet.
func (d *testDB) count(q string) int {
	var n uint64
	if err := d.conn.QueryRow(context.Background(), q).Scan(&n); err != nil {
		return -1
	}
	return int(n)
}

// config makes cfg export to the database only (JSON lines off), with
// its spool under dir.
func (d *testDB) config(cfg config.Config, dir string) config.Config {
	cfg.Exporters.ClickHouse.Enabled = true
	cfg.Exporters.ClickHouse.Endpoint = d.dsn
	cfg.Exporters.ClickHouse.Database = d.db
	cfg.Exporters.ClickHouse.FlushInterval = 50 * time.Millisecond
	cfg.Exporters.ClickHouse.Spool.Directory = filepath.Join(dir, "spool")
	cfg.Exporters.JSONL.Enabled = false
	return cfg
}
