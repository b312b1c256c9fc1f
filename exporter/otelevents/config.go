// Package otelevents writes judged scores back into OpenTelemetry: each
// score becomes a gen_ai.evaluation.result log event, as the OpenTelemetry
// GenAI semantic conventions define it, tied to the evaluated run's trace
// and root span so that trace UIs show it beside the run. Events are sent
// with the OpenTelemetry log SDK over OTLP (gRPC or HTTP/protobuf) through
// a bounded batch queue: exporting never blocks scoring, and every record
// that cannot be sent is counted as dropped.
package otelevents

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"time"
)

// OTLP protocols.
const (
	ProtocolGRPC = "grpc"
	ProtocolHTTP = "http/protobuf"
)

// Config configures the gen_ai.evaluation.result exporter.
type Config struct {
	// Enabled turns the exporter on.
	Enabled bool `yaml:"enabled"`
	// Endpoint is the OTLP logs endpoint: host:port, or a URL
	// (http://host:4318/v1/logs). Empty: localhost:4317 for gRPC,
	// localhost:4318 for HTTP.
	Endpoint string `yaml:"endpoint"`
	// Protocol is "grpc" or "http/protobuf".
	Protocol string `yaml:"protocol"`
	// Insecure sends without TLS.
	Insecure bool `yaml:"insecure"`
	// Headers are sent with every export request (for example an API key).
	Headers map[string]string `yaml:"headers"`
	// Timeout bounds one export request, retries included.
	Timeout time.Duration `yaml:"timeout"`
	// ResourceAttributes describe the emitting service; service.name
	// defaults to "evalsidecar".
	ResourceAttributes map[string]string `yaml:"resource_attributes"`
	// ExplanationMaxLength is the longest explanation sent, in bytes;
	// longer ones are cut at a character boundary. 0 sends none.
	ExplanationMaxLength int `yaml:"explanation_max_length"`
	// AllMetrics also emits the scores of deterministic metrics; by
	// default only scores an LLM judge produced are emitted.
	AllMetrics bool `yaml:"all_metrics"`
	// Errors emits an event with error.type (the failure reason: "error",
	// "timeout", ...) and no score for each metric that failed; failures
	// of the built-in default metrics only with AllMetrics.
	Errors bool `yaml:"errors"`
	// QueueSize is how many events may wait to be sent; when full, new
	// events are dropped and counted.
	QueueSize int `yaml:"queue_size"`
	// BatchSize is the most events sent in one request.
	BatchSize int `yaml:"batch_size"`
	// ExportInterval is how often queued events are sent.
	ExportInterval time.Duration `yaml:"export_interval"`
}

// DefaultServiceName is the default resource service.name.
const DefaultServiceName = "evalsidecar"

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		Enabled:              false,
		Protocol:             ProtocolGRPC,
		Timeout:              10 * time.Second,
		ResourceAttributes:   map[string]string{"service.name": DefaultServiceName},
		ExplanationMaxLength: 1024,
		Errors:               true,
		QueueSize:            2048,
		BatchSize:            512,
		ExportInterval:       time.Second,
	}
}

// Validate reports every invalid key.
func (c Config) Validate() error {
	var errs []error
	if !slices.Contains([]string{ProtocolGRPC, ProtocolHTTP}, c.Protocol) {
		errs = append(errs, fmt.Errorf("protocol: must be %q or %q, got %q", ProtocolGRPC, ProtocolHTTP, c.Protocol))
	}
	if err := validateEndpoint(c.Endpoint); err != nil {
		errs = append(errs, fmt.Errorf("endpoint: %w", err))
	}
	for k := range c.Headers {
		if k == "" {
			errs = append(errs, errors.New("headers: empty header name"))
		}
	}
	for k := range c.ResourceAttributes {
		if k == "" {
			errs = append(errs, errors.New("resource_attributes: empty attribute name"))
		}
	}
	if c.Timeout <= 0 {
		errs = append(errs, fmt.Errorf("timeout: must be > 0, got %s", c.Timeout))
	}
	if c.ExplanationMaxLength < 0 {
		errs = append(errs, fmt.Errorf("explanation_max_length: must be >= 0, got %d", c.ExplanationMaxLength))
	}
	if c.QueueSize <= 0 {
		errs = append(errs, fmt.Errorf("queue_size: must be > 0, got %d", c.QueueSize))
	}
	if c.BatchSize <= 0 || c.QueueSize > 0 && c.BatchSize > c.QueueSize {
		errs = append(errs, fmt.Errorf("batch_size: must be between 1 and queue_size (%d), got %d", c.QueueSize, c.BatchSize))
	}
	if c.ExportInterval <= 0 {
		errs = append(errs, fmt.Errorf("export_interval: must be > 0, got %s", c.ExportInterval))
	}
	return errors.Join(errs...)
}

// validateEndpoint accepts "", host:port, or an http(s) URL with a host.
func validateEndpoint(e string) error {
	if e == "" {
		return nil
	}
	if u, err := url.Parse(e); err == nil && u.Scheme != "" && u.Host != "" {
		if u.Scheme != "http" && u.Scheme != "https" {
			return fmt.Errorf("URL scheme must be http or https, got %q", u.Scheme)
		}
		return nil
	}
	host, port, err := net.SplitHostPort(e)
	if err != nil {
		return fmt.Errorf("must be host:port or an http(s) URL, got %q", e)
	}
	if host == "" || port == "" {
		return fmt.Errorf("must name a host and a port, got %q", e)
	}
	return nil
}

// serviceName returns the configured service.name or the default.
func (c Config) serviceName() string {
	if s := c.ResourceAttributes["service.name"]; s != "" {
		return s
	}
	return DefaultServiceName
}
