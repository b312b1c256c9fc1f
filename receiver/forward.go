package receiver

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"github.com/evalsidecar/evalsidecar/internal/queue"
)

// Forward outcomes (label values of evalsidecar_forward_requests_total).
const (
	forwardOK      = "ok"
	forwardError   = "error"
	forwardDropped = "dropped"
)

// forwardItem is one accepted request, protobuf-encoded as received.
type forwardItem struct {
	signal string
	body   []byte
}

// sender delivers one protobuf request upstream.
type sender interface {
	send(ctx context.Context, signal string, body []byte) error
	close() error
}

// forwarder copies accepted requests to an upstream OTLP endpoint through
// the forward sending_queue. It never blocks ingestion: when the queue is
// full the request is dropped and counted.
type forwarder struct {
	cfg       ForwardConfig
	out       sender
	metrics   *metrics
	logger    *slog.Logger
	queue     *queue.Bounded[forwardItem]
	closeOnce sync.Once
}

func newForwarder(cfg ForwardConfig, m *metrics, logger *slog.Logger) (*forwarder, error) {
	if cfg.Endpoint == "" {
		return nil, nil
	}
	var (
		out sender
		err error
	)
	switch cfg.Protocol {
	case ProtocolHTTP:
		out, err = newHTTPSender(cfg)
	default:
		out, err = newGRPCSender(cfg)
	}
	if err != nil {
		return nil, err
	}
	f := &forwarder{cfg: cfg, out: out, metrics: m, logger: logger}
	f.queue = queue.New(queue.Settings[forwardItem]{
		Config:  cfg.SendingQueue,
		Consume: f.send,
		Drop:    func(forwardItem, string) { m.forward.WithLabelValues(forwardDropped).Inc() },
	})
	return f, nil
}

// start launches the consumers.
func (f *forwarder) start() {
	if f != nil {
		f.queue.Start(context.Background())
	}
}

// send forwards one request and counts the outcome.
func (f *forwarder) send(ctx context.Context, it forwardItem) {
	ctx, cancel := context.WithTimeout(ctx, f.cfg.Timeout)
	defer cancel()
	if err := f.out.send(ctx, it.signal, it.body); err != nil {
		f.metrics.forward.WithLabelValues(forwardError).Inc()
		f.logger.Debug("forwarding to upstream failed", "signal", it.signal, "error", err)
		return
	}
	f.metrics.forward.WithLabelValues(forwardOK).Inc()
}

// enqueue queues body for forwarding without blocking. A nil forwarder or
// body is a no-op.
func (f *forwarder) enqueue(signal string, body []byte) {
	if f == nil || body == nil {
		return
	}
	_ = f.queue.Offer(forwardItem{signal: signal, body: body}) // a refusal is counted by Drop
}

// shutdown stops taking requests and lets the consumers drain the queue
// until ctx ends; requests still queued then are dropped and counted.
func (f *forwarder) shutdown(ctx context.Context) error {
	if f == nil {
		return nil
	}
	err := f.queue.Shutdown(ctx)
	if err != nil {
		err = fmt.Errorf("forward: %w", err)
	}
	f.closeOnce.Do(func() {
		if cerr := f.out.close(); cerr != nil && err == nil {
			err = cerr
		}
	})
	return err
}

// grpcSender forwards over OTLP/gRPC, sending the protobuf bytes unchanged.
type grpcSender struct {
	conn *grpc.ClientConn
	md   metadata.MD
}

func newGRPCSender(cfg ForwardConfig) (*grpcSender, error) {
	tc, err := cfg.TLS.LoadTLSConfig()
	if err != nil {
		return nil, fmt.Errorf("forward.tls: %w", err)
	}
	creds := insecure.NewCredentials()
	if tc != nil {
		creds = credentials.NewTLS(tc)
	}
	callOpts := []grpc.CallOption{grpc.ForceCodecV2(rawCodec{})}
	if cfg.Compression == CompressionGzip {
		callOpts = append(callOpts, grpc.UseCompressor(CompressionGzip)) // registered in grpc.go
	}
	conn, err := grpc.NewClient(cfg.Endpoint,
		grpc.WithTransportCredentials(creds),
		grpc.WithDefaultCallOptions(callOpts...))
	if err != nil {
		return nil, fmt.Errorf("forward.endpoint: %w", err)
	}
	md := metadata.MD{}
	for k, v := range cfg.Headers {
		md.Append(strings.ToLower(k), string(v))
	}
	return &grpcSender{conn: conn, md: md}, nil
}

func (s *grpcSender) send(ctx context.Context, signal string, body []byte) error {
	method := traceExportPath
	if signal == signalLogs {
		method = logsExportPath
	}
	if len(s.md) > 0 {
		ctx = metadata.NewOutgoingContext(ctx, s.md)
	}
	var resp rawMessage
	return s.conn.Invoke(ctx, method, rawMessage(body), &resp)
}

func (s *grpcSender) close() error { return s.conn.Close() }

// httpSender forwards over OTLP/HTTP with protobuf bodies.
type httpSender struct {
	client  *http.Client
	base    string
	headers map[string]string
	gzip    bool
}

// newHTTPSender builds the HTTP client. The URL scheme decides whether TLS
// is used; the tls block configures it for https.
func newHTTPSender(cfg ForwardConfig) (*httpSender, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if !cfg.TLS.Insecure {
		tc, err := cfg.TLS.LoadTLSConfig()
		if err != nil {
			return nil, fmt.Errorf("forward.tls: %w", err)
		}
		tr.TLSClientConfig = tc
	}
	return &httpSender{
		client:  &http.Client{Transport: tr},
		base:    strings.TrimRight(cfg.Endpoint, "/"),
		headers: cfg.Headers.Plain(),
		gzip:    cfg.Compression == CompressionGzip,
	}, nil
}

func (s *httpSender) send(ctx context.Context, signal string, body []byte) error {
	path := tracesPath
	if signal == signalLogs {
		path = logsPath
	}
	if s.gzip {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		_, _ = zw.Write(body)
		_ = zw.Close()
		body = buf.Bytes()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	for k, v := range s.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", mediaProto)
	if s.gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("upstream answered %s", resp.Status)
	}
	return nil
}

func (s *httpSender) close() error {
	s.client.CloseIdleConnections()
	return nil
}
