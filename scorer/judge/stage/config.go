package stage

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/internal/queue"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/baseline"
	"github.com/evalsidecar/evalsidecar/scorer/judge/calibration"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/vertex"
	"github.com/evalsidecar/evalsidecar/scorer/judge/provider"
	"github.com/evalsidecar/evalsidecar/scorer/judge/redact"
	"github.com/evalsidecar/evalsidecar/scorer/judge/sampling"
	"gopkg.in/yaml.v3"
)

// Config is the judge section of the sidecar's configuration: the judges
// (models and their call policies), the judge metrics with their sampling
// and budgets, and the data-safety controls applied before any request
// leaves the process.
type Config struct {
	// Judges are the configured judge models, by name.
	Judges []JudgeConfig `yaml:"judges"`
	// DefaultJudge is the judge of a metric whose params name none;
	// empty means the first judge.
	DefaultJudge string `yaml:"default_judge"`
	// Metrics are the judge metrics run on live runs.
	Metrics []MetricConfig `yaml:"metrics"`
	// SendingQueue is each judge's queue: queue_size bounds the runs
	// waiting for the judge (a full queue skips a run, queue_full, and
	// never slows ingestion) and num_consumers is the number of goroutines
	// judging them, 0 for the judge's max_concurrency.
	SendingQueue queue.Config `yaml:"sending_queue"`
	// Shed chooses the run skipped when a judge's queue is full:
	// "newest" skips the arriving run, "oldest" evicts the run that waited
	// longest so the judge keeps up with current traffic.
	Shed string `yaml:"shed"`
	// MetricTimeout bounds one judge metric on one run, every call and
	// retry included.
	MetricTimeout time.Duration `yaml:"metric_timeout"`
	// Cache holds judge results by (metric, judge, content hash), so a
	// duplicate delivery is never judged twice.
	Cache sampling.CacheConfig `yaml:"cache"`
	// Redaction removes personal data and secrets from everything sent to
	// a judge.
	Redaction redact.Config `yaml:"redaction"`
	// RedactStored also redacts every run before it is scored and
	// stored (trajectories, scores and judge requests alike). Off by
	// default: runs are stored as received and redaction applies only to
	// what is sent to a judge.
	RedactStored bool `yaml:"redact_stored"`
	// MaxFieldBytes truncates each piece of run content sent to a judge
	// (the truncation is flagged on the score).
	MaxFieldBytes int `yaml:"max_field_bytes"`
	// Calibration measures the judge's agreement with people's feedback
	// on live runs.
	Calibration calibration.Config `yaml:"calibration"`
	// Baseline names the baseline release the pairwise metrics compare
	// live candidate runs with (online pairwise on canary traffic).
	Baseline baseline.Config `yaml:"baseline"`
}

// JudgeConfig is one judge: the model and its endpoint (provider.Config)
// and the client's call policies (judge.ClientConfig: timeout, retries,
// concurrency, circuit, budget, prices, fallback).
type JudgeConfig struct {
	judge.ClientConfig `yaml:",inline"`
	provider.Config    `yaml:",inline"`
}

// MetricConfig is one judge metric: the metric (id, type, params; the
// "judge" param names its judge), which runs it judges, its own budget,
// and the run fields it may send to the judge.
type MetricConfig struct {
	scorer.MetricConfig `yaml:",inline"`
	// Sampling selects the runs judged.
	Sampling sampling.Config `yaml:"sampling"`
	// Budget limits this metric's judge calls, on top of its judge's.
	Budget judge.BudgetConfig `yaml:"budget"`
	// Fields is the allow-list of run fields the metric may send (prompt,
	// response, reference, instruction, context, tool_declarations,
	// tool_calls, conversation, rubrics, topics); empty allows every field
	// the metric reads.
	Fields []string `yaml:"fields"`
}

// Shed policies of a full judge queue.
const (
	ShedNewest = "newest"
	ShedOldest = "oldest"
)

// DefaultConfig returns the documented defaults: no judges and no judge
// metrics (the judge is off), 256 runs queued per judge shedding the
// newest, as many consumers per judge as its max_concurrency, 2 minutes
// per metric and run, a 10000-entry result cache for 1h, redaction on,
// and 16 KiB per field.
func DefaultConfig() Config {
	return Config{
		Judges:        []JudgeConfig{},
		Metrics:       []MetricConfig{},
		SendingQueue:  queue.Config{Enabled: true, NumConsumers: 0, QueueSize: 256},
		Shed:          ShedNewest,
		MetricTimeout: 2 * time.Minute,
		Cache:         sampling.CacheConfig{Size: 10000, TTL: time.Hour},
		Redaction:     redact.DefaultConfig(),
		MaxFieldBytes: 16 << 10,
		Calibration:   calibration.DefaultConfig(),
		Baseline:      baseline.DefaultConfig(),
	}
}

// DefaultJudgeConfig returns a judge's defaults (see judge.DefaultClientConfig).
func DefaultJudgeConfig() JudgeConfig {
	return JudgeConfig{ClientConfig: judge.DefaultClientConfig()}
}

// defaultJudge is the judge of a metric whose params name none:
// DefaultJudge, else the first judge.
func (c Config) defaultJudge() string {
	if c.DefaultJudge == "" && len(c.Judges) > 0 {
		return c.Judges[0].Name
	}
	return c.DefaultJudge
}

// Enabled reports whether any judge metric is configured.
func (c Config) Enabled() bool { return len(c.Metrics) > 0 }

// Validate reports every invalid key, named by its path in the section.
func (c Config) Validate() error {
	var v errs.Checks
	names := make(map[string]int, len(c.Judges))
	for i, j := range c.Judges {
		p := fmt.Sprintf("judges[%d].", i)
		v.Add(errs.Prefix(p, j.ClientConfig.Validate()), errs.Prefix(p, j.Config.Validate()))
		k, dup := names[j.Name]
		v.Check(dup && j.Name != "", "%sname: duplicate judge %q (also judges[%d])", p, j.Name, k)
		names[j.Name] = i
	}
	known := func(judge string) bool {
		_, ok := names[judge]
		return ok
	}
	for i, j := range c.Judges {
		v.Check(j.Fallback != "" && !known(j.Fallback), "judges[%d].fallback: unknown judge %q", i, j.Fallback)
	}
	v.Check(c.DefaultJudge != "" && !known(c.DefaultJudge), "default_judge: unknown judge %q", c.DefaultJudge)
	v.Check(len(c.Metrics) > 0 && len(c.Judges) == 0, "judges: judge metrics are configured but no judge is")
	seen := make(map[string]int, len(c.Metrics))
	for i, m := range c.Metrics {
		p := fmt.Sprintf("metrics[%d].", i)
		k, dup := seen[m.Name]
		v.Check(m.Name == "", "%sname: must not be empty", p)
		v.Check(m.Name != "" && dup, "%sname: duplicate metric %q (also metrics[%d])", p, m.Name, k)
		seen[m.Name] = i
		v.Add(errs.Prefix(p+"sampling.", m.Sampling.Validate()), errs.Prefix(p, m.Budget.Validate("budget.")), errs.Prefix(p, m.CheckSemantics()))
		for k, f := range m.Fields {
			v.Check(!slices.Contains(Fields(), f), "%sfields[%d]: unknown field %q (known: %v)", p, k, f, Fields())
		}
	}
	q := c.SendingQueue
	v.Check(q.Enabled && q.QueueSize <= 0, "sending_queue.queue_size: must be > 0, got %d", q.QueueSize)
	v.Check(q.Enabled && q.NumConsumers < 0, "sending_queue.num_consumers: must be >= 0, got %d", q.NumConsumers)
	v.Check(c.Shed != ShedNewest && c.Shed != ShedOldest, "shed: must be %q or %q, got %q", ShedNewest, ShedOldest, c.Shed)
	v.Check(c.MetricTimeout <= 0, "metric_timeout: must be > 0, got %s", c.MetricTimeout)
	v.Add(errs.Prefix("cache.", c.Cache.Validate()), errs.Prefix("calibration.", c.Calibration.Validate()))
	for _, m := range slices.Sorted(maps.Keys(c.Calibration.Floor)) {
		_, ok := seen[m]
		v.Check(!ok, "calibration.floor.%s: not a judge metric of judge.metrics; its agreement is never measured", m)
	}
	v.Add(errs.Prefix("baseline.", c.Baseline.Validate()))
	v.Add(c.Redaction.Validate()) // keys already start with "redaction."
	v.Check(c.MaxFieldBytes <= 0, "max_field_bytes: must be > 0, got %d", c.MaxFieldBytes)
	return v.Err()
}

// PairwiseMetrics returns the names of the configured pairwise metrics
// (type or name pairwise_<template>).
func (c Config) PairwiseMetrics() []string {
	var out []string
	for _, m := range c.Metrics {
		if strings.HasPrefix(cmp.Or(m.Type, m.Name), vertex.PairwisePrefix) {
			out = append(out, m.Name)
		}
	}
	return out
}

// Fields lists the run fields a judge metric can send, the values of
// MetricConfig.Fields.
func Fields() []string {
	return []string{"prompt", "response", "reference", "instruction", "context",
		"tool_declarations", "tool_calls", "conversation", "rubrics", "topics"}
}

// UnmarshalYAML decodes a judge over its defaults, so that keys left out
// of one list element keep DefaultJudgeConfig's values.
func (j *JudgeConfig) UnmarshalYAML(n *yaml.Node) error {
	type plain JudgeConfig
	p := plain(DefaultJudgeConfig())
	if err := n.Decode(&p); err != nil {
		return err
	}
	*j = JudgeConfig(p)
	return nil
}
