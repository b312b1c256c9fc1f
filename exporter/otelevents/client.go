package otelevents

import (
	"context"
	"crypto/tls"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/resource"
	"google.golang.org/grpc/credentials"
)

// newOTLPExporter builds the OTLP log exporter cfg describes. No
// connection is made until the first export.
func newOTLPExporter(ctx context.Context, cfg Config) (sdklog.Exporter, error) {
	tc, err := cfg.TLS.LoadTLSConfig()
	if err != nil {
		return nil, fmt.Errorf("otelevents exporter: tls: %w", err)
	}
	var exp sdklog.Exporter
	client := "OTLP/gRPC"
	if cfg.Protocol == ProtocolHTTP {
		client = "OTLP/HTTP"
		exp, err = otlploghttp.New(ctx, otlpOptions[otlploghttp.Option]{
			timeout: otlploghttp.WithTimeout, url: otlploghttp.WithEndpointURL, endpoint: otlploghttp.WithEndpoint,
			insecure: otlploghttp.WithInsecure, tls: otlploghttp.WithTLSClientConfig, headers: otlploghttp.WithHeaders,
			gzip: otlploghttp.WithCompression(otlploghttp.GzipCompression),
		}.build(cfg, tc, "localhost:4318")...)
	} else {
		exp, err = otlploggrpc.New(ctx, otlpOptions[otlploggrpc.Option]{
			timeout: otlploggrpc.WithTimeout, url: otlploggrpc.WithEndpointURL, endpoint: otlploggrpc.WithEndpoint,
			insecure: otlploggrpc.WithInsecure, headers: otlploggrpc.WithHeaders, gzip: otlploggrpc.WithCompressor(CompressionGzip),
			tls: func(c *tls.Config) otlploggrpc.Option { return otlploggrpc.WithTLSCredentials(credentials.NewTLS(c)) },
		}.build(cfg, tc, "localhost:4317")...)
	}
	if err != nil {
		return nil, fmt.Errorf("otelevents exporter: %s client: %w", client, err)
	}
	return exp, nil
}

// otlpOptions are one OTLP client package's option constructors.
type otlpOptions[O any] struct {
	timeout       func(time.Duration) O
	url, endpoint func(string) O
	insecure      func() O
	tls           func(*tls.Config) O
	headers       func(map[string]string) O
	gzip          O
}

// build returns the options cfg asks for. A URL endpoint's scheme decides
// between TLS and plain text; the tls block (tc) configures TLS.
func (o otlpOptions[O]) build(cfg Config, tc *tls.Config, defaultEndpoint string) []O {
	isURL := strings.Contains(cfg.Endpoint, "://")
	opts := []O{o.timeout(cfg.Timeout)}
	switch {
	case isURL:
		opts = append(opts, o.url(cfg.Endpoint))
	case cfg.Endpoint != "":
		opts = append(opts, o.endpoint(cfg.Endpoint))
	default:
		opts = append(opts, o.endpoint(defaultEndpoint))
	}
	switch {
	case tc == nil && !isURL:
		opts = append(opts, o.insecure())
	case tc != nil && !strings.HasPrefix(cfg.Endpoint, "http://"):
		opts = append(opts, o.tls(tc))
	}
	if len(cfg.Headers) > 0 {
		opts = append(opts, o.headers(cfg.Headers.Plain()))
	}
	if cfg.Compression == CompressionGzip {
		opts = append(opts, o.gzip)
	}
	return opts
}

// newResource builds the resource of every record: the configured
// attributes, in key order, with service.name defaulted.
func newResource(cfg Config) *resource.Resource {
	attrs := []attribute.KeyValue{attribute.String("service.name", cfg.serviceName())}
	for _, k := range slices.Sorted(maps.Keys(cfg.ResourceAttributes)) {
		if k != "service.name" {
			attrs = append(attrs, attribute.String(k, cfg.ResourceAttributes[k]))
		}
	}
	return resource.NewSchemaless(attrs...)
}
