package receiver

import (
	"context"
	"net/http"
	"testing"

	"google.golang.org/grpc/codes"
)

// TestMemoryLimitRefusesRetryably runs a receiver whose memory limit is
// below what the process already uses: both protocols must refuse with
// the retryable answer and hand nothing on.
func TestMemoryLimitRefusesRetryably(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "off") // keep the test process's own setting
	cfg := testConfig()
	cfg.MemoryLimiter.LimitMiB = 1
	s := &sink{}
	r, _ := startReceiver(t, cfg, s)
	body, err := tracesRequest(validSpan("a")).MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	a := post(t, http.DefaultClient, "http://"+r.HTTPAddr()+tracesPath, mediaProto, "", body, nil)
	if a.httpStatus != http.StatusServiceUnavailable || a.retryAfter <= 0 {
		t.Errorf("HTTP: %d, retry after %s; want 503 with Retry-After", a.httpStatus, a.retryAfter)
	}
	g := sendGRPCTraces(context.Background(), t, grpcConn(t, r.GRPCAddr()), tracesRequest(validSpan("b")))
	if g.grpcCode != codes.Unavailable || g.retryAfter <= 0 {
		t.Errorf("gRPC: %s, retry after %s; want UNAVAILABLE with RetryInfo", g.grpcCode, g.retryAfter)
	}
	if s.callCount() != 0 {
		t.Errorf("%d requests handed on", s.callCount())
	}
	for _, p := range []string{protoHTTP, protoGRPC} {
		if n := counter(t, r.metrics.requests, p, signalTraces, "unavailable"); n != 1 {
			t.Errorf("%s: %v refused requests counted, want 1", p, n)
		}
	}
}
