// Package config loads the sidecar's YAML configuration: defaults from one
// function, ${env:NAME} expansion, unknown keys and invalid values rejected
// with their key path.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	chexp "github.com/evalsidecar/evalsidecar/exporter/clickhouse"
	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	"github.com/evalsidecar/evalsidecar/extractor"
	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/receiver"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/catalog"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
	"github.com/evalsidecar/evalsidecar/scorer/judge/stage"
	"github.com/evalsidecar/evalsidecar/scorer/session"
)

// Config is the whole sidecar configuration.
type Config struct {
	Receiver  receiver.Config  `yaml:"receiver"`
	Extractor extractor.Config `yaml:"extractor"`
	Scorer    scorer.Config    `yaml:"scorer"`
	// Sessions groups scored runs into conversations and scores each
	// conversation when it closes; off by default.
	Sessions session.Config `yaml:"sessions"`
	// Judge configures the LLM judges and the judge metrics run on a
	// sample of live runs; off until a judge metric is configured.
	Judge     stage.Config `yaml:"judge"`
	Exporters Exporters    `yaml:"exporters"`
	Log       Log          `yaml:"log"`
	Runtime   Runtime      `yaml:"runtime"`
	// Storage is where the sidecar keeps its files.
	Storage Storage `yaml:"storage"`
	// ShutdownTimeout bounds the drain on SIGTERM: refuse new data, flush
	// the assembler, drain the scorer and the exporters. Keep it below the
	// pod's terminationGracePeriodSeconds.
	ShutdownTimeout time.Duration `yaml:"shutdown_timeout"`
}

// Runtime tunes the Go runtime for a steady stream of decoded spans.
type Runtime struct {
	// GCPercent is the garbage collector target (as GOGC); the GOGC
	// environment variable wins when set. A higher value trades memory for
	// CPU. The default, 150, is sized for a sidecar: the buffered runs are a
	// small heap, collected often, and at 100 the collector's share of the
	// CPU grows past what the memory it saves is worth.
	GCPercent int `yaml:"gc_percent"`
	// MemoryLimitBytes is the soft memory limit (as GOMEMLIMIT), 0 for
	// none; the GOMEMLIMIT environment variable wins when set. Set it to
	// about 80 % of the container's memory limit.
	MemoryLimitBytes int64 `yaml:"memory_limit_bytes"`
}

// Storage configures the data directory.
type Storage struct {
	// Directory is the one data directory: the JSON lines files go to it
	// and the ClickHouse spool to its clickhouse-spool subdirectory, unless
	// exporters.jsonl.directory or exporters.clickhouse.spool.directory is
	// set explicitly.
	Directory string `yaml:"directory"`
}

// spoolSubdir is the ClickHouse spool's directory under Storage.Directory.
const spoolSubdir = "clickhouse-spool"

// placeFiles puts the on-disk paths the configuration did not set
// (present holds the key paths it set) under Storage.Directory.
func (c *Config) placeFiles(present map[string]bool) {
	if j := ExporterConfig[jsonl.Config](c.Exporters); j != nil && !present["exporters.jsonl.directory"] {
		j.Directory = c.Storage.Directory
	}
	if ch := ExporterConfig[chexp.Config](c.Exporters); ch != nil && !present["exporters.clickhouse.spool.directory"] {
		ch.Spool.Directory = filepath.Join(c.Storage.Directory, spoolSubdir)
	}
}

// Log configures log/slog output.
type Log struct {
	Level  string `yaml:"level"`  // debug, info, warn, error
	Format string `yaml:"format"` // auto (text on a terminal, JSON otherwise), json, text
}

// Default returns the documented defaults; config.example.yaml mirrors it.
func Default() Config {
	c := Config{
		Receiver:        receiver.DefaultConfig(),
		Extractor:       extractor.DefaultConfig(),
		Scorer:          defaultScorer(),
		Sessions:        session.DefaultConfig(),
		Judge:           stage.DefaultConfig(),
		Exporters:       defaultExporters(),
		Log:             Log{Level: "info", Format: "auto"},
		Runtime:         Runtime{GCPercent: 150},
		Storage:         Storage{Directory: "./evalsidecar-data"},
		ShutdownTimeout: 20 * time.Second,
	}
	c.placeFiles(nil)
	return c
}

// Validate checks every section; errors carry the key path.
func (c Config) Validate() error {
	var v errs.Checks
	v.Add(errs.Prefix("receiver.", c.Receiver.Validate()))
	v.Add(errs.Prefix("extractor.", c.Extractor.Validate()))
	v.Add(errs.Prefix("scorer.", c.Scorer.Validate()))
	v.Add(errs.Prefix("sessions.", c.Sessions.Validate()))
	_, err := catalog.NewRegistry().Build(c.Scorer.Metrics)
	v.Add(errs.Prefix("scorer.metrics: ", err))
	v.Add(errs.Prefix("judge.", stage.Check(c.Judge)))
	for _, f := range ExporterFactories() {
		cfg, ok := c.Exporters[f.Type()]
		v.Check(!ok, "exporters.%s: missing (a configuration starts from Default)", f.Type())
		if ok {
			v.Add(errs.Prefix("exporters."+f.Type()+".", cfg.Validate()))
		}
	}
	v.Check(!slices.Contains([]string{"debug", "info", "warn", "error"}, strings.ToLower(c.Log.Level)), "log.level: %q is not one of debug, info, warn, error", c.Log.Level)
	v.Check(!slices.Contains([]string{"auto", "json", "text"}, c.Log.Format), "log.format: %q is not one of auto, json, text", c.Log.Format)
	v.Check(c.Runtime.GCPercent < -1 || c.Runtime.GCPercent == 0, "runtime.gc_percent: must be > 0, or -1 to turn the collector off")
	v.Check(c.Runtime.MemoryLimitBytes < 0, "runtime.memory_limit_bytes: must be >= 0")
	v.Check(c.Storage.Directory == "", "storage.directory: must not be empty")
	v.Check(c.ShutdownTimeout <= 0, "shutdown_timeout: must be > 0")
	return v.Err()
}

// NewEvalRegistry returns the registry of offline evaluation (sidecar
// eval): the catalog's metrics plus, when c configures judges, every
// judge metric bound to them (see stage.OfflineRegistry).
func NewEvalRegistry(c Config, s stage.Settings) (*scorer.Registry, error) {
	r := catalog.NewRegistry()
	if len(c.Judge.Judges) == 0 {
		// The judge metrics are known without a judge, so that asking for
		// one says a judge is needed rather than that the id is unknown.
		if err := stage.RegisterMetrics(r, judgemetric.Deps{}); err != nil {
			return nil, err
		}
		return r, nil
	}
	if err := stage.OfflineRegistry(c.Judge, s, r); err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	return r, nil
}

// Parse expands environment references in data, applies the overrides
// ("key.path=value", as --set), decodes the result over the defaults,
// places the files under storage.directory and validates. The error lists
// every problem, one per line, each with its line or override and key path.
func Parse(data []byte, lookup func(string) (string, bool), sets ...string) (Config, error) {
	cfg := Default()
	present, err := decode(data, &cfg, lookup, sets)
	if present == nil { // not YAML
		return cfg, err
	}
	if cfg.Exporters == nil { // an empty exporters: block keeps the defaults
		cfg.Exporters = defaultExporters()
	}
	cfg.placeFiles(present)
	return cfg, errors.Join(err, cfg.Validate())
}

// Load reads and parses the file at path (the defaults when path is
// empty) with the overrides. Each line of the error starts with path.
func Load(path string, sets ...string) (Config, error) {
	var data []byte
	if path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return Default(), fmt.Errorf("config: %w", err)
		}
	}
	cfg, err := Parse(data, os.LookupEnv, sets...)
	if err != nil && path != "" {
		err = errs.Prefix(path+": ", err)
	}
	return cfg, err
}

// defaultScorer is the scorer section's default: the engine's defaults and
// the catalog's default metrics.
func defaultScorer() scorer.Config {
	c := scorer.DefaultConfig()
	c.Metrics = catalog.DefaultMetrics()
	return c
}
