package prometheus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Server limits. A scrape is cheap, so a few concurrent scrapes suffice;
// more are answered 503 rather than queued, which keeps /metrics bounded
// under a scrape storm.
const (
	maxScrapesInFlight = 8
	scrapeTimeout      = 10 * time.Second
	readHeaderTimeout  = 5 * time.Second
	idleTimeout        = time.Minute
)

// Server serves /metrics (OpenMetrics negotiated, so exemplars are shown),
// /healthz (200 while the process is up) and /readyz (200 when ready, else
// 503 with the reason).
type Server struct {
	endpoint string
	logger   *slog.Logger
	srv      *http.Server

	mu   sync.Mutex
	ln   net.Listener
	done chan struct{}
}

// NewServer returns a server for cfg.Endpoint that exposes gatherer. ready
// reports readiness; nil means always ready. The server logs to set's
// logger.
func NewServer(cfg Config, gatherer prometheus.Gatherer, ready func() error, set telemetry.Settings) *Server {
	logger := set.Log()
	if ready == nil {
		ready = func() error { return nil }
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(gatherer, promhttp.HandlerOpts{
		ErrorLog:            slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		ErrorHandling:       promhttp.ContinueOnError,
		EnableOpenMetrics:   true,
		MaxRequestsInFlight: maxScrapesInFlight,
		Timeout:             scrapeTimeout,
	}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeText(w, http.StatusOK, "ok")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if err := ready(); err != nil {
			writeText(w, http.StatusServiceUnavailable, "not ready: "+err.Error())
			return
		}
		writeText(w, http.StatusOK, "ready")
	})
	return &Server{
		endpoint: cfg.Endpoint,
		logger:   logger,
		srv: &http.Server{
			Handler:           mux,
			ReadHeaderTimeout: readHeaderTimeout,
			IdleTimeout:       idleTimeout,
			ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelDebug),
		},
	}
}

func writeText(w http.ResponseWriter, code int, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_, _ = w.Write([]byte(body + "\n"))
}

// Start binds the listener (so a busy port is reported here) and serves in
// the background until Shutdown.
func (s *Server) Start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln != nil {
		return errors.New("metrics server: already started")
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", s.endpoint)
	if err != nil {
		return fmt.Errorf("metrics server: listen on %s: %w", s.endpoint, err)
	}
	s.ln = ln
	s.done = make(chan struct{})
	go func() {
		defer close(s.done)
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.logger.Error("metrics server stopped", "endpoint", ln.Addr().String(), "error", err)
		}
	}()
	s.logger.Info("metrics server listening", "endpoint", ln.Addr().String())
	return nil
}

// Addr returns the bound address (useful with port 0), or the configured
// endpoint before Start.
func (s *Server) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln == nil {
		return s.endpoint
	}
	return s.ln.Addr().String()
}

// Shutdown stops accepting connections and waits, within ctx, for requests
// in flight to finish.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	done := s.done
	s.mu.Unlock()
	err := s.srv.Shutdown(ctx)
	if done != nil {
		select {
		case <-done:
		case <-ctx.Done():
			if err == nil {
				err = ctx.Err()
			}
		}
	}
	if err != nil {
		return fmt.Errorf("metrics server: shutdown: %w", err)
	}
	return nil
}
