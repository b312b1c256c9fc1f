package prometheus

import (
	"context"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// startServer runs a server on a free loopback port with one evaluation's
// metrics and returns its base URL.
func startServer(t *testing.T, ready func() error) (*Server, string) {
	t.Helper()
	x, reg := newTestExporter(t, DefaultConfig())
	evs := loadEvaluations(t)
	if err := x.Export(context.Background(), &evs[0]); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Endpoint = "127.0.0.1:0"
	s := NewServer(cfg, reg, ready, telemetry.Settings{})
	if err := s.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	})
	return s, "http://" + s.Addr()
}

func get(t *testing.T, url, accept string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func TestServerMetricsText(t *testing.T) {
	_, base := startServer(t, nil)
	resp, body := get(t, base+"/metrics", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	list := make([]*dto.MetricFamily, 0, len(fams))
	for _, f := range fams {
		list = append(list, f)
	}
	s := familiesByLabels(list)
	if got := s[MetricTrajectories]["agent=triage,outcome=ok,service_name=support-bot,service_version=1.4.2"].GetCounter().GetValue(); got != 1 {
		t.Errorf("trajectories_total = %v, want 1", got)
	}
	if got := s[MetricEvalScoreOther]["agent=triage,metric=hallucination_v1,service_name=support-bot,service_version=1.4.2"].GetHistogram().GetSampleSum(); got != 4.5 {
		t.Errorf("eval_score sum = %v, want 4.5", got)
	}
}

// TestServerMetricsExemplars negotiates the protobuf exposition (which,
// like OpenMetrics, carries exemplars) and decodes it.
func TestServerMetricsExemplars(t *testing.T) {
	_, base := startServer(t, nil)
	resp, body := get(t, base+"/metrics", string(expfmt.NewFormat(expfmt.TypeProtoDelim)))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	dec := expfmt.NewDecoder(strings.NewReader(string(body)), expfmt.ResponseFormat(resp.Header))
	var list []*dto.MetricFamily
	for {
		f := &dto.MetricFamily{}
		if err := dec.Decode(f); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decode: %v", err)
		}
		list = append(list, f)
	}
	m := familiesByLabels(list)[MetricEvalScoreOther]["agent=triage,metric=latency,service_name=support-bot,service_version=1.4.2"]
	var ids []string
	for _, b := range m.GetHistogram().GetBucket() {
		for _, l := range b.GetExemplar().GetLabel() {
			ids = append(ids, l.GetName()+"="+l.GetValue())
		}
	}
	if len(ids) != 1 || ids[0] != "trace_id=4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("exemplars %v, want the run's trace id once", ids)
	}
}

func TestServerOpenMetricsNegotiated(t *testing.T) {
	_, base := startServer(t, nil)
	resp, _ := get(t, base+"/metrics", "application/openmetrics-text; version=1.0.0")
	mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || mt != "application/openmetrics-text" {
		t.Errorf("Content-Type %q, want OpenMetrics", resp.Header.Get("Content-Type"))
	}
}

func TestServerHealthAndReadiness(t *testing.T) {
	var notReady atomic.Pointer[error]
	ready := func() error {
		if p := notReady.Load(); p != nil {
			return *p
		}
		return nil
	}
	_, base := startServer(t, ready)

	if resp, _ := get(t, base+"/healthz", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("/healthz = %d, want 200", resp.StatusCode)
	}
	if resp, _ := get(t, base+"/readyz", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("/readyz = %d, want 200 when ready", resp.StatusCode)
	}
	reason := errors.New("trace buffer full")
	notReady.Store(&reason)
	resp, body := get(t, base+"/readyz", "")
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "trace buffer full") {
		t.Errorf("/readyz = %d %q, want 503 with the reason", resp.StatusCode, body)
	}
	if resp, _ := get(t, base+"/healthz", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("/healthz = %d while not ready, want 200", resp.StatusCode)
	}
	if resp, _ := get(t, base+"/nothing", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("/nothing = %d, want 404", resp.StatusCode)
	}
}

func TestServerStartErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cfg := DefaultConfig()
	cfg.Endpoint = ln.Addr().String()
	s := NewServer(cfg, nil, nil, telemetry.Settings{})
	if err := s.Start(t.Context()); err == nil {
		t.Error("Start on a busy port succeeded")
	}
	if s.Addr() != cfg.Endpoint {
		t.Errorf("Addr before a successful Start = %q, want the configured endpoint", s.Addr())
	}
	if err := s.Shutdown(t.Context()); err != nil {
		t.Errorf("Shutdown of a server that never started: %v", err)
	}
}

func TestServerShutdownStopsServing(t *testing.T) {
	s, base := startServer(t, nil)
	if err := s.Start(t.Context()); err == nil {
		t.Error("second Start succeeded")
	}
	if err := s.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, base+"/healthz", nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Error("server still answers after Shutdown")
	}
}
