package simulator

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	otellog "go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
)

// instrumentationName is the instrumentation scope of the simulator's spans
// and log records.
const instrumentationName = "github.com/evalsidecar/evalsidecar/internal/simulator"

// exportDelay is how long finished spans and log records wait before they
// are exported in a batch; short, so a demo shows results quickly.
const exportDelay = 500 * time.Millisecond

// pipeline is one release's TracerProvider (and LoggerProvider in event
// form) with their OTLP exporters. service.version is a resource attribute,
// so a release change needs a new pipeline.
type pipeline struct {
	release  string
	tp       *sdktrace.TracerProvider
	lp       *sdklog.LoggerProvider // nil unless event form
	tracer   trace.Tracer
	logger   otellog.Logger // nil unless event form
	inflight sync.WaitGroup // runs emitting through this pipeline
}

func newPipeline(ctx context.Context, cfg *Config, release string) (*pipeline, error) {
	res := resource.NewWithAttributes(semconv.SchemaURL,
		semconv.ServiceName(cfg.Service),
		semconv.ServiceVersion(release),
		semconv.DeploymentEnvironmentNameKey.String(cfg.Environment),
	)
	spanExp, err := newSpanExporter(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("span exporter: %w", err)
	}
	p := &pipeline{release: release}
	p.tp = sdktrace.NewTracerProvider(
		sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.AlwaysSample()),
		sdktrace.WithBatcher(spanExp, sdktrace.WithBatchTimeout(exportDelay)),
	)
	p.tracer = p.tp.Tracer(instrumentationName, trace.WithSchemaURL(semconv.SchemaURL))
	if cfg.EventForm {
		logExp, err := newLogExporter(ctx, cfg)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("log exporter: %w", err), p.tp.Shutdown(ctx))
		}
		p.lp = sdklog.NewLoggerProvider(
			sdklog.WithResource(res),
			sdklog.WithProcessor(sdklog.NewBatchProcessor(logExp, sdklog.WithExportInterval(exportDelay))),
		)
		p.logger = p.lp.Logger(instrumentationName, otellog.WithSchemaURL(semconv.SchemaURL))
	}
	return p, nil
}

func newSpanExporter(ctx context.Context, cfg *Config) (sdktrace.SpanExporter, error) {
	if cfg.Protocol == ProtocolHTTP {
		return otlptracehttp.New(ctx,
			otlptracehttp.WithEndpoint(cfg.Endpoint),
			otlptracehttp.WithInsecure(),
			otlptracehttp.WithHeaders(cfg.Headers),
		)
	}
	return otlptracegrpc.New(ctx,
		otlptracegrpc.WithEndpoint(cfg.Endpoint),
		otlptracegrpc.WithInsecure(),
		otlptracegrpc.WithHeaders(cfg.Headers),
	)
}

func newLogExporter(ctx context.Context, cfg *Config) (sdklog.Exporter, error) {
	if cfg.Protocol == ProtocolHTTP {
		return otlploghttp.New(ctx,
			otlploghttp.WithEndpoint(cfg.Endpoint),
			otlploghttp.WithInsecure(),
			otlploghttp.WithHeaders(cfg.Headers),
		)
	}
	return otlploggrpc.New(ctx,
		otlploggrpc.WithEndpoint(cfg.Endpoint),
		otlploggrpc.WithInsecure(),
		otlploggrpc.WithHeaders(cfg.Headers),
	)
}

// shutdown flushes and stops the providers and their exporters.
func (p *pipeline) shutdown(ctx context.Context) error {
	err := p.tp.Shutdown(ctx)
	if p.lp != nil {
		err = errors.Join(err, p.lp.Shutdown(ctx))
	}
	return err
}
