package otelevents

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// collector is a minimal OTLP logs receiver over gRPC or HTTP/protobuf
// that keeps every request it receives.
type collector struct {
	plogotlp.UnimplementedGRPCServer

	mu      sync.Mutex
	logs    []plog.Logs
	headers []map[string]string // the x-api-key value of each request, by name
}

func (c *collector) keep(ld plog.Logs, apiKey string) {
	cp := plog.NewLogs()
	ld.CopyTo(cp)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.logs = append(c.logs, cp)
	c.headers = append(c.headers, map[string]string{"x-api-key": apiKey})
}

// Export implements the OTLP logs gRPC service.
func (c *collector) Export(ctx context.Context, req plogotlp.ExportRequest) (plogotlp.ExportResponse, error) {
	var key string
	if md, ok := metadata.FromIncomingContext(ctx); ok && len(md.Get("x-api-key")) > 0 {
		key = md.Get("x-api-key")[0]
	}
	c.keep(req.Logs(), key)
	return plogotlp.NewExportResponse(), nil
}

// ServeHTTP implements OTLP/HTTP protobuf on /v1/logs.
func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/logs" || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := plogotlp.NewExportRequest()
	if err := req.UnmarshalProto(body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c.keep(req.Logs(), r.Header.Get("X-Api-Key"))
	out, _ := plogotlp.NewExportResponse().MarshalProto()
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

// records returns every log record received, in order, with the resource
// and scope it came under.
func (c *collector) records() []received {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []received
	for _, ld := range c.logs {
		for i := range ld.ResourceLogs().Len() {
			rl := ld.ResourceLogs().At(i)
			for j := range rl.ScopeLogs().Len() {
				sl := rl.ScopeLogs().At(j)
				for k := range sl.LogRecords().Len() {
					out = append(out, received{
						resource: rl.Resource().Attributes().AsRaw(),
						scope:    sl.Scope().Name(),
						record:   sl.LogRecords().At(k),
					})
				}
			}
		}
	}
	return out
}

// received is one log record as the collector got it.
type received struct {
	resource map[string]any
	scope    string
	record   plog.LogRecord
}

// startCollector serves a collector over protocol on 127.0.0.1 and returns
// its endpoint; it stops when the test ends.
func startCollector(t *testing.T, protocol string) (*collector, string) {
	t.Helper()
	c := &collector{}
	if protocol == ProtocolHTTP {
		srv := httptest.NewServer(c)
		t.Cleanup(srv.Close)
		return c, srv.Listener.Addr().String()
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	plogotlp.RegisterGRPCServer(srv, c)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return c, lis.Addr().String()
}

// fakeExporter is an sdklog.Exporter whose Export waits for release (when
// set), ignoring its context, and returns err.
type fakeExporter struct {
	release chan struct{}
	err     error

	mu       sync.Mutex
	exported int
}

func (f *fakeExporter) Export(_ context.Context, records []sdklog.Record) error {
	if f.release != nil {
		<-f.release // deliberately deaf to ctx: the test decides when it returns
	}
	if f.err == nil {
		f.mu.Lock()
		f.exported += len(records)
		f.mu.Unlock()
	}
	return f.err
}

// count returns how many records were exported.
func (f *fakeExporter) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.exported
}

func (*fakeExporter) Shutdown(context.Context) error   { return nil }
func (*fakeExporter) ForceFlush(context.Context) error { return nil }

// fakeFactory builds f in place of the OTLP exporter.
func fakeFactory(f *fakeExporter) func(context.Context, Config) (sdklog.Exporter, error) {
	return func(context.Context, Config) (sdklog.Exporter, error) { return f, nil }
}

// newTestExporter builds an exporter with its own registry and drops.
func newTestExporter(t *testing.T, cfg Config, fake *fakeExporter) (*Exporter, *prometheus.Registry, *telemetry.Drops) {
	t.Helper()
	reg := prometheus.NewRegistry()
	drops := telemetry.NewDrops(reg)
	x, err := New(cfg, telemetry.Settings{Registerer: reg, Drops: drops})
	if err != nil {
		t.Fatal(err)
	}
	x.now = func() time.Time { return testNow }
	if fake != nil {
		x.newExporter = fakeFactory(fake)
	}
	return x, reg, drops
}

// testNow is the fixed emission time of the tests.
var testNow = time.Date(2026, 3, 1, 10, 0, 5, 0, time.UTC)

// outcomes reads evalsidecar_otelevents_records_total by outcome.
func outcomes(t *testing.T, x *Exporter) (exported, failed, dropped float64) {
	t.Helper()
	return testutil.ToFloat64(x.m.exported), testutil.ToFloat64(x.m.failed), testutil.ToFloat64(x.m.dropped)
}

// dropped reads evalsidecar_dropped_total{stage="otelevents", reason}.
func dropped(d *telemetry.Drops, reason string) float64 {
	return testutil.ToFloat64(d.Vec().WithLabelValues(dropStage, reason))
}

// shutdown shuts x down within a generous deadline.
func shutdown(t *testing.T, x *Exporter) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := x.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
}

var errBoom = errors.New("boom")

// totalDrops sums every evalsidecar_dropped_total series.
func totalDrops(d *telemetry.Drops) float64 {
	ch := make(chan prometheus.Metric, 64)
	d.Vec().Collect(ch)
	close(ch)
	var sum float64
	for m := range ch {
		var pb dto.Metric
		if err := m.Write(&pb); err == nil {
			sum += pb.GetCounter().GetValue()
		}
	}
	return sum
}
