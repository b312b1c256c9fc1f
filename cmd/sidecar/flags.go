package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/evalsidecar/evalsidecar/internal/config"
)

// commonFlags are the operator overrides shared by serve, replay and demo.
// A flag that is set wins over the config file.
type commonFlags struct {
	configPath string
	logLevel   string
	logFormat  string
	grpc       string
	http       string
	metrics    string
	jsonlDir   string
}

func (f *commonFlags) register(fs *flag.FlagSet, online bool) {
	fs.StringVar(&f.configPath, "config", os.Getenv("EVALSIDECAR_CONFIG"), "YAML config `file` (env EVALSIDECAR_CONFIG); defaults when empty")
	fs.StringVar(&f.logLevel, "log-level", "", "override log.level: debug, info, warn, error")
	fs.StringVar(&f.logFormat, "log-format", "", "override log.format: auto, json, text")
	if online {
		fs.StringVar(&f.grpc, "grpc-endpoint", "", "override receiver.grpc.endpoint (`host:port`)")
		fs.StringVar(&f.http, "http-endpoint", "", "override receiver.http.endpoint (`host:port`)")
		fs.StringVar(&f.metrics, "metrics-endpoint", "", "override exporters.prometheus.endpoint (`host:port`)")
	}
	fs.StringVar(&f.jsonlDir, "jsonl-dir", "", "override exporters.jsonl.directory and enable the JSON lines exporter")
}

// load reads the config file and applies the flags that were set.
func (f *commonFlags) load() (config.Config, error) {
	cfg, err := config.Load(f.configPath)
	if err != nil {
		return cfg, err
	}
	if f.logLevel != "" {
		cfg.Log.Level = f.logLevel
	}
	if f.logFormat != "" {
		cfg.Log.Format = f.logFormat
	}
	if f.grpc != "" {
		cfg.Receiver.GRPC.Endpoint = f.grpc
	}
	if f.http != "" {
		cfg.Receiver.HTTP.Endpoint = f.http
	}
	if f.metrics != "" {
		cfg.Exporters.Prometheus.Endpoint = f.metrics
	}
	if f.jsonlDir != "" {
		cfg.Exporters.JSONL.Enabled = true
		cfg.Exporters.JSONL.Directory = f.jsonlDir
	}
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("invalid flags or config:\n%w", err)
	}
	return cfg, nil
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
		if f, ok := w.(*os.File); ok {
			if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
				format = "text"
			}
		}
	}
	if format == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// parseFlags parses args into fs and turns flag errors into usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}
