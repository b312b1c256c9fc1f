package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/offline"
	"github.com/evalsidecar/evalsidecar/scorer/dataset"
)

// stringList is a repeatable flag.
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }

func (s *stringList) Set(v string) error {
	*s = append(*s, v)
	return nil
}

// evalCmd scores a dataset offline with the same engine as serve and
// returns the exit code: 0 when every criterion passes, 1 when one fails,
// 2 on bad input.
func evalCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		o          offline.Options
		configPath string
		metrics    string
		traces     stringList
	)
	fs.StringVar(&configPath, "config", os.Getenv("EVALSIDECAR_CONFIG"), "YAML config `file` defining metrics with parameters (scorer.metrics)")
	fs.StringVar(&o.Dataset, "dataset", "", "dataset `file`: Vertex-style rows or Ragas samples as JSON lines, a JSON array or CSV")
	fs.StringVar(&o.Format, "format", "auto", "dataset format: auto, jsonl, json, csv")
	fs.StringVar(&o.EvalSet, "evalset", "", "ADK eval set `file` (*.evalset.json, *.test.json) as the expected side; needs --traces")
	fs.Var(&traces, "traces", "OTLP `file or directory` (.pb, .json, .jsonl) with the runs of the eval set; repeatable")
	fs.StringVar(&o.Criteria, "criteria", "", "test_config.json-style `file`: {\"criteria\": {\"metric\": threshold | {\"threshold\": t, params...}}}")
	fs.StringVar(&metrics, "metrics", "", "comma-separated metric `ids`, built-in or defined in the config")
	fs.StringVar(&o.Output, "output", "", "`directory` for metrics_table.jsonl and summary.json")
	fs.StringVar(&o.CaseAttr, "case-id-attribute", dataset.DefaultCaseIDAttribute, "trajectory attribute naming a run's eval case")
	fs.BoolVar(&o.Rows, "rows", false, "print every row's scores, not only the summary")
	fs.BoolVar(&o.Resume, "resume", false, "keep the rows already scored in --output and evaluate the rest")
	fs.BoolVar(&o.FailFast, "fail-fast", false, "stop at the first dataset row that cannot be read (default: report it and go on)")
	fs.IntVar(&o.Concurrency, "concurrency", 0, "rows evaluated at once (default: the judges' max_concurrency summed, or the CPUs)")
	quiet := fs.Bool("quiet", false, "no progress report on stderr")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sidecar eval --dataset FILE [--config FILE] [--metrics id,...] [--criteria FILE] [--output DIR]")
		fmt.Fprintln(stderr, "       sidecar eval --evalset FILE --traces PATH... [--criteria FILE] [--metrics id,...] [--output DIR]")
		fmt.Fprintln(stderr, "Exit status: 0 all criteria pass, 1 a criterion fails, a metric fails on a row or a row cannot be read, 2 bad input, 130 interrupted (finished rows and a partial summary are written).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return offline.ExitPass
		}
		return offline.ExitBadInput
	}
	o.Traces = append(traces, fs.Args()...)
	for _, id := range strings.Split(metrics, ",") {
		o.Metrics = append(o.Metrics, strings.TrimSpace(id))
	}
	o.Config, o.ConfigGiven = config.Default(), configPath != ""
	if o.ConfigGiven {
		var err error
		if o.Config, err = config.Load(configPath); err != nil {
			fmt.Fprintf(stderr, "sidecar eval: %v\n", err)
			return offline.ExitBadInput
		}
	}
	o.Logger = newLogger(config.Log{Level: o.Config.Log.Level, Format: "text"}, stderr)
	if !*quiet {
		o.Progress, o.ProgressBar = stderr, isTerminal(stderr)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	code, err := offline.Eval(ctx, o, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "sidecar eval: %v\n", err)
	}
	return code
}
