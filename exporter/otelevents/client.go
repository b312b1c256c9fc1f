package otelevents

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

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
	// A URL's scheme decides between TLS and plain text; the tls block
	// configures TLS.
	isURL := strings.Contains(cfg.Endpoint, "://")
	plainURL := strings.HasPrefix(cfg.Endpoint, "http://")
	tc, err := cfg.TLS.LoadTLSConfig()
	if err != nil {
		return nil, fmt.Errorf("otelevents exporter: tls: %w", err)
	}
	switch cfg.Protocol {
	case ProtocolHTTP:
		opts := []otlploghttp.Option{otlploghttp.WithTimeout(cfg.Timeout)}
		switch {
		case isURL:
			opts = append(opts, otlploghttp.WithEndpointURL(cfg.Endpoint))
		case cfg.Endpoint != "":
			opts = append(opts, otlploghttp.WithEndpoint(cfg.Endpoint))
		default:
			opts = append(opts, otlploghttp.WithEndpoint("localhost:4318"))
		}
		switch {
		case tc == nil && !isURL:
			opts = append(opts, otlploghttp.WithInsecure())
		case tc != nil && !plainURL:
			opts = append(opts, otlploghttp.WithTLSClientConfig(tc))
		}
		if len(cfg.Headers) > 0 {
			opts = append(opts, otlploghttp.WithHeaders(cfg.Headers.Plain()))
		}
		if cfg.Compression == CompressionGzip {
			opts = append(opts, otlploghttp.WithCompression(otlploghttp.GzipCompression))
		}
		exp, err := otlploghttp.New(ctx, opts...)
		if err != nil {
			return nil, fmt.Errorf("otelevents exporter: OTLP/HTTP client: %w", err)
		}
		return exp, nil
	default:
		opts := []otlploggrpc.Option{otlploggrpc.WithTimeout(cfg.Timeout)}
		switch {
		case isURL:
			opts = append(opts, otlploggrpc.WithEndpointURL(cfg.Endpoint))
		case cfg.Endpoint != "":
			opts = append(opts, otlploggrpc.WithEndpoint(cfg.Endpoint))
		default:
			opts = append(opts, otlploggrpc.WithEndpoint("localhost:4317"))
		}
		switch {
		case tc == nil && !isURL:
			opts = append(opts, otlploggrpc.WithInsecure())
		case tc != nil && !plainURL:
			opts = append(opts, otlploggrpc.WithTLSCredentials(credentials.NewTLS(tc)))
		}
		if len(cfg.Headers) > 0 {
			opts = append(opts, otlploggrpc.WithHeaders(cfg.Headers.Plain()))
		}
		if cfg.Compression == CompressionGzip {
			opts = append(opts, otlploggrpc.WithCompressor(CompressionGzip))
		}
		exp, err := otlploggrpc.New(ctx, opts...)
		if err != nil {
			return nil, fmt.Errorf("otelevents exporter: OTLP/gRPC client: %w", err)
		}
		return exp, nil
	}
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
