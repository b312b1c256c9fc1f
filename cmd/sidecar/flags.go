package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"

	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/editdist"
)

// commonFlags are the operator overrides shared by serve, validate,
// replay and demo. Each named flag is an override of one key, applied over
// the config file before the --set overrides.
type commonFlags struct {
	configPath string
	logLevel   string
	logFormat  string
	grpc       string
	http       string
	metrics    string
	jsonlDir   string
	dataDir    string
	sets       stringList
}

func (f *commonFlags) register(fs *flag.FlagSet, online bool) {
	fs.StringVar(&f.configPath, "config", os.Getenv("EVALSIDECAR_CONFIG"), "YAML config `file` (env EVALSIDECAR_CONFIG); defaults when empty")
	fs.Var(&f.sets, "set", "override one config key, as `key.path=value` (YAML value; repeatable, applied last), e.g. --set exporters.clickhouse.enabled=true")
	fs.StringVar(&f.dataDir, "data-dir", "", "override storage.directory: the `directory` of the JSON lines files and the ClickHouse spool")
	fs.StringVar(&f.logLevel, "log-level", "", "override log.level: debug, info, warn, error")
	fs.StringVar(&f.logFormat, "log-format", "", "override log.format: auto, json, text")
	if online {
		fs.StringVar(&f.grpc, "grpc-endpoint", "", "override receiver.grpc.endpoint (`host:port`)")
		fs.StringVar(&f.http, "http-endpoint", "", "override receiver.http.endpoint (`host:port`)")
		fs.StringVar(&f.metrics, "metrics-endpoint", "", "override exporters.prometheus.endpoint (`host:port`)")
	}
	fs.StringVar(&f.jsonlDir, "jsonl-dir", "", "override exporters.jsonl.directory and enable the JSON lines exporter")
}

// load reads the config file and applies the flags that were set, then
// the --set overrides.
func (f *commonFlags) load() (config.Config, error) {
	var sets []string
	for _, o := range []struct{ key, value string }{
		{"storage.directory", f.dataDir},
		{"log.level", f.logLevel},
		{"log.format", f.logFormat},
		{"receiver.grpc.endpoint", f.grpc},
		{"receiver.http.endpoint", f.http},
		{"exporters.prometheus.endpoint", f.metrics},
		{"exporters.jsonl.directory", f.jsonlDir},
	} {
		if o.value != "" {
			sets = append(sets, o.key+"="+strconv.Quote(o.value)) // a YAML string, whatever it holds
		}
	}
	if f.jsonlDir != "" {
		sets = append(sets, "exporters.jsonl.enabled=true")
	}
	return config.Load(f.configPath, append(sets, f.sets...)...)
}

// newLogger builds the process logger: JSON in production, text on a
// terminal unless the config says otherwise.
func newLogger(cfg config.Log, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(strings.ToUpper(cfg.Level)))
	opts := &slog.HandlerOptions{Level: level}
	format := cfg.Format
	if format == "auto" {
		format = "json"
		if isTerminal(w) {
			format = "text"
		}
	}
	if format == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// parseConfigFlags parses the arguments of a command that takes the
// common flags and no arguments (serve, validate) and returns the flags.
func parseConfigFlags(name string, args []string, stderr io.Writer) (*commonFlags, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cf commonFlags
	cf.register(fs, true)
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%w: unexpected arguments %v", errUsage, fs.Args())
	}
	return &cf, nil
}

// parseFlags parses args into fs and turns flag errors into usage errors,
// naming the nearest flag when an unknown one is a near miss.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
			var names []string
			fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
			if near := editdist.Closest(strings.TrimPrefix(name, "-"), names); near != "" {
				return fmt.Errorf("%w: %v (did you mean -%s?)", errUsage, err, near)
			}
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}
