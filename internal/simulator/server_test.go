package simulator

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// otlpSink is an in-process OTLP receiver (gRPC or HTTP/protobuf) that
// keeps everything it is sent.
type otlpSink struct {
	mu      sync.Mutex
	traces  []ptrace.Traces
	logs    []plog.Logs
	headers []map[string][]string
}

// spanView is one received span with its resource attributes.
type spanView struct {
	ptrace.Span
	Resource pcommon.Map
}

// logView is one received log record with its resource attributes.
type logView struct {
	plog.LogRecord
	Resource pcommon.Map
}

func (s *otlpSink) addTraces(td ptrace.Traces, md map[string][]string) {
	c := ptrace.NewTraces()
	td.CopyTo(c)
	s.mu.Lock()
	s.traces = append(s.traces, c)
	s.headers = append(s.headers, md)
	s.mu.Unlock()
}

func (s *otlpSink) addLogs(ld plog.Logs, md map[string][]string) {
	c := plog.NewLogs()
	ld.CopyTo(c)
	s.mu.Lock()
	s.logs = append(s.logs, c)
	s.headers = append(s.headers, md)
	s.mu.Unlock()
}

// spans returns every received span of trace id (all spans when empty).
func (s *otlpSink) spans(traceID string) []spanView {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []spanView
	for _, td := range s.traces {
		for i := 0; i < td.ResourceSpans().Len(); i++ {
			rs := td.ResourceSpans().At(i)
			for j := 0; j < rs.ScopeSpans().Len(); j++ {
				ss := rs.ScopeSpans().At(j)
				for k := 0; k < ss.Spans().Len(); k++ {
					sp := ss.Spans().At(k)
					if traceID == "" || sp.TraceID().String() == traceID {
						out = append(out, spanView{Span: sp, Resource: rs.Resource().Attributes()})
					}
				}
			}
		}
	}
	return out
}

// logRecords returns every received log record of trace id (all when empty).
func (s *otlpSink) logRecords(traceID string) []logView {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []logView
	for _, ld := range s.logs {
		for i := 0; i < ld.ResourceLogs().Len(); i++ {
			rl := ld.ResourceLogs().At(i)
			for j := 0; j < rl.ScopeLogs().Len(); j++ {
				sl := rl.ScopeLogs().At(j)
				for k := 0; k < sl.LogRecords().Len(); k++ {
					lr := sl.LogRecords().At(k)
					if traceID == "" || lr.TraceID().String() == traceID {
						out = append(out, logView{LogRecord: lr, Resource: rl.Resource().Attributes()})
					}
				}
			}
		}
	}
	return out
}

func (s *otlpSink) allHeaders() []map[string][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string][]string(nil), s.headers...)
}

type grpcTraces struct {
	ptraceotlp.UnimplementedGRPCServer
	sink *otlpSink
}

func (g *grpcTraces) Export(ctx context.Context, req ptraceotlp.ExportRequest) (ptraceotlp.ExportResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	g.sink.addTraces(req.Traces(), md)
	return ptraceotlp.NewExportResponse(), nil
}

type grpcLogs struct {
	plogotlp.UnimplementedGRPCServer
	sink *otlpSink
}

func (g *grpcLogs) Export(ctx context.Context, req plogotlp.ExportRequest) (plogotlp.ExportResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	g.sink.addLogs(req.Logs(), md)
	return plogotlp.NewExportResponse(), nil
}

// startGRPCSink serves OTLP gRPC on 127.0.0.1:0 until the test ends.
func startGRPCSink(t *testing.T) (*otlpSink, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sink := &otlpSink{}
	srv := grpc.NewServer()
	ptraceotlp.RegisterGRPCServer(srv, &grpcTraces{sink: sink})
	plogotlp.RegisterGRPCServer(srv, &grpcLogs{sink: sink})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Stop()
		if err := <-done; err != nil && !errors.Is(err, grpc.ErrServerStopped) {
			t.Errorf("grpc serve: %v", err)
		}
	})
	return sink, ln.Addr().String()
}

// startHTTPSink serves OTLP HTTP/protobuf on 127.0.0.1:0 until the test
// ends.
func startHTTPSink(t *testing.T) (*otlpSink, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sink := &otlpSink{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/traces", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		req := ptraceotlp.NewExportRequest()
		if err == nil {
			err = req.UnmarshalProto(body)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		sink.addTraces(req.Traces(), r.Header)
		b, _ := ptraceotlp.NewExportResponse().MarshalProto()
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(b)
	})
	mux.HandleFunc("POST /v1/logs", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		req := plogotlp.NewExportRequest()
		if err == nil {
			err = req.UnmarshalProto(body)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		sink.addLogs(req.Logs(), r.Header)
		b, _ := plogotlp.NewExportResponse().MarshalProto()
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(b)
	})
	srv := &http.Server{Handler: mux}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		_ = srv.Close()
		if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("http serve: %v", err)
		}
	})
	return sink, ln.Addr().String()
}
