package receiver

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"
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
}

// GRPCConfig configures the OTLP/gRPC server.
type GRPCConfig struct {
	// Enabled turns the gRPC server on.
	Enabled bool `yaml:"enabled"`
	// Endpoint is the host:port to listen on; port 0 picks a free port.
	Endpoint string `yaml:"endpoint"`
	// MaxRecvMsgBytes caps one received message; larger messages are
	// answered RESOURCE_EXHAUSTED by gRPC itself.
	MaxRecvMsgBytes int64 `yaml:"max_recv_msg_bytes"`
	// TLS enables TLS (and mTLS with client_ca_file) when cert_file is set.
	TLS TLSConfig `yaml:"tls"`
}

// HTTPConfig configures the OTLP/HTTP server.
type HTTPConfig struct {
	// Enabled turns the HTTP server on.
	Enabled bool `yaml:"enabled"`
	// Endpoint is the host:port to listen on; port 0 picks a free port.
	Endpoint string `yaml:"endpoint"`
	// MaxRequestBodyBytes caps the request body, both as sent and after
	// decompression; larger bodies are answered 413.
	MaxRequestBodyBytes int64 `yaml:"max_request_body_bytes"`
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
	TLS TLSConfig `yaml:"tls"`
}

// TLSConfig configures server-side TLS. TLS is off while CertFile is empty.
type TLSConfig struct {
	// CertFile is the PEM server certificate (chain).
	CertFile string `yaml:"cert_file"`
	// KeyFile is the PEM private key of CertFile.
	KeyFile string `yaml:"key_file"`
	// ClientCAFile, when set, requires clients to present a certificate
	// signed by one of these PEM CAs (mTLS).
	ClientCAFile string `yaml:"client_ca_file"`
	// MinVersion is the lowest TLS version accepted: "1.2" or "1.3".
	MinVersion string `yaml:"min_version"`
}

// Enabled reports whether TLS is configured.
func (c TLSConfig) Enabled() bool { return c.CertFile != "" }

// AuthConfig configures bearer-token authentication.
type AuthConfig struct {
	// BearerToken, when non-empty, must be sent by every client as
	// "Authorization: Bearer <token>" (HTTP header or gRPC metadata).
	// The configuration loader expands ${env:NAME} references.
	BearerToken string `yaml:"bearer_token"`
}

// ForwardConfig configures forwarding of accepted requests upstream.
type ForwardConfig struct {
	// Endpoint is the upstream: host:port for grpc, a base URL such as
	// http://collector:4318 for http. Empty disables forwarding.
	Endpoint string `yaml:"endpoint"`
	// Protocol is "grpc" or "http".
	Protocol string `yaml:"protocol"`
	// Headers are added to every forwarded request (gRPC metadata or HTTP
	// headers).
	Headers map[string]string `yaml:"headers"`
	// Timeout bounds one forwarded request.
	Timeout time.Duration `yaml:"timeout"`
	// QueueSize is the number of requests that may wait for a worker; when
	// the queue is full further requests are dropped and counted.
	QueueSize int `yaml:"queue_size"`
	// Workers is the number of concurrent senders.
	Workers int `yaml:"workers"`
	// TLS configures the connection to the upstream.
	TLS ForwardTLSConfig `yaml:"tls"`
}

// ForwardTLSConfig configures client-side TLS for forwarding.
type ForwardTLSConfig struct {
	// Enabled uses TLS for grpc; for http the URL scheme decides.
	Enabled bool `yaml:"enabled"`
	// CAFile is a PEM bundle used to verify the upstream instead of the
	// system roots.
	CAFile string `yaml:"ca_file"`
	// InsecureSkipVerify disables certificate verification (testing only).
	InsecureSkipVerify bool `yaml:"insecure_skip_verify"`
}

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
			Enabled:         true,
			Endpoint:        "127.0.0.1:4317",
			MaxRecvMsgBytes: 16 << 20,
			TLS:             TLSConfig{MinVersion: "1.2"},
		},
		HTTP: HTTPConfig{
			Enabled:             true,
			Endpoint:            "127.0.0.1:4318",
			MaxRequestBodyBytes: 20 << 20,
			ReadHeaderTimeout:   10 * time.Second,
			ReadTimeout:         30 * time.Second,
			WriteTimeout:        30 * time.Second,
			IdleTimeout:         60 * time.Second,
			MaxHeaderBytes:      64 << 10,
			TLS:                 TLSConfig{MinVersion: "1.2"},
		},
		Forward: ForwardConfig{
			Protocol:  ProtocolGRPC,
			Timeout:   5 * time.Second,
			QueueSize: 1000,
			Workers:   4,
		},
		MaxAttributeDepth: 64,
		DefaultRetryDelay: 2 * time.Second,
	}
}

// Validate reports every invalid key, each named by its path below the
// receiver's key.
func (c Config) Validate() error {
	var errs []error
	bad := func(key, msg string) { errs = append(errs, fmt.Errorf("%s: %s", key, msg)) }

	if !c.GRPC.Enabled && !c.HTTP.Enabled {
		bad("grpc.enabled", "at least one of grpc and http must be enabled")
	}
	if c.GRPC.Enabled {
		if err := validateHostPort(c.GRPC.Endpoint); err != nil {
			bad("grpc.endpoint", err.Error())
		}
		if c.GRPC.MaxRecvMsgBytes <= 0 || c.GRPC.MaxRecvMsgBytes > 1<<31-1 {
			bad("grpc.max_recv_msg_bytes", "must be > 0 and < 2 GiB")
		}
		errs = append(errs, c.GRPC.TLS.validate("grpc.tls")...)
	}
	if c.HTTP.Enabled {
		if err := validateHostPort(c.HTTP.Endpoint); err != nil {
			bad("http.endpoint", err.Error())
		}
		if c.HTTP.MaxRequestBodyBytes <= 0 {
			bad("http.max_request_body_bytes", "must be > 0")
		}
		for _, t := range []struct {
			key string
			d   time.Duration
		}{
			{"http.read_header_timeout", c.HTTP.ReadHeaderTimeout},
			{"http.read_timeout", c.HTTP.ReadTimeout},
			{"http.write_timeout", c.HTTP.WriteTimeout},
			{"http.idle_timeout", c.HTTP.IdleTimeout},
		} {
			if t.d <= 0 {
				bad(t.key, "must be > 0")
			}
		}
		if c.HTTP.MaxHeaderBytes <= 0 || c.HTTP.MaxHeaderBytes > 1<<31-1 {
			bad("http.max_header_bytes", "must be > 0 and < 2 GiB")
		}
		errs = append(errs, c.HTTP.TLS.validate("http.tls")...)
	}
	if c.MaxAttributeDepth <= 0 {
		bad("max_attribute_depth", "must be > 0")
	}
	if c.DefaultRetryDelay <= 0 {
		bad("default_retry_delay", "must be > 0")
	}
	if c.Forward.Endpoint != "" {
		f := c.Forward
		switch f.Protocol {
		case ProtocolGRPC:
			if err := validateHostPort(f.Endpoint); err != nil {
				bad("forward.endpoint", err.Error())
			}
		case ProtocolHTTP:
			u, err := url.Parse(f.Endpoint)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				bad("forward.endpoint", "must be an http:// or https:// URL for protocol http")
			}
		default:
			bad("forward.protocol", `must be "grpc" or "http"`)
		}
		if f.Timeout <= 0 {
			bad("forward.timeout", "must be > 0")
		}
		if f.QueueSize <= 0 {
			bad("forward.queue_size", "must be > 0")
		}
		if f.Workers <= 0 {
			bad("forward.workers", "must be > 0")
		}
	}
	return errors.Join(errs...)
}

func (c TLSConfig) validate(prefix string) []error {
	var errs []error
	if c.CertFile == "" {
		if c.KeyFile != "" || c.ClientCAFile != "" {
			errs = append(errs, fmt.Errorf("%s.cert_file: required when key_file or client_ca_file is set", prefix))
		}
		return errs
	}
	if c.KeyFile == "" {
		errs = append(errs, fmt.Errorf("%s.key_file: required when cert_file is set", prefix))
	}
	if _, err := tlsVersion(c.MinVersion); err != nil {
		errs = append(errs, fmt.Errorf("%s.min_version: %w", prefix, err))
	}
	return errs
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
