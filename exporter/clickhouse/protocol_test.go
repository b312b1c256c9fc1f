package clickhouse

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// An http:// endpoint on a server whose HTTP interface rejects the
// client's settings (ClickHouse 18.16 does) fails at Start with the fix;
// on a server that accepts them the exporter starts. The oracle asks the
// server directly with curl-like plain HTTP.
func TestHTTPEndpointOnServerThatCannotUseIt(t *testing.T) {
	serverDSN(t) // fails in CI without the server
	base := os.Getenv("EVALSIDECAR_CLICKHOUSE_HTTP")
	if base == "" {
		t.Fatal("EVALSIDECAR_CLICKHOUSE_HTTP is not set (scripts/services/clickhouse.sh exports it)")
	}
	resp, err := http.Get(base + "/?client_protocol_version=54460&query=SELECT%201")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	serverRejects := resp.StatusCode != http.StatusOK
	t.Logf("server answers the client's setting with HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(body)))

	cfg := unreachableConfig(t)
	cfg.Endpoint = base
	cfg.DialTimeout = 5 * time.Second
	x, err := New(cfg, telemetry.Settings{Registerer: prometheus.NewRegistry()})
	if err != nil {
		t.Fatal(err)
	}
	err = x.Start(context.Background())
	defer func() { _ = x.Shutdown(context.Background()) }()
	if !serverRejects {
		if err != nil {
			t.Fatalf("server accepts HTTP, Start = %v", err)
		}
		return
	}
	if !errors.Is(err, ErrProtocolUnsupported) {
		t.Fatalf("Start = %v, want ErrProtocolUnsupported", err)
	}
	for _, want := range []string{"clickhouse://", "native protocol", strings.TrimPrefix(base, "http://")} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	// The lock was released: a native exporter can use the directory.
	cfg.Endpoint = "clickhouse://127.0.0.1:1"
	shutdownSoon(startExporter(t, cfg))
}

// An http:// endpoint nothing answers on starts: the outage is retried.
func TestHTTPEndpointUnreachableStarts(t *testing.T) {
	cfg := unreachableConfig(t)
	cfg.Endpoint = "http://127.0.0.1:1"
	shutdownSoon(startExporter(t, cfg))
}
