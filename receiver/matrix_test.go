package receiver

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/errs"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
)

// matrixCase is one row of the OTLP response matrix, run on both protocols.
type matrixCase struct {
	name     string
	config   func(*Config)
	consumer func(*sink)
	drain    bool
	token    string // bearer token the client sends
	req      func() ptraceotlp.ExportRequest
	raw      []byte // sent instead of req when set

	wantGRPC      codes.Code
	wantHTTP      int
	wantRejected  int64
	wantMsg       string // substring of the partial-success message
	wantRetry     time.Duration
	wantBadReq    bool
	wantConsumed  []string           // span names the consumer must have received
	wantRefused   map[string]float64 // refused_spans_total by reason
	wantAccepted  float64
	consumerCalls int
}

func matrixCases() []matrixCase {
	twoValid := func() ptraceotlp.ExportRequest { return tracesRequest(validSpan("a"), validSpan("b")) }
	return []matrixCase{
		{
			name: "accepted all valid", req: twoValid,
			wantGRPC: codes.OK, wantHTTP: 200,
			wantConsumed: []string{"a", "b"}, wantAccepted: 2, consumerCalls: 1,
		},
		{
			name: "empty request", req: ptraceotlp.NewExportRequest,
			wantGRPC: codes.OK, wantHTTP: 200,
		},
		{
			name: "empty envelopes",
			req: func() ptraceotlp.ExportRequest {
				r := tracesRequest()
				r.Traces().ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty()
				return r
			},
			wantGRPC: codes.OK, wantHTTP: 200,
		},
		{
			name: "some spans invalid",
			req: func() ptraceotlp.ExportRequest {
				return tracesRequest(
					validSpan("ok1"),
					span{name: "zero-trace", spanID: goodSpan},
					span{name: "zero-span", traceID: goodTrace},
					span{name: "bad\xffname", traceID: goodTrace, spanID: goodSpan},
					span{name: "bad-attr", traceID: goodTrace, spanID: goodSpan, attrs: func(m pcommon.Map) { m.PutStr("k", "v\xc3") }},
					span{name: "deep", traceID: goodTrace, spanID: goodSpan, attrs: nest("deep", 65)},
					span{name: "ok2", traceID: goodTrace, spanID: goodSpan, attrs: nest("fine", 64)},
				)
			},
			wantGRPC: codes.OK, wantHTTP: 200,
			wantRejected: 5, wantMsg: "rejected 5 of 7 spans: attribute_depth=1, invalid_span_id=1, invalid_trace_id=1, invalid_utf8=2",
			wantConsumed: []string{"ok1", "ok2"}, wantAccepted: 2, consumerCalls: 1,
			wantRefused: map[string]float64{"invalid_trace_id": 1, "invalid_span_id": 1, "invalid_utf8": 2, "attribute_depth": 1},
		},
		{
			name: "all spans invalid",
			req: func() ptraceotlp.ExportRequest {
				return tracesRequest(span{name: "x"}, span{name: "y", traceID: goodTrace})
			},
			wantGRPC: codes.OK, wantHTTP: 200,
			wantRejected: 2, wantMsg: "rejected 2 of 2 spans",
			wantRefused: map[string]float64{"invalid_trace_id": 1, "invalid_span_id": 1},
		},
		{
			name: "invalid resource rejects its spans",
			req: func() ptraceotlp.ExportRequest {
				r := tracesRequest(validSpan("a"), validSpan("b"))
				r.Traces().ResourceSpans().At(0).Resource().Attributes().PutStr("service.name", "\xfe")
				return r
			},
			wantGRPC: codes.OK, wantHTTP: 200, wantRejected: 2, wantMsg: "invalid_utf8=2",
			wantRefused: map[string]float64{"invalid_utf8": 2},
		},
		{
			name: "undecodable body", raw: []byte{0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01},
			wantGRPC: codes.InvalidArgument, wantHTTP: 400, wantBadReq: true,
			wantRefused: map[string]float64{"undecodable": 1},
		},
		{
			name: "span nesting beyond the decode limit",
			req: func() ptraceotlp.ExportRequest {
				return tracesRequest(
					validSpan("ok1"),
					span{name: "deep", traceID: goodTrace, spanID: goodSpan, attrs: nest("deep", 200)},
					span{name: "deeper", traceID: goodTrace, spanID: goodSpan, attrs: nest("deep", 5000)},
					validSpan("ok2"))
			},
			wantGRPC: codes.OK, wantHTTP: 200,
			wantRejected: 2, wantMsg: "rejected 2 of 4 spans: attribute_depth=2",
			wantConsumed: []string{"ok1", "ok2"}, wantAccepted: 2, consumerCalls: 1,
			wantRefused: map[string]float64{"attribute_depth": 2},
		},
		{
			name: "resource nesting beyond the decode limit",
			req: func() ptraceotlp.ExportRequest {
				r := tracesRequest(validSpan("a"))
				nest("deep", 200)(r.Traces().ResourceSpans().At(0).Resource().Attributes())
				return r
			},
			wantGRPC: codes.InvalidArgument, wantHTTP: 400, wantBadReq: true,
			wantRefused: map[string]float64{"undecodable": 1},
		},
		{
			name:   "over the size limit",
			config: func(c *Config) { c.GRPC.MaxRecvMsgSizeMiB = 1; c.HTTP.MaxRequestBodySize = 1 << 20 },
			req: func() ptraceotlp.ExportRequest {
				return tracesRequest(span{name: strings.Repeat("x", 1<<20+1024), traceID: goodTrace, spanID: goodSpan})
			},
			wantGRPC: codes.ResourceExhausted, wantHTTP: 413,
			wantRefused: map[string]float64{"too_large": 1},
		},
		{
			name:     "unauthenticated without token",
			config:   func(c *Config) { c.Auth.BearerToken = "s3cret" },
			req:      twoValid,
			wantGRPC: codes.Unauthenticated, wantHTTP: 401,
			wantRefused: map[string]float64{"unauthenticated": 1},
		},
		{
			name:   "unauthenticated with a wrong token",
			config: func(c *Config) { c.Auth.BearerToken = "s3cret" },
			token:  "guess", req: twoValid,
			wantGRPC: codes.Unauthenticated, wantHTTP: 401,
			wantRefused: map[string]float64{"unauthenticated": 1},
		},
		{
			name:   "authenticated with the token",
			config: func(c *Config) { c.Auth.BearerToken = "s3cret" },
			token:  "s3cret", req: twoValid,
			wantGRPC: codes.OK, wantHTTP: 200,
			wantConsumed: []string{"a", "b"}, wantAccepted: 2, consumerCalls: 1,
		},
		{
			name:     "overloaded",
			consumer: func(s *sink) { s.err = errs.NewRefused("live_traces_full", 3*time.Second) },
			req:      twoValid,
			wantGRPC: codes.Unavailable, wantHTTP: 503, wantRetry: 3 * time.Second, consumerCalls: 1,
			wantRefused: map[string]float64{"overloaded": 2},
		},
		{
			name:     "unclassified consumer error is retryable",
			consumer: func(s *sink) { s.err = errors.New("boom") },
			req:      twoValid,
			wantGRPC: codes.Unavailable, wantHTTP: 503, wantRetry: 2 * time.Second, consumerCalls: 1,
			wantRefused: map[string]float64{"consumer_error": 2},
		},
		{
			name:     "permanent consumer error",
			consumer: func(s *sink) { s.err = errs.Permanent(errors.New("cannot store")) },
			req:      twoValid,
			wantGRPC: codes.Internal, wantHTTP: 500, consumerCalls: 1,
			wantRefused: map[string]float64{"internal": 2},
		},
		{
			name:     "panic in the consumer",
			consumer: func(s *sink) { s.panicValue = "bug" },
			req:      twoValid,
			wantGRPC: codes.Internal, wantHTTP: 500, consumerCalls: 1,
			wantRefused: map[string]float64{"panic": 1},
		},
		{
			name: "shutting down", drain: true, req: twoValid,
			wantGRPC: codes.Unavailable, wantHTTP: 503, wantRetry: 2 * time.Second,
			wantRefused: map[string]float64{"shutting_down": 0},
		},
	}
}

func TestResponseMatrix(t *testing.T) {
	for _, tc := range matrixCases() {
		for _, protocol := range []string{protoGRPC, protoHTTP} {
			t.Run(protocol+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				cfg := testConfig()
				if tc.config != nil {
					tc.config(&cfg)
				}
				s := &sink{}
				if tc.consumer != nil {
					tc.consumer(s)
				}
				r, _ := startReceiver(t, cfg, s)
				if tc.drain {
					r.Drain()
				}
				body := tc.raw
				if body == nil {
					body, _ = tc.req().MarshalProto()
				}
				ctx := context.Background()
				var a answer
				if protocol == protoGRPC {
					var opts []grpc.DialOption
					cc := grpcConn(t, r.GRPCAddr(), opts...)
					if tc.token != "" {
						ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+tc.token)
					}
					if tc.raw != nil {
						a = sendGRPCRaw(ctx, cc, traceExportPath, body)
					} else {
						a = sendGRPCTraces(ctx, t, cc, tc.req())
					}
					if a.grpcCode != tc.wantGRPC {
						t.Fatalf("gRPC code = %v, want %v", a.grpcCode, tc.wantGRPC)
					}
				} else {
					hdr := http.Header{}
					if tc.token != "" {
						hdr.Set("Authorization", "Bearer "+tc.token)
					}
					a = post(t, nil, "http://"+r.HTTPAddr()+tracesPath, mediaProto, "", body, hdr)
					if a.httpStatus != tc.wantHTTP {
						t.Fatalf("HTTP status = %d, want %d", a.httpStatus, tc.wantHTTP)
					}
					if tc.wantHTTP == 401 && !strings.HasPrefix(a.header.Get("WWW-Authenticate"), "Bearer") {
						t.Errorf("WWW-Authenticate = %q, want a Bearer challenge", a.header.Get("WWW-Authenticate"))
					}
					if tc.wantHTTP != 200 && a.grpcCode != tc.wantGRPC && tc.wantHTTP != 413 {
						t.Errorf("Status body code = %v, want %v", a.grpcCode, tc.wantGRPC)
					}
				}
				if a.rejected != tc.wantRejected {
					t.Errorf("rejected = %d, want %d", a.rejected, tc.wantRejected)
				}
				if tc.wantRejected == 0 && a.partialMsg != "" {
					t.Errorf("partial_success message = %q, want unset", a.partialMsg)
				}
				if !strings.Contains(a.partialMsg, tc.wantMsg) {
					t.Errorf("partial_success message = %q, want it to contain %q", a.partialMsg, tc.wantMsg)
				}
				if a.retryAfter != tc.wantRetry {
					t.Errorf("retry delay = %v, want %v", a.retryAfter, tc.wantRetry)
				}
				if a.badRequest != tc.wantBadReq {
					t.Errorf("BadRequest detail = %v, want %v", a.badRequest, tc.wantBadReq)
				}
				if got := s.spanNames(); strings.Join(got, ",") != strings.Join(tc.wantConsumed, ",") {
					t.Errorf("consumer got spans %q, want %q", got, tc.wantConsumed)
				}
				if got := s.callCount(); got != tc.consumerCalls {
					t.Errorf("consumer calls = %d, want %d", got, tc.consumerCalls)
				}

				m := r.metrics
				// One code label for both protocols: the gRPC status
				// name in lower snake case.
				code := map[codes.Code]string{
					codes.OK: "ok", codes.InvalidArgument: "invalid_argument", codes.ResourceExhausted: "resource_exhausted",
					codes.Unauthenticated: "unauthenticated", codes.Unavailable: "unavailable", codes.Internal: "internal",
				}[tc.wantGRPC]
				if got := counter(t, m.requests, protocol, signalTraces, code); got != 1 {
					t.Errorf("requests_total{code=%q} = %v, want 1", code, got)
				}
				if got := counter(t, m.spans, protocol); got != tc.wantAccepted {
					t.Errorf("spans_total = %v, want %v", got, tc.wantAccepted)
				}
				for reason, want := range tc.wantRefused {
					if want == 0 { // unknown count: 1 per request (HTTP) or the span count (gRPC)
						want = 1
						if protocol == protoGRPC {
							want = 2
						}
					}
					if got := counter(t, m.refusedSpans, protocol, reason); got != want {
						t.Errorf("refused_spans_total{reason=%q} = %v, want %v", reason, got, want)
					}
				}
			})
		}
	}
}
