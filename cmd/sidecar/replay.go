package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	"github.com/evalsidecar/evalsidecar/exporter/summary"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/pipeline"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/offline"
	"github.com/evalsidecar/evalsidecar/receiver/otlpfile"
)

// replayCmd runs captured OTLP files through the same pipeline as serve,
// writes trajectories and scores as JSON lines to -output and prints a
// summary table.
func replayCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sidecar replay [-config FILE] [-output DIR] FILE|DIR...")
		fmt.Fprintln(stderr, "Files: .pb (ExportTraceServiceRequest protobuf), .json (OTLP/JSON request), .jsonl (one OTLP/JSON request per line).")
		fs.PrintDefaults()
	}
	var cf commonFlags
	cf.register(fs, false)
	output := fs.String("output", "replay-output", "`directory` for trajectories.jsonl and scores.jsonl")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("%w: no input files", errUsage)
	}
	if cf.jsonlDir == "" {
		cf.jsonlDir = *output
	}
	cfg, err := cf.load()
	if err != nil {
		return err
	}
	logger := newLogger(cfg.Log, stderr)
	applyRuntime(cfg.Runtime, logger)
	sum := summary.New()
	p, err := pipeline.New(cfg, telemetry.Settings{Logger: logger, Version: version}, pipeline.Options{Extra: []exporter.Exporter{sum}})
	if err != nil {
		return err
	}
	if err := p.Start(ctx); err != nil {
		return err
	}
	feedErr := otlpfile.Read(ctx, fs.Args(), func(it otlpfile.Item) error {
		if it.Signal == otlpfile.SignalLogs {
			p.Feedback.ConsumeLogs(ctx, it.Logs)
		}
		return offline.Feed(ctx, p.Assembler, it)
	}, offline.ReportSkipped(logger))
	if err := p.Shutdown(context.WithoutCancel(ctx)); err != nil {
		return errors.Join(feedErr, err)
	}
	if feedErr != nil {
		return feedErr
	}
	if err := sum.Snapshot().Write(stdout); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "output: %s\n", config.ExporterConfig[jsonl.Config](cfg.Exporters).Directory)
	return err
}
