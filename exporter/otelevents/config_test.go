package otelevents

import (
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/evalsidecar/evalsidecar/internal/configopaque"
)

func TestDefaultConfig(t *testing.T) {
	c := DefaultConfig()
	if err := c.Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
	if c.Enabled || c.Protocol != ProtocolGRPC || c.AllMetrics || !c.Errors || c.serviceName() != "evalsidecar" {
		t.Errorf("unexpected defaults: %+v", c)
	}
}

func TestConfigYAML(t *testing.T) {
	src := `
enabled: true
endpoint: https://otel.example.com:4318/v1/logs
protocol: http/protobuf
tls: {insecure: false, ca_file: /etc/ca.pem}
headers: {authorization: "Bearer x"}
compression: gzip
timeout: 3s
resource_attributes: {service.name: evals, deployment.environment.name: prod}
explanation_max_length: 256
all_metrics: true
errors: false
sending_queue: {queue_size: 100, batch: {max_size: 10}}
`
	c := DefaultConfig()
	if err := yaml.Unmarshal([]byte(src), &c); err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if !c.Enabled || c.Protocol != ProtocolHTTP || c.Headers["authorization"] != "Bearer x" || c.Timeout != 3*time.Second ||
		c.serviceName() != "evals" || c.ExplanationMaxLength != 256 || !c.AllMetrics || c.Errors ||
		c.TLS.CAFile != "/etc/ca.pem" || c.Compression != CompressionGzip ||
		c.SendingQueue.QueueSize != 100 || !c.SendingQueue.Enabled || c.SendingQueue.Batch.MaxSize != 10 {
		t.Errorf("decoded %+v", c)
	}
	r := newResource(c)
	if v, ok := r.Set().Value("service.name"); !ok || v.AsString() != "evals" {
		t.Errorf("resource service.name = %v", v)
	}
	if v, ok := r.Set().Value("deployment.environment.name"); !ok || v.AsString() != "prod" {
		t.Errorf("resource deployment.environment.name = %v", v)
	}
}

func TestConfigValidate(t *testing.T) {
	cases := []struct {
		name string
		mod  func(*Config)
		want string // substring of the error; empty: valid
	}{
		{"host:port", func(c *Config) { c.Endpoint = "collector:4317" }, ""},
		{"URL", func(c *Config) { c.Endpoint = "http://collector:4318" }, ""},
		{"no service.name", func(c *Config) { c.ResourceAttributes = nil }, ""},
		{"zero explanation", func(c *Config) { c.ExplanationMaxLength = 0 }, ""},
		{"protocol", func(c *Config) { c.Protocol = "http/json" }, "protocol"},
		{"endpoint no port", func(c *Config) { c.Endpoint = "collector" }, "endpoint"},
		{"endpoint no host", func(c *Config) { c.Endpoint = ":4317" }, "endpoint"},
		{"endpoint scheme", func(c *Config) { c.Endpoint = "ftp://collector:21" }, "endpoint"},
		{"header name", func(c *Config) { c.Headers = configopaque.Map{"": "x"} }, "headers"},
		{"resource name", func(c *Config) { c.ResourceAttributes = map[string]string{"": "x"} }, "resource_attributes"},
		{"timeout", func(c *Config) { c.Timeout = 0 }, "timeout"},
		{"explanation", func(c *Config) { c.ExplanationMaxLength = -1 }, "explanation_max_length"},
		{"queue", func(c *Config) { c.SendingQueue.QueueSize = 0 }, "sending_queue.queue_size"},
		{"consumers", func(c *Config) { c.SendingQueue.NumConsumers = 0 }, "sending_queue.num_consumers"},
		{"compression", func(c *Config) { c.Compression = "zstd" }, "compression"},
		{"client cert without key", func(c *Config) { c.TLS.CertFile = "c.pem" }, "tls.cert_file, key_file"},
		{"batch zero", func(c *Config) { c.SendingQueue.Batch.MaxSize = 0 }, "sending_queue.batch.max_size"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultConfig()
			tc.mod(&c)
			err := c.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Validate = %v, want nil", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Validate = %v, want an error about %s", err, tc.want)
			}
		})
	}
	c := DefaultConfig()
	c.Protocol, c.Timeout, c.SendingQueue.QueueSize = "x", 0, 0
	if err := c.Validate(); err == nil || strings.Count(err.Error(), "\n") != 2 {
		t.Errorf("Validate should report every invalid key, got %v", err)
	}
}
