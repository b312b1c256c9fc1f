package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/evalsidecar/evalsidecar/internal/pipeline"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// serveCmd runs the sidecar until SIGINT or SIGTERM, then drains: new data
// is refused with a retryable answer, buffered traces are released and
// scored, exporters flush, all within shutdown_timeout.
func serveCmd(ctx context.Context, args []string, _ io.Writer, stderr io.Writer) error {
	cf, err := parseConfigFlags("serve", args, stderr)
	if err != nil {
		return err
	}
	cfg, err := cf.load()
	if err != nil {
		return err
	}
	logger := newLogger(cfg.Log, stderr)
	applyRuntime(cfg.Runtime, logger)
	p, err := pipeline.New(cfg, telemetry.Settings{Logger: logger, Version: version}, pipeline.Options{Online: true})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := p.Start(ctx); err != nil {
		return err
	}
	logger.Info("evalsidecar started", "version", version,
		"otlp_grpc", p.Receiver.GRPCAddr(), "otlp_http", p.Receiver.HTTPAddr(), "metrics", p.Metrics.Addr())
	<-ctx.Done()
	logger.Info("shutting down: refusing new data and draining", "timeout", cfg.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownTimeout)
	defer cancel()
	if err := p.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	logger.Info("evalsidecar stopped")
	return nil
}
