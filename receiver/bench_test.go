package receiver

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// benchRequest is 100 spans with a handful of GenAI-style attributes each.
func benchRequest() ptraceotlp.ExportRequest {
	spans := make([]span, 100)
	for i := range spans {
		spans[i] = span{
			name: fmt.Sprintf("execute_tool step-%d", i), traceID: goodTrace, spanID: pcommon.SpanID{1, byte(i + 1)},
			attrs: func(m pcommon.Map) {
				m.PutStr("gen_ai.operation.name", "execute_tool")
				m.PutStr("gen_ai.tool.name", "get_weather")
				m.PutStr("gen_ai.tool.call.arguments", `{"city":"Paris","unit":"celsius"}`)
				m.PutInt("gen_ai.usage.input_tokens", 512)
			},
		}
	}
	return tracesRequest(spans...)
}

func BenchmarkHTTPProto(b *testing.B) {
	body, _ := benchRequest().MarshalProto()
	r, err := New(DefaultConfig(), telemetry.Settings{}, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	h := &httpHandler{r: r, maxBody: DefaultConfig().HTTP.MaxRequestBodySize}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, tracesPath, bytes.NewReader(body))
		req.Header.Set("Content-Type", mediaProto)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
	b.ReportMetric(float64(b.N*100)/b.Elapsed().Seconds(), "spans/s")
}

func BenchmarkGRPCExport(b *testing.B) {
	r, _ := startReceiver(b, testConfig(), nil)
	client := ptraceotlp.NewGRPCClient(grpcConn(b, r.GRPCAddr()))
	req := benchRequest()
	body, _ := req.MarshalProto()
	ctx := context.Background()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := client.Export(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*100)/b.Elapsed().Seconds(), "spans/s")
}
