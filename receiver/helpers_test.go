package receiver

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// sink records what the consumer received; err or panicValue make it fail.
type sink struct {
	mu         sync.Mutex
	calls      int
	traces     []ptrace.Traces
	logs       []plog.Logs
	err        error
	panicValue any
}

func (s *sink) ConsumeTraces(_ context.Context, td ptrace.Traces) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.panicValue != nil {
		panic(s.panicValue)
	}
	if s.err != nil {
		return s.err
	}
	cp := ptrace.NewTraces()
	td.CopyTo(cp)
	s.traces = append(s.traces, cp)
	return nil
}

func (s *sink) ConsumeLogs(_ context.Context, ld plog.Logs) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.panicValue != nil {
		panic(s.panicValue)
	}
	if s.err != nil {
		return s.err
	}
	cp := plog.NewLogs()
	ld.CopyTo(cp)
	s.logs = append(s.logs, cp)
	return nil
}

func (s *sink) spanNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var names []string
	for _, td := range s.traces {
		for i := 0; i < td.ResourceSpans().Len(); i++ {
			ss := td.ResourceSpans().At(i).ScopeSpans()
			for j := 0; j < ss.Len(); j++ {
				spans := ss.At(j).Spans()
				for k := 0; k < spans.Len(); k++ {
					names = append(names, spans.At(k).Name())
				}
			}
		}
	}
	return names
}

func (s *sink) logBodies() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var bodies []string
	for _, ld := range s.logs {
		for i := 0; i < ld.ResourceLogs().Len(); i++ {
			sl := ld.ResourceLogs().At(i).ScopeLogs()
			for j := 0; j < sl.Len(); j++ {
				lrs := sl.At(j).LogRecords()
				for k := 0; k < lrs.Len(); k++ {
					bodies = append(bodies, lrs.At(k).Body().AsString())
				}
			}
		}
	}
	return bodies
}

func (s *sink) callCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// testConfig listens on loopback with free ports.
func testConfig() Config {
	cfg := DefaultConfig()
	cfg.GRPC.Endpoint = "127.0.0.1:0"
	cfg.HTTP.Endpoint = "127.0.0.1:0"
	return cfg
}

// startReceiver starts a receiver and stops it when the test ends.
func startReceiver(t testing.TB, cfg Config, s *sink) (*Receiver, *prometheus.Registry) {
	t.Helper()
	reg := prometheus.NewRegistry()
	var tc TracesConsumer
	var lc LogsConsumer
	if s != nil {
		tc, lc = s, s
	}
	r, err := New(cfg, telemetry.Settings{Registerer: reg}, tc, lc)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if err := r.Start(context.Background()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := r.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	})
	return r, reg
}

// span describes one span of a test request.
type span struct {
	name    string
	traceID pcommon.TraceID
	spanID  pcommon.SpanID
	attrs   func(pcommon.Map)
}

var (
	goodTrace = pcommon.TraceID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	goodSpan  = pcommon.SpanID{1, 2, 3, 4, 5, 6, 7, 8}
)

func validSpan(name string) span { return span{name: name, traceID: goodTrace, spanID: goodSpan} }

// tracesRequest builds a request with one resource and one scope.
func tracesRequest(spans ...span) ptraceotlp.ExportRequest {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "agent")
	ss := rs.ScopeSpans().AppendEmpty()
	ss.Scope().SetName("test")
	for _, sp := range spans {
		s := ss.Spans().AppendEmpty()
		s.SetName(sp.name)
		s.SetTraceID(sp.traceID)
		s.SetSpanID(sp.spanID)
		s.SetStartTimestamp(pcommon.Timestamp(1e18))
		s.SetEndTimestamp(pcommon.Timestamp(1e18 + 1e6))
		if sp.attrs != nil {
			sp.attrs(s.Attributes())
		}
	}
	return ptraceotlp.NewExportRequestFromTraces(td)
}

// nest puts a value nested depth levels deep (depth 1 = a scalar) at key.
func nest(key string, depth int) func(pcommon.Map) {
	return func(m pcommon.Map) {
		v := m.PutEmpty(key)
		for range depth - 1 {
			v = v.SetEmptySlice().AppendEmpty()
		}
		v.SetStr("leaf")
	}
}

// logsRequest builds a logs request with one record per body.
func logsRequest(bodies ...string) plogotlp.ExportRequest {
	ld := plog.NewLogs()
	sl := ld.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty()
	for _, b := range bodies {
		lr := sl.LogRecords().AppendEmpty()
		lr.Body().SetStr(b)
		lr.SetTraceID(goodTrace)
		lr.SetSpanID(goodSpan)
	}
	return plogotlp.NewExportRequestFromLogs(ld)
}

// answer is a protocol-neutral view of the receiver's reply.
type answer struct {
	grpcCode   codes.Code
	httpStatus int
	rejected   int64
	partialMsg string
	msg        string // the google.rpc.Status message of a refusal
	retryAfter time.Duration
	badRequest bool
	header     http.Header
}

func grpcConn(t testing.TB, addr string, opts ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	opts = append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, opts...)
	cc, err := grpc.NewClient(addr, opts...)
	if err != nil {
		t.Fatalf("grpc.NewClient: %v", err)
	}
	t.Cleanup(func() { _ = cc.Close() })
	return cc
}

// statusAnswer extracts code and details from a google.rpc.Status.
func statusAnswer(st *status.Status, a *answer) {
	a.grpcCode, a.msg = st.Code(), st.Message()
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.RetryInfo:
			a.retryAfter = d.GetRetryDelay().AsDuration()
		case *errdetails.BadRequest:
			a.badRequest = true
		}
	}
}

// sendGRPCTraces exports with the pdata gRPC client.
func sendGRPCTraces(ctx context.Context, t testing.TB, cc *grpc.ClientConn, req ptraceotlp.ExportRequest) answer {
	t.Helper()
	resp, err := ptraceotlp.NewGRPCClient(cc).Export(ctx, req)
	var a answer
	if err != nil {
		statusAnswer(status.Convert(err), &a)
		return a
	}
	a.rejected = resp.PartialSuccess().RejectedSpans()
	a.partialMsg = resp.PartialSuccess().ErrorMessage()
	return a
}

// sendGRPCRaw sends raw bytes as a traces export.
func sendGRPCRaw(ctx context.Context, cc *grpc.ClientConn, method string, body []byte) answer {
	var out rawMessage
	err := cc.Invoke(ctx, method, rawMessage(body), &out, grpc.ForceCodecV2(rawCodec{}))
	var a answer
	statusAnswer(status.Convert(err), &a)
	return a
}

// post sends an HTTP request and decodes the answer for the given signal.
func post(t testing.TB, client *http.Client, url, contentType, encoding string, body []byte, hdr http.Header) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if encoding != "" {
		req.Header.Set("Content-Encoding", encoding)
	}
	for k, vs := range hdr {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	return readHTTPAnswer(t, resp)
}

func readHTTPAnswer(t testing.TB, resp *http.Response) answer {
	t.Helper()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	a := answer{httpStatus: resp.StatusCode, header: resp.Header}
	if s := resp.Header.Get("Retry-After"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("Retry-After %q is not whole seconds", s)
		}
		a.retryAfter = time.Duration(n) * time.Second
	}
	ct := resp.Header.Get("Content-Type")
	isJSON := ct == mediaJSON
	if resp.StatusCode == http.StatusOK {
		if bytes.Contains([]byte(resp.Request.URL.Path), []byte("logs")) {
			r := plogotlp.NewExportResponse()
			if isJSON {
				err = r.UnmarshalJSON(raw)
			} else {
				err = r.UnmarshalProto(raw)
			}
			a.rejected, a.partialMsg = r.PartialSuccess().RejectedLogRecords(), r.PartialSuccess().ErrorMessage()
		} else {
			r := ptraceotlp.NewExportResponse()
			if isJSON {
				err = r.UnmarshalJSON(raw)
			} else {
				err = r.UnmarshalProto(raw)
			}
			a.rejected, a.partialMsg = r.PartialSuccess().RejectedSpans(), r.PartialSuccess().ErrorMessage()
		}
		if err != nil {
			t.Fatalf("decode 200 body (%s): %v", ct, err)
		}
		return a
	}
	if resp.StatusCode == http.StatusNotFound {
		return a
	}
	var st spb.Status
	if isJSON {
		err = protojsonUnmarshal(raw, &st)
	} else {
		err = proto.Unmarshal(raw, &st)
	}
	if err != nil {
		t.Fatalf("error body (%d, %s) is not a google.rpc.Status: %v", resp.StatusCode, ct, err)
	}
	statusAnswer(status.FromProto(&st), &a)
	a.retryAfter = 0
	if s := resp.Header.Get("Retry-After"); s != "" {
		n, _ := strconv.Atoi(s)
		a.retryAfter = time.Duration(n) * time.Second
	}
	return a
}

// counter reads one counter series.
func counter(t testing.TB, c *prometheus.CounterVec, labels ...string) float64 {
	t.Helper()
	return testutil.ToFloat64(c.WithLabelValues(labels...))
}

func protojsonUnmarshal(b []byte, m proto.Message) error { return protojson.Unmarshal(b, m) }

func tracesRequestFromJSON(t testing.TB, b []byte) ptraceotlp.ExportRequest {
	t.Helper()
	r := ptraceotlp.NewExportRequest()
	if err := r.UnmarshalJSON(b); err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return r
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

func httpBody(b []byte) io.ReadCloser { return io.NopCloser(bytes.NewReader(b)) }
