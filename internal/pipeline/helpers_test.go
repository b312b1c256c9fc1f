package pipeline

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	sdkresource "go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	chexp "github.com/evalsidecar/evalsidecar/exporter/clickhouse"
	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// startOnline builds and starts an online pipeline from cfg, with opts'
// Online set and version "test". The returned context ends after a minute or
// with the test.
func startOnline(t *testing.T, cfg config.Config, opts Options) (*Pipeline, context.Context) {
	t.Helper()
	opts.Online = true
	p, err := New(cfg, telemetry.Settings{Version: "test"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	if err := p.Start(ctx); err != nil {
		t.Fatal(err)
	}
	return p, ctx
}

// sdkTracerProvider returns a real OTel SDK tracer provider that exports
// every span synchronously over OTLP/gRPC to p's receiver, as service
// with the further resource attributes res (service.version, ...).
func sdkTracerProvider(t *testing.T, ctx context.Context, p *Pipeline, service string, res ...attribute.KeyValue) *sdktrace.TracerProvider {
	t.Helper()
	exp, err := otlptracegrpc.New(ctx, otlptracegrpc.WithEndpoint(p.Receiver.GRPCAddr()), otlptracegrpc.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	return sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp),
		sdktrace.WithResource(sdkresource.NewSchemaless(append(res, attribute.String("service.name", service))...)))
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
	ch := config.ExporterConfig[chexp.Config](cfg.Exporters)
	ch.Enabled, ch.Endpoint, ch.Database = true, d.dsn, d.db
	ch.FlushInterval = 50 * time.Millisecond
	ch.Spool.Directory = filepath.Join(dir, "spool")
	config.ExporterConfig[jsonl.Config](cfg.Exporters).Enabled = false
	return cfg
}
