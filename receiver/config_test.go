package receiver

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"gopkg.in/yaml.v3"

	"github.com/evalsidecar/evalsidecar/internal/configtls"
)

func TestDefaultConfigIsValid(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestConfigValidate(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(*Config)
		want   string // substring naming the key; empty = valid
	}{
		{"both protocols off", func(c *Config) { c.GRPC.Enabled, c.HTTP.Enabled = false, false }, "grpc.enabled:"},
		{"grpc only", func(c *Config) { c.HTTP.Enabled = false; c.HTTP.Endpoint = "" }, ""},
		{"bad grpc endpoint", func(c *Config) { c.GRPC.Endpoint = "4317" }, "grpc.endpoint:"},
		{"zero recv size", func(c *Config) { c.GRPC.MaxRecvMsgSizeMiB = 0 }, "grpc.max_recv_msg_size_mib: must be > 0"},
		{"recv size of 2 GiB", func(c *Config) { c.GRPC.MaxRecvMsgSizeMiB = 2048 }, "grpc.max_recv_msg_size_mib: must be > 0 and < 2048"},
		{"zero body size", func(c *Config) { c.HTTP.MaxRequestBodySize = 0 }, "http.max_request_body_size: must be > 0"},
		{"zero read header timeout", func(c *Config) { c.HTTP.ReadHeaderTimeout = 0 }, "http.read_header_timeout: must be > 0"},
		{"zero idle timeout", func(c *Config) { c.HTTP.IdleTimeout = 0 }, "http.idle_timeout: must be > 0"},
		{"zero header bytes", func(c *Config) { c.HTTP.MaxHeaderBytes = 0 }, "http.max_header_bytes:"},
		{"key without cert", func(c *Config) { c.HTTP.TLS.KeyFile = "k.pem" }, "http.tls.cert_file: required"},
		{"cert without key", func(c *Config) { c.GRPC.TLS.CertFile = "c.pem" }, "grpc.tls.key_file: required"},
		{"tls 1.1", func(c *Config) { c.GRPC.TLS = configtls.ServerConfig{CertFile: "c", KeyFile: "k", MinVersion: "1.1"} }, "grpc.tls.min_version:"},
		{"zero depth", func(c *Config) { c.MaxAttributeDepth = 0 }, "max_attribute_depth: must be > 0"},
		{"zero retry delay", func(c *Config) { c.DefaultRetryDelay = 0 }, "default_retry_delay: must be > 0"},
		{"forward bad protocol", func(c *Config) { c.Forward.Endpoint, c.Forward.Protocol = "up:4317", "kafka" }, "forward.protocol:"},
		{"forward http needs url", func(c *Config) { c.Forward.Endpoint, c.Forward.Protocol = "up:4318", "http" }, "forward.endpoint:"},
		{"forward zero queue", func(c *Config) { c.Forward.Endpoint = "up:4317"; c.Forward.SendingQueue.QueueSize = 0 }, "forward.sending_queue.queue_size: must be > 0"},
		{"forward zero consumers", func(c *Config) { c.Forward.Endpoint = "up:4317"; c.Forward.SendingQueue.NumConsumers = 0 }, "forward.sending_queue.num_consumers: must be > 0"},
		{"forward zero timeout", func(c *Config) { c.Forward.Endpoint = "up:4317"; c.Forward.Timeout = 0 }, "forward.timeout: must be > 0"},
		{"forward bad compression", func(c *Config) { c.Forward.Endpoint = "up:4317"; c.Forward.Compression = "lz4" }, "forward.compression:"},
		{"forward client cert without key", func(c *Config) { c.Forward.Endpoint = "up:4317"; c.Forward.TLS.CertFile = "c.pem" }, "forward.tls.cert_file, key_file"},
		{"forward off ignores its other keys", func(c *Config) { c.Forward.SendingQueue.QueueSize = 0 }, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			tc.mutate(&cfg)
			err := cfg.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestConfigYAML(t *testing.T) {
	cfg := DefaultConfig()
	if err := yaml.Unmarshal([]byte(readFixture(t, "config.yaml")), &cfg); err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if cfg.GRPC.Endpoint != "0.0.0.0:14317" || cfg.HTTP.ReadTimeout != 5*time.Second ||
		cfg.HTTP.MaxRequestBodySize != 1048576 || cfg.Auth.BearerToken != "tok" ||
		cfg.Forward.Protocol != "http" || cfg.Forward.Headers["x-tenant"] != "a" || cfg.MaxAttributeDepth != 32 {
		t.Errorf("decoded config = %+v", cfg)
	}
	// Keys left out keep their defaults.
	if cfg.HTTP.IdleTimeout != 60*time.Second || cfg.Forward.SendingQueue.QueueSize != 1000 {
		t.Errorf("defaults lost: idle %v queue %d", cfg.HTTP.IdleTimeout, cfg.Forward.SendingQueue.QueueSize)
	}
}

func TestNewRejectsInvalidConfig(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxAttributeDepth = -1
	if _, err := New(cfg, telemetry.Settings{}, nil, nil); err == nil || !strings.Contains(err.Error(), "max_attribute_depth") {
		t.Fatalf("New error = %v", err)
	}
}

func TestHTTPServerLimitsFromConfig(t *testing.T) {
	cfg := testConfig()
	cfg.HTTP.ReadHeaderTimeout, cfg.HTTP.ReadTimeout = 3*time.Second, 4*time.Second
	cfg.HTTP.WriteTimeout, cfg.HTTP.IdleTimeout = 5*time.Second, 6*time.Second
	cfg.HTTP.MaxHeaderBytes = 4096
	r, _ := startReceiver(t, cfg, &sink{})
	r.mu.Lock()
	srv := r.httpServer
	r.mu.Unlock()
	if srv.ReadHeaderTimeout != 3*time.Second || srv.ReadTimeout != 4*time.Second ||
		srv.WriteTimeout != 5*time.Second || srv.IdleTimeout != 6*time.Second || srv.MaxHeaderBytes != 4096 {
		t.Errorf("server limits = %v %v %v %v %d", srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout, srv.IdleTimeout, srv.MaxHeaderBytes)
	}
	body, _ := tracesRequest(validSpan("a")).MarshalProto()
	hdr := http.Header{"X-Padding": {strings.Repeat("p", 16<<10)}}
	req, _ := http.NewRequest(http.MethodPost, "http://"+r.HTTPAddr()+tracesPath, bytes.NewReader(body))
	req.Header = hdr
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("oversized headers: status %d, want 431", resp.StatusCode)
	}
}
