package receiver

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"

	"github.com/evalsidecar/evalsidecar/internal/configopaque"
)

// upstream is a minimal OTLP/gRPC traces server that records what arrives.
type upstream struct {
	ptraceotlp.UnimplementedGRPCServer
	got     chan []byte
	headers chan metadata.MD
	block   chan struct{} // when non-nil, Export waits for it to close
}

func (u *upstream) Export(ctx context.Context, req ptraceotlp.ExportRequest) (ptraceotlp.ExportResponse, error) {
	if u.block != nil {
		<-u.block
	}
	b, _ := req.MarshalProto()
	md, _ := metadata.FromIncomingContext(ctx)
	u.headers <- md
	u.got <- b
	return ptraceotlp.NewExportResponse(), nil
}

func startUpstream(t *testing.T, block chan struct{}) (*upstream, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := &upstream{got: make(chan []byte, 16), headers: make(chan metadata.MD, 16), block: block}
	srv := grpc.NewServer()
	ptraceotlp.RegisterGRPCServer(srv, u)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(srv.Stop)
	return u, ln.Addr().String()
}

func receive(t *testing.T, ch <-chan []byte) []byte {
	t.Helper()
	select {
	case b := <-ch:
		return b
	case <-time.After(10 * time.Second):
		t.Fatal("upstream received nothing")
		return nil
	}
}

// mixedRequest has one valid and one invalid span: the consumer sees only
// the valid one, the upstream gets both, unchanged.
func mixedRequest() ptraceotlp.ExportRequest {
	return tracesRequest(validSpan("good"), span{name: "no-trace-id", spanID: goodSpan, attrs: func(m pcommon.Map) { m.PutInt("n", 7) }})
}

func TestForwardGRPC(t *testing.T) {
	up, addr := startUpstream(t, nil)
	cfg := testConfig()
	cfg.Forward.Endpoint, cfg.Forward.Protocol = addr, ProtocolGRPC
	cfg.Forward.TLS.Insecure = true
	cfg.Forward.Headers = configopaque.Map{"X-Tenant": "t1"}
	s := &sink{}
	r, _ := startReceiver(t, cfg, s)
	want, _ := mixedRequest().MarshalProto()

	// Over gRPC: the upstream receives the very bytes that were sent.
	cc := grpcConn(t, r.GRPCAddr())
	if a := sendGRPCTraces(context.Background(), t, cc, mixedRequest()); a.rejected != 1 {
		t.Fatalf("rejected = %d, want 1", a.rejected)
	}
	if got := receive(t, up.got); !bytes.Equal(got, want) {
		t.Errorf("upstream got %d bytes, want the %d bytes sent", len(got), len(want))
	}
	if md := <-up.headers; len(md.Get("x-tenant")) != 1 || md.Get("x-tenant")[0] != "t1" {
		t.Errorf("upstream metadata x-tenant = %v", md.Get("x-tenant"))
	}

	// Over HTTP/JSON: the same spans, re-encoded as protobuf.
	jsonBody, _ := mixedRequest().MarshalJSON()
	if a := post(t, nil, "http://"+r.HTTPAddr()+tracesPath, mediaJSON, "", jsonBody, nil); a.httpStatus != 200 {
		t.Fatalf("HTTP status = %d", a.httpStatus)
	}
	if got := receive(t, up.got); !bytes.Equal(got, want) {
		t.Errorf("upstream got a different request after JSON ingestion")
	}
	if names := s.spanNames(); len(names) != 2 || names[0] != "good" || names[1] != "good" {
		t.Errorf("consumer got %q, want the valid span twice", names)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if got := counter(t, r.metrics.forward, forwardOK); got != 2 {
		t.Errorf("forward ok = %v, want 2", got)
	}
}

func TestForwardHTTP(t *testing.T) {
	for _, compression := range []string{CompressionNone, CompressionGzip} {
		t.Run(compression, func(t *testing.T) {
			got := make(chan []byte, 4)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				var body io.Reader = req.Body
				if req.Header.Get("Content-Encoding") == "gzip" {
					zr, err := gzip.NewReader(req.Body)
					if err != nil {
						w.WriteHeader(http.StatusBadRequest)
						got <- nil
						return
					}
					body = zr
				}
				b, _ := io.ReadAll(body)
				wantEncoding := map[string]string{CompressionNone: "", CompressionGzip: "gzip"}[compression]
				if req.URL.Path != tracesPath || req.Header.Get("Content-Type") != mediaProto || req.Header.Get("Authorization") != "Bearer up" ||
					req.Header.Get("Content-Encoding") != wantEncoding {
					w.WriteHeader(http.StatusBadRequest)
					got <- nil
					return
				}
				w.Header().Set("Content-Type", mediaProto)
				got <- b
			}))
			defer srv.Close()
			cfg := testConfig()
			cfg.Forward.Endpoint, cfg.Forward.Protocol = srv.URL, ProtocolHTTP
			cfg.Forward.Headers = configopaque.Map{"Authorization": "Bearer up"}
			cfg.Forward.Compression = compression
			r, _ := startReceiver(t, cfg, &sink{})
			want, _ := mixedRequest().MarshalProto()
			if a := post(t, nil, "http://"+r.HTTPAddr()+tracesPath, mediaProto, "gzip", gzipBytes(t, want), nil); a.httpStatus != 200 {
				t.Fatalf("status %d", a.httpStatus)
			}
			if b := receive(t, got); !bytes.Equal(b, want) {
				t.Errorf("upstream got %d bytes, want the %d bytes sent (decompressed)", len(b), len(want))
			}
		})
	}
}

func TestForwardUpstreamDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	for _, protocol := range []string{ProtocolGRPC, ProtocolHTTP} {
		t.Run(protocol, func(t *testing.T) {
			cfg := testConfig()
			cfg.Forward.Protocol = protocol
			cfg.Forward.Endpoint = dead
			if protocol == ProtocolHTTP {
				cfg.Forward.Endpoint = "http://" + dead
			}
			cfg.Forward.Timeout = 2 * time.Second
			cfg.Forward.TLS.Insecure = true
			s := &sink{}
			r, _ := startReceiver(t, cfg, s)
			body, _ := tracesRequest(validSpan("a")).MarshalProto()
			if a := post(t, nil, "http://"+r.HTTPAddr()+tracesPath, mediaProto, "", body, nil); a.httpStatus != 200 {
				t.Fatalf("ingestion status %d, want 200 with the upstream down", a.httpStatus)
			}
			if len(s.spanNames()) != 1 {
				t.Fatal("consumer did not get the span")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := r.Shutdown(ctx); err != nil {
				t.Fatal(err)
			}
			if got := counter(t, r.metrics.forward, forwardError); got != 1 {
				t.Errorf("forward error = %v, want 1", got)
			}
		})
	}
}

func TestForwardQueueFull(t *testing.T) {
	block := make(chan struct{})
	up, addr := startUpstream(t, block)
	cfg := testConfig()
	cfg.Forward.Endpoint, cfg.Forward.Protocol = addr, ProtocolGRPC
	cfg.Forward.TLS.Insecure = true
	cfg.Forward.SendingQueue.QueueSize, cfg.Forward.SendingQueue.NumConsumers = 1, 1
	r, _ := startReceiver(t, cfg, &sink{})
	body, _ := tracesRequest(validSpan("a")).MarshalProto()
	const sent = 4
	for range sent {
		if a := post(t, nil, "http://"+r.HTTPAddr()+tracesPath, mediaProto, "", body, nil); a.httpStatus != 200 {
			t.Fatalf("status %d: a full forward queue must not block or fail ingestion", a.httpStatus)
		}
	}
	// One request is with the worker and at most one waits in the queue.
	if got := counter(t, r.metrics.forward, forwardDropped); got < sent-2 {
		t.Errorf("dropped = %v, want at least %d", got, sent-2)
	}
	close(block)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	m := r.metrics.forward
	total := counter(t, m, forwardOK) + counter(t, m, forwardError) + counter(t, m, forwardDropped)
	if total != sent {
		t.Errorf("ok+error+dropped = %v, want %d: every request must be accounted for", total, sent)
	}
	if got := len(up.got); float64(got) != counter(t, m, forwardOK) {
		t.Errorf("upstream got %d, forward ok = %v", got, counter(t, m, forwardOK))
	}
}

// TestForwardGRPCBodiesOutliveTheCall: a gRPC request's body is held in a
// pooled buffer only while the call runs; the requests the forward queues
// while the upstream is slow must still reach it byte for byte after later
// requests have reused those buffers.
func TestForwardGRPCBodiesOutliveTheCall(t *testing.T) {
	block := make(chan struct{})
	up, addr := startUpstream(t, block)
	cfg := testConfig()
	cfg.Forward.Endpoint, cfg.Forward.Protocol = addr, ProtocolGRPC
	cfg.Forward.TLS.Insecure = true
	cfg.Forward.SendingQueue.QueueSize, cfg.Forward.SendingQueue.NumConsumers = 16, 1
	r, _ := startReceiver(t, cfg, &sink{})
	cc := grpcConn(t, r.GRPCAddr())
	want := map[string]bool{}
	const sent = 12
	for i := range sent {
		req := tracesRequest(validSpan(fmt.Sprintf("span-%02d-%s", i, strings.Repeat("x", 100*i))))
		b, _ := req.MarshalProto()
		want[string(b)] = true
		if a := sendGRPCTraces(context.Background(), t, cc, req); a.grpcCode != codes.OK {
			t.Fatalf("request %d: %v", i, a.grpcCode)
		}
	}
	close(block)
	for range sent {
		if got := receive(t, up.got); !want[string(got)] {
			t.Fatalf("upstream got %d bytes that were never sent", len(got))
		} else {
			delete(want, string(got))
		}
	}
}
