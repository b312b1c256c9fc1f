package pipeline

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	sdkresource "go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/evalsidecar/evalsidecar/internal/config"
)

// startOnline builds and starts an online pipeline from cfg, with opts'
// Online set. The returned context ends after a minute or with the test.
func startOnline(t *testing.T, cfg config.Config, opts Options) (*Pipeline, context.Context) {
	t.Helper()
	opts.Online = true
	p, err := New(cfg, slog.New(slog.DiscardHandler), opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	if err := p.Start(ctx); err != nil {
		t.Fatal(err)
	}
	return p, ctx
}

// sdkTracerProvider returns a real OTel SDK tracer provider that exports
// every span synchronously over OTLP/gRPC to p's receiver, as service
// with the further resource attributes res (service.version, ...).
func sdkTracerProvider(t *testing.T, ctx context.Context, p *Pipeline, service string, res ...attribute.KeyValue) *sdktrace.TracerProvider {
	t.Helper()
	exp, err := otlptracegrpc.New(ctx, otlptracegrpc.WithEndpoint(p.Receiver.GRPCAddr()), otlptracegrpc.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	return sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp),
		sdktrace.WithResource(sdkresource.NewSchemaless(append(res, attribute.String("service.name", service))...)))
}
