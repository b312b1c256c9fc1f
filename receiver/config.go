package receiver

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/configopaque"
	"github.com/evalsidecar/evalsidecar/internal/configtls"
	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/internal/memlimit"
	"github.com/evalsidecar/evalsidecar/internal/queue"
)

// Config configures the OTLP receiver. It is composed by the top-level
// configuration under the "receiver" key.
type Config struct {
	// GRPC configures the OTLP/gRPC server.
	GRPC GRPCConfig `yaml:"grpc"`
	// HTTP configures the OTLP/HTTP server.
	HTTP HTTPConfig `yaml:"http"`
	// Auth configures optional bearer-token authentication on both servers.
	Auth AuthConfig `yaml:"auth"`
	// Forward configures optional asynchronous forwarding of every accepted
	// request to an upstream OTLP endpoint.
	Forward ForwardConfig `yaml:"forward"`
	// MaxAttributeDepth is the deepest attribute value nesting accepted: a
	// scalar has depth 1, an array or map of scalars depth 2, and so on.
	// Spans and log records nested deeper are rejected as partial success.
	MaxAttributeDepth int `yaml:"max_attribute_depth"`
	// DefaultRetryDelay is the retry delay sent with a retryable answer when
	// the cause carries none (draining, unclassified consumer errors).
	DefaultRetryDelay time.Duration `yaml:"default_retry_delay"`
	// MemoryLimiter refuses data (retryable) above a soft memory limit and
	// bounds the request bytes in flight, as the Collector's memory_limiter.
	MemoryLimiter memlimit.Config `yaml:"memory_limiter"`
}

// GRPCConfig configures the OTLP/gRPC server.
type GRPCConfig struct {
	// Enabled turns the gRPC server on.
	Enabled bool `yaml:"enabled"`
	// Endpoint is the host:port to listen on; port 0 picks a free port.
	Endpoint string `yaml:"endpoint"`
	// MaxRecvMsgSizeMiB caps one received message, in MiB; larger
	// messages are answered RESOURCE_EXHAUSTED by gRPC itself.
	MaxRecvMsgSizeMiB int `yaml:"max_recv_msg_size_mib"`
	// TLS enables TLS (and mTLS with client_ca_file) when cert_file is set.
	TLS configtls.ServerConfig `yaml:"tls"`
}

// HTTPConfig configures the OTLP/HTTP server.
type HTTPConfig struct {
	// Enabled turns the HTTP server on.
	Enabled bool `yaml:"enabled"`
	// Endpoint is the host:port to listen on; port 0 picks a free port.
	Endpoint string `yaml:"endpoint"`
	// MaxRequestBodySize caps the request body in bytes, both as sent and
	// after decompression; larger bodies are answered 413.
	MaxRequestBodySize int64 `yaml:"max_request_body_size"`
	// ReadHeaderTimeout bounds reading the request headers.
	ReadHeaderTimeout time.Duration `yaml:"read_header_timeout"`
	// ReadTimeout bounds reading the whole request.
	ReadTimeout time.Duration `yaml:"read_timeout"`
	// WriteTimeout bounds writing the response.
	WriteTimeout time.Duration `yaml:"write_timeout"`
	// IdleTimeout bounds how long an idle keep-alive connection stays open.
	IdleTimeout time.Duration `yaml:"idle_timeout"`
	// MaxHeaderBytes caps the size of the request headers.
	MaxHeaderBytes int64 `yaml:"max_header_bytes"`
	// TLS enables TLS (and mTLS with client_ca_file) when cert_file is set.
	TLS configtls.ServerConfig `yaml:"tls"`
}

// AuthConfig configures bearer-token authentication.
type AuthConfig struct {
	// BearerToken, when non-empty, must be sent by every client as
	// "Authorization: Bearer <token>" (HTTP header or gRPC metadata).
	// The configuration loader expands ${env:NAME} references.
	BearerToken configopaque.String `yaml:"bearer_token"`
}

// ForwardConfig configures forwarding of accepted requests upstream.
type ForwardConfig struct {
	// Endpoint is the upstream: host:port for grpc, a base URL such as
	// http://collector:4318 for http. Empty disables forwarding.
	Endpoint string `yaml:"endpoint"`
	// Protocol is "grpc" or "http".
	Protocol string `yaml:"protocol"`
	// Headers are added to every forwarded request (gRPC metadata or HTTP
	// headers); their values are never logged.
	Headers configopaque.Map `yaml:"headers"`
	// Compression compresses forwarded requests: "gzip" or "none".
	Compression string `yaml:"compression"`
	// Timeout bounds one forwarded request.
	Timeout time.Duration `yaml:"timeout"`
	// SendingQueue holds requests waiting to be forwarded; when it is
	// full further requests are dropped and counted.
	SendingQueue queue.Config `yaml:"sending_queue"`
	// TLS configures the connection to the upstream. For grpc TLS is on
	// unless insecure is set; for http the URL scheme decides.
	TLS configtls.ClientConfig `yaml:"tls"`
}

// Forward compressions.
const (
	CompressionNone = "none"
	CompressionGzip = "gzip"
)

// Forward protocols.
const (
	ProtocolGRPC = "grpc"
	ProtocolHTTP = "http"
)

// DefaultConfig returns the documented defaults: gRPC on 127.0.0.1:4317 with
// a 16 MiB message limit, HTTP on 127.0.0.1:4318 with a 20 MiB body limit,
// no auth, no TLS, no forwarding.
func DefaultConfig() Config {
	return Config{
		GRPC: GRPCConfig{
			Enabled:           true,
			Endpoint:          "127.0.0.1:4317",
			MaxRecvMsgSizeMiB: 16,
			TLS:               configtls.ServerConfig{MinVersion: configtls.DefaultMinVersion},
		},
		HTTP: HTTPConfig{
			Enabled:            true,
			Endpoint:           "127.0.0.1:4318",
			MaxRequestBodySize: 20 << 20,
			ReadHeaderTimeout:  10 * time.Second,
			ReadTimeout:        30 * time.Second,
			WriteTimeout:       30 * time.Second,
			IdleTimeout:        60 * time.Second,
			MaxHeaderBytes:     64 << 10,
			TLS:                configtls.ServerConfig{MinVersion: configtls.DefaultMinVersion},
		},
		Forward: ForwardConfig{
			Protocol:     ProtocolGRPC,
			Compression:  CompressionNone,
			Timeout:      5 * time.Second,
			SendingQueue: queue.Config{Enabled: true, NumConsumers: 4, QueueSize: 1000},
			TLS:          configtls.ClientConfig{MinVersion: configtls.DefaultMinVersion},
		},
		MaxAttributeDepth: 64,
		DefaultRetryDelay: 2 * time.Second,
		MemoryLimiter:     memlimit.DefaultConfig(),
	}
}

// Validate reports every invalid key, each named by its path below the
// receiver's key.
func (c Config) Validate() error {
	var v errs.Checks
	v.Check(!c.GRPC.Enabled && !c.HTTP.Enabled, "grpc.enabled: at least one of grpc and http must be enabled")
	if g := c.GRPC; g.Enabled {
		v.Add(errs.Prefix("grpc.endpoint: ", validateHostPort(g.Endpoint)))
		v.Check(g.MaxRecvMsgSizeMiB <= 0 || g.MaxRecvMsgSizeMiB >= 2048, "grpc.max_recv_msg_size_mib: must be > 0 and < 2048 (2 GiB)")
		v.Add(errs.Prefix("grpc.tls.", g.TLS.Validate()))
	}
	if h := c.HTTP; h.Enabled {
		v.Add(errs.Prefix("http.endpoint: ", validateHostPort(h.Endpoint)))
		v.Check(h.MaxRequestBodySize <= 0, "http.max_request_body_size: must be > 0")
		v.Check(h.ReadHeaderTimeout <= 0, "http.read_header_timeout: must be > 0")
		v.Check(h.ReadTimeout <= 0, "http.read_timeout: must be > 0")
		v.Check(h.WriteTimeout <= 0, "http.write_timeout: must be > 0")
		v.Check(h.IdleTimeout <= 0, "http.idle_timeout: must be > 0")
		v.Check(h.MaxHeaderBytes <= 0 || h.MaxHeaderBytes > 1<<31-1, "http.max_header_bytes: must be > 0 and < 2 GiB")
		v.Add(errs.Prefix("http.tls.", h.TLS.Validate()))
	}
	v.Check(c.MaxAttributeDepth <= 0, "max_attribute_depth: must be > 0")
	v.Check(c.DefaultRetryDelay <= 0, "default_retry_delay: must be > 0")
	v.Add(errs.Prefix("memory_limiter.", c.MemoryLimiter.Validate()))
	if f := c.Forward; f.Endpoint != "" {
		switch f.Protocol {
		case ProtocolGRPC:
			v.Add(errs.Prefix("forward.endpoint: ", validateHostPort(f.Endpoint)))
		case ProtocolHTTP:
			u, err := url.Parse(f.Endpoint)
			v.Check(err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "", "forward.endpoint: must be an http:// or https:// URL for protocol http")
		default:
			v.Check(true, `forward.protocol: must be "grpc" or "http"`)
		}
		v.Check(f.Timeout <= 0, "forward.timeout: must be > 0")
		v.Check(f.Compression != CompressionNone && f.Compression != CompressionGzip, "forward.compression: must be %q or %q, got %q", CompressionGzip, CompressionNone, f.Compression)
		v.Add(errs.Prefix("forward.sending_queue.", f.SendingQueue.Validate()))
		v.Add(errs.Prefix("forward.tls.", f.TLS.Validate()))
	}
	return v.Err()
}

func validateHostPort(s string) error {
	if s == "" {
		return errors.New("must not be empty")
	}
	if _, _, err := net.SplitHostPort(s); err != nil {
		return fmt.Errorf("must be host:port: %w", err)
	}
	return nil
}
