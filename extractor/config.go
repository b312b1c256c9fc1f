package extractor

import (
	"time"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// Config bounds the assembler's trace buffer and sets when a trace is
// considered complete.
type Config struct {
	// QuietPeriod is how long a trace must receive no span or log record,
	// after its root span has arrived, before it is released.
	QuietPeriod time.Duration `yaml:"quiet_period"`
	// MaxTraceAge releases a trace this long after its first span or log
	// record arrived, complete or not.
	MaxTraceAge time.Duration `yaml:"max_trace_age"`
	// MaxLiveTraces caps the traces buffered at once. When a new one would
	// exceed it, the oldest trace with no span a convention reads (a
	// fragment) is evicted first, preferring a source (service.name) that
	// holds more than its fair share of the fragments, and a run in
	// progress only when there is no fragment; an evicted trace whose root
	// has not arrived is counted incomplete and not scored.
	MaxLiveTraces int `yaml:"max_live_traces"`
	// MaxBufferedBytes caps the estimated memory of all buffered traces.
	MaxBufferedBytes int64 `yaml:"max_buffered_bytes"`
	// MaxSpansPerTrace caps the spans kept for one trace; extra spans are
	// dropped and the trace is released marked too large.
	MaxSpansPerTrace int `yaml:"max_spans_per_trace"`
	// MaxAttributeValueBytes truncates longer attribute values, log bodies
	// and event attribute values.
	MaxAttributeValueBytes int `yaml:"max_attribute_value_bytes"`
	// Tick is how often Run looks for traces to release.
	Tick time.Duration `yaml:"tick"`
	// RunAttributes are span attribute keys copied into a trajectory's
	// attributes, from the run's agent span or else its earliest span that
	// has them, e.g. the eval case id that canary traffic sets so the run
	// finds its reference.
	RunAttributes []string `yaml:"run_attributes"`
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		QuietPeriod:            time.Second,
		MaxTraceAge:            5 * time.Minute,
		MaxLiveTraces:          10000,
		MaxBufferedBytes:       256 << 20,
		MaxSpansPerTrace:       5000,
		MaxAttributeValueBytes: 64 << 10,
		Tick:                   200 * time.Millisecond,
		RunAttributes:          []string{"eval.case_id"},
	}
}

// Validate reports every invalid key.
func (c Config) Validate() error {
	var v errs.Checks
	v.Check(c.QuietPeriod <= 0, "quiet_period: must be > 0")
	v.Check(c.MaxTraceAge <= 0, "max_trace_age: must be > 0")
	v.Check(c.MaxTraceAge > 0 && c.QuietPeriod > 0 && c.MaxTraceAge < c.QuietPeriod, "max_trace_age: must be >= quiet_period")
	v.Check(c.MaxLiveTraces <= 0, "max_live_traces: must be > 0")
	v.Check(c.MaxBufferedBytes <= 0, "max_buffered_bytes: must be > 0")
	v.Check(c.MaxSpansPerTrace <= 0, "max_spans_per_trace: must be > 0")
	v.Check(c.MaxAttributeValueBytes < 16, "max_attribute_value_bytes: must be >= 16")
	v.Check(c.Tick <= 0, "tick: must be > 0")
	for i, k := range c.RunAttributes {
		v.Check(k == "", "run_attributes[%d]: must not be empty", i)
	}
	return v.Err()
}
