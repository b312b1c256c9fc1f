package receiver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/evalsidecar/evalsidecar/internal/memlimit"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/receiver/internal/nesting"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/encoding"
)

// Receiver runs the OTLP/gRPC and OTLP/HTTP servers.
type Receiver struct {
	cfg         Config
	traces      *signal[ptraceotlp.ExportRequest, ptraceotlp.ExportResponse] // hands spans to the traces consumer
	logs        *signal[plogotlp.ExportRequest, plogotlp.ExportResponse]     // hands log records to the logs consumer
	logger      *slog.Logger
	metrics     *metrics
	validator   validator
	decodeDepth int
	auth        *bearerAuth
	fwd         *forwarder
	mem         *memlimit.Limiter // nil: no memory limit

	draining atomic.Bool
	// inflight is held for reading by every export call between its
	// draining check and its return; Drain takes it for writing to wait
	// until the calls that got past the check have handed their data on.
	inflight sync.RWMutex

	mu         sync.Mutex
	started    bool
	grpcServer *grpc.Server
	httpServer *http.Server
	grpcAddr   string
	httpAddr   string
	serving    sync.WaitGroup
}

// New builds a receiver from a validated configuration. traces and logs
// receive the accepted data; either may be nil, in which case that signal
// is accepted and discarded. Metrics are registered with set.Registerer
// (nil: not registered).
func New(cfg Config, set telemetry.Settings, traces TracesConsumer, logs LogsConsumer) (*Receiver, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("receiver config: %w", err)
	}
	logger, reg := set.Log(), set.Registerer
	if traces == nil {
		traces = TracesConsumerFunc(func(context.Context, ptrace.Traces) error { return nil })
	}
	if logs == nil {
		logs = LogsConsumerFunc(func(context.Context, plog.Logs) error { return nil })
	}
	m, err := newMetrics(reg)
	if err != nil {
		return nil, err
	}
	fwd, err := newForwarder(cfg.Forward, m, logger)
	if err != nil {
		return nil, err
	}
	mem, err := memlimit.New(cfg.MemoryLimiter, set)
	if err != nil {
		return nil, fmt.Errorf("receiver config: memory_limiter: %w", err)
	}
	r := &Receiver{
		cfg:         cfg,
		logger:      logger,
		metrics:     m,
		validator:   validator{maxDepth: cfg.MaxAttributeDepth},
		decodeDepth: nesting.DecodeDepthLimit(cfg.MaxAttributeDepth),
		auth:        newBearerAuth(string(cfg.Auth.BearerToken)),
		fwd:         fwd,
		mem:         mem,
	}
	r.traces, r.logs = tracesSignal(r, traces), logsSignal(r, logs)
	return r, nil
}

// Start binds the enabled listeners and serves them in the background. A
// port-in-use or TLS error is returned here, with nothing left running.
func (r *Receiver) Start(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started {
		return errors.New("receiver already started")
	}
	r.started = true
	if r.cfg.GRPC.Enabled {
		if err := r.startGRPC(ctx); err != nil {
			return errors.Join(err, r.stopLocked(ctx))
		}
	}
	if r.cfg.HTTP.Enabled {
		if err := r.startHTTP(ctx); err != nil {
			return errors.Join(err, r.stopLocked(ctx))
		}
	}
	r.fwd.start()
	r.mem.Start()
	return nil
}

func (r *Receiver) startGRPC(ctx context.Context) error {
	opts := []grpc.ServerOption{
		grpc.MaxRecvMsgSize(r.cfg.GRPC.MaxRecvMsgSizeMiB << 20),
		grpc.ForceServerCodecV2(rawCodec{delegate: encoding.GetCodecV2("proto")}),
		grpc.StatsHandler(sizeStats{r: r}),
	}
	if r.auth != nil || r.mem != nil {
		opts = append(opts, grpc.InTapHandle(r.tap))
	}
	tc, err := r.cfg.GRPC.TLS.LoadTLSConfig()
	if err != nil {
		return fmt.Errorf("grpc.tls: %w", err)
	}
	if tc != nil {
		opts = append(opts, grpc.Creds(credentials.NewTLS(tc)))
	}
	srv := grpc.NewServer(opts...)
	srv.RegisterService(serviceDesc(traceServiceName), r.traces)
	srv.RegisterService(serviceDesc(logsServiceName), r.logs)
	r.grpcServer = srv
	r.grpcAddr, err = r.listen(ctx, "OTLP/gRPC", "grpc", r.cfg.GRPC.Endpoint, tc != nil, srv.Serve, grpc.ErrServerStopped)
	return err
}

func (r *Receiver) startHTTP(ctx context.Context) error {
	h := r.cfg.HTTP
	srv := &http.Server{
		Handler:           &httpHandler{r: r, maxBody: h.MaxRequestBodySize},
		ReadHeaderTimeout: h.ReadHeaderTimeout,
		ReadTimeout:       h.ReadTimeout,
		WriteTimeout:      h.WriteTimeout,
		IdleTimeout:       h.IdleTimeout,
		MaxHeaderBytes:    int(h.MaxHeaderBytes),
		ErrorLog:          slog.NewLogLogger(r.logger.Handler(), slog.LevelDebug),
	}
	tc, err := h.TLS.LoadTLSConfig()
	if err != nil {
		return fmt.Errorf("http.tls: %w", err)
	}
	srv.TLSConfig = tc
	serve := srv.Serve
	if tc != nil {
		serve = func(ln net.Listener) error { return srv.ServeTLS(ln, "", "") }
	}
	r.httpServer = srv
	r.httpAddr, err = r.listen(ctx, "OTLP/HTTP", "http", h.Endpoint, tc != nil, serve, http.ErrServerClosed)
	return err
}

// listen binds endpoint (the key config key) and serves it with serve in
// the background, logging a stop other than closed; it returns the bound
// address.
func (r *Receiver) listen(ctx context.Context, name, key, endpoint string, tls bool, serve func(net.Listener) error, closed error) (string, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", endpoint)
	if err != nil {
		return "", fmt.Errorf("%s.endpoint: %w", key, err)
	}
	r.serving.Go(func() {
		if err := serve(ln); err != nil && !errors.Is(err, closed) {
			r.logger.Error(name+" server stopped", "error", err)
		}
	})
	addr := ln.Addr().String()
	r.logger.Info(name+" receiver listening", "address", addr, "tls", tls)
	return addr, nil
}

// GRPCAddr is the bound gRPC address, or "" when gRPC is not serving.
func (r *Receiver) GRPCAddr() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.grpcAddr
}

// HTTPAddr is the bound HTTP address, or "" when HTTP is not serving.
func (r *Receiver) HTTPAddr() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.httpAddr
}

// Drain makes the receiver refuse all new data with a retryable answer
// (gRPC UNAVAILABLE with RetryInfo, HTTP 503 with Retry-After) while the
// servers keep running, so clients hold their data until the pipeline
// behind has been flushed. It returns once every export call that was
// accepted before has returned from its consumer, so a flush after Drain
// sees all accepted data. It is safe to call more than once.
func (r *Receiver) Drain() {
	if !r.draining.Swap(true) {
		r.logger.Info("OTLP receiver draining: refusing new data")
	}
	r.inflight.Lock()
	r.inflight.Unlock() //nolint:staticcheck // an empty critical section: waits for in-flight exports
}

// Draining reports whether Drain has been called.
func (r *Receiver) Draining() bool { return r.draining.Load() }

// Shutdown drains, stops both servers gracefully (forcefully once ctx ends),
// then stops the forwarder, which sends what is queued until ctx ends.
func (r *Receiver) Shutdown(ctx context.Context) error {
	r.Drain()
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopLocked(ctx)
}

func (r *Receiver) stopLocked(ctx context.Context) error {
	var errs []error
	if r.httpServer != nil {
		if err := r.httpServer.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("http shutdown: %w", err))
			_ = r.httpServer.Close()
		}
	}
	if r.grpcServer != nil {
		done := make(chan struct{})
		go func() { r.grpcServer.GracefulStop(); close(done) }()
		select {
		case <-done:
		case <-ctx.Done():
			r.grpcServer.Stop()
			<-done
			errs = append(errs, fmt.Errorf("grpc shutdown: %w", ctx.Err()))
		}
	}
	r.serving.Wait()
	r.httpServer, r.grpcServer = nil, nil
	r.mem.Shutdown()
	if err := r.fwd.shutdown(ctx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
