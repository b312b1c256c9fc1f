// Package otelevents writes judged scores back into OpenTelemetry: each
// score becomes a gen_ai.evaluation.result log event, as the OpenTelemetry
// GenAI semantic conventions define it, tied to the evaluated run's trace
// and root span so that trace UIs show it beside the run. Events are sent
// with the OpenTelemetry log SDK over OTLP (gRPC or HTTP/protobuf) through
// a bounded batch queue: exporting never blocks scoring, and every record
// that cannot be sent is counted as dropped.
package otelevents

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/configopaque"
	"github.com/evalsidecar/evalsidecar/internal/configtls"
	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/internal/queue"
)

// OTLP protocols.
const (
	ProtocolGRPC = "grpc"
	ProtocolHTTP = "http/protobuf"
)

// Compressions of export requests.
const (
	CompressionNone = "none"
	CompressionGzip = "gzip"
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
	// TLS configures the connection; insecure: true sends without TLS.
	// A URL endpoint's scheme (http or https) decides instead.
	TLS configtls.ClientConfig `yaml:"tls"`
	// Headers are sent with every export request (for example an API
	// key); their values are never logged.
	Headers configopaque.Map `yaml:"headers"`
	// Compression compresses export requests: "gzip" or "none".
	Compression string `yaml:"compression"`
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
	// SendingQueue holds events waiting to be sent and being sent; its
	// queue_size is in events. When it is full, new events are dropped and
	// counted.
	SendingQueue QueueConfig `yaml:"sending_queue"`
}

// QueueConfig is the sending_queue block with the Collector's batch
// setting: a free consumer sends whatever is queued, up to
// batch.max_size events, in one request.
type QueueConfig struct {
	queue.Config `yaml:",inline"`
	Batch        BatchConfig `yaml:"batch"`
}

// BatchConfig bounds the events of one export request.
type BatchConfig struct {
	// MaxSize is the most events sent in one request.
	MaxSize int `yaml:"max_size"`
}

// DefaultServiceName is the default resource service.name.
const DefaultServiceName = "evalsidecar"

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		Enabled:              false,
		Protocol:             ProtocolGRPC,
		TLS:                  configtls.ClientConfig{MinVersion: configtls.DefaultMinVersion},
		Compression:          CompressionNone,
		Timeout:              10 * time.Second,
		ResourceAttributes:   map[string]string{"service.name": DefaultServiceName},
		ExplanationMaxLength: 1024,
		Errors:               true,
		SendingQueue: QueueConfig{
			Config: queue.Config{Enabled: true, NumConsumers: 1, QueueSize: 2048},
			Batch:  BatchConfig{MaxSize: 512},
		},
	}
}

// Validate reports every invalid key.
func (c Config) Validate() error {
	var v errs.Checks
	v.Check(!slices.Contains([]string{ProtocolGRPC, ProtocolHTTP}, c.Protocol), "protocol: must be %q or %q, got %q", ProtocolGRPC, ProtocolHTTP, c.Protocol)
	v.Add(errs.Prefix("endpoint: ", validateEndpoint(c.Endpoint)))
	v.Add(errs.Prefix("tls.", c.TLS.Validate()))
	_, emptyHeader := c.Headers[""]
	v.Check(emptyHeader, "headers: empty header name")
	v.Check(c.Compression != CompressionNone && c.Compression != CompressionGzip, "compression: must be %q or %q, got %q", CompressionGzip, CompressionNone, c.Compression)
	_, emptyAttr := c.ResourceAttributes[""]
	v.Check(emptyAttr, "resource_attributes: empty attribute name")
	v.Check(c.Timeout <= 0, "timeout: must be > 0, got %s", c.Timeout)
	v.Check(c.ExplanationMaxLength < 0, "explanation_max_length: must be >= 0, got %d", c.ExplanationMaxLength)
	v.Add(errs.Prefix("sending_queue.", c.SendingQueue.Validate()))
	v.Check(c.SendingQueue.Batch.MaxSize <= 0, "sending_queue.batch.max_size: must be > 0, got %d", c.SendingQueue.Batch.MaxSize)
	return v.Err()
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
