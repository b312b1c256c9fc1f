package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	"github.com/evalsidecar/evalsidecar/exporter/summary"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/pipeline"
	"github.com/evalsidecar/evalsidecar/internal/simulator"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// demoCmd starts serve with the embedded defaults and a built-in agent
// simulator that sends runs over OTLP/gRPC with the OpenTelemetry SDK, and
// prints a live table of per-metric means.
func demoCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cf commonFlags
	cf.register(fs, true)
	runs := fs.Int("runs", 0, "stop after `N` simulated agent runs (0: run until Ctrl-C)")
	interval := fs.Duration("interval", 300*time.Millisecond, "pause between simulated runs")
	refresh := fs.Duration("refresh", 2*time.Second, "how often the live table is printed")
	degradeAfter := fs.Int("degrade-after", 0, "switch the simulated agent to a worse release after `N` runs (0: never)")
	eventForm := fs.Bool("event-form", false, "send messages as GenAI v1.28–1.36 log events instead of span attributes")
	seed := fs.Int64("seed", time.Now().UnixNano(), "random seed of the simulator")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *runs < 0 || *degradeAfter < 0 {
		return fmt.Errorf("%w: -runs and -degrade-after must be >= 0", errUsage)
	}
	cfg, err := cf.load()
	if err != nil {
		return err
	}
	if cf.logLevel == "" && cf.configPath == "" {
		cfg.Log.Level = "warn" // keep the table readable
	}
	logger := newLogger(cfg.Log, stderr)
	applyRuntime(cfg.Runtime, logger)
	sum := summary.New()
	p, err := pipeline.New(cfg, telemetry.Settings{Logger: logger, Version: version}, pipeline.Options{Online: true, Extra: []exporter.Exporter{sum}})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := p.Start(ctx); err != nil {
		return err
	}
	metricsURL := "http://" + p.Metrics.Addr() + "/metrics"
	fmt.Fprintf(stdout, "evalsidecar demo: OTLP gRPC %s, HTTP %s\nPrometheus metrics: %s\n", p.Receiver.GRPCAddr(), p.Receiver.HTTPAddr(), metricsURL)
	if j := config.ExporterConfig[jsonl.Config](cfg.Exporters); j.Enabled {
		fmt.Fprintf(stdout, "JSON lines: %s/trajectories.jsonl and scores.jsonl\n", j.Directory)
	}

	simCfg := simulator.DefaultConfig()
	simCfg.Endpoint = p.Receiver.GRPCAddr()
	simCfg.Protocol = "grpc"
	simCfg.EventForm = *eventForm
	simCfg.Seed = *seed
	sim, err := simulator.New(ctx, simCfg)
	if err != nil {
		return err
	}
	simDone := make(chan error, 1)
	go func() {
		n := 0
		var onRun func(simulator.Run)
		if *degradeAfter > 0 {
			onRun = func(simulator.Run) {
				n++
				if n == *degradeAfter {
					sim.SetQuality(simulator.Degraded)
					sim.SetRelease("1.1.0")
				}
			}
		}
		simDone <- sim.Run(ctx, *runs, *interval, onRun)
	}()

	ticker := time.NewTicker(*refresh)
	defer ticker.Stop()
	print := func() {
		fmt.Fprintf(stdout, "\n%s  %s\n", time.Now().Format(time.TimeOnly), metricsURL)
		_ = sum.Snapshot().Write(stdout)
	}
	var simErr error
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case simErr = <-simDone:
			// Every run is sent; wait for the last ones to be assembled
			// (quiet period) and scored, then stop.
			if simErr == nil && *runs > 0 {
				waitScored(ctx, sum, *runs, cfg.Extractor.QuietPeriod+10*time.Second)
			}
			break loop
		case <-ticker.C:
			print()
		}
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownTimeout)
	defer cancel()
	shutdownErr := sim.Shutdown(sctx)
	if err := p.Shutdown(sctx); err != nil {
		shutdownErr = err
	}
	print()
	if simErr != nil && ctx.Err() == nil {
		return simErr
	}
	return shutdownErr
}

// waitScored waits until sum has counted runs runs, ctx ends or timeout
// passes.
func waitScored(ctx context.Context, sum *summary.Summary, runs int, timeout time.Duration) {
	deadline := time.After(timeout)
	for sum.Snapshot().Runs < runs {
		select {
		case <-ctx.Done():
			return
		case <-deadline:
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}
