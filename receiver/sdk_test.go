package receiver

import (
	"context"
	"slices"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	otellog "go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// emitSpans sends names as spans through a real SDK exporter and shuts the
// provider down, which flushes synchronously.
func emitSpans(t *testing.T, exp sdktrace.SpanExporter, names ...string) error {
	t.Helper()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	ctx := context.Background()
	tr := tp.Tracer("evalsidecar-test")
	for _, n := range names {
		_, sp := tr.Start(ctx, n)
		sp.End()
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return tp.Shutdown(ctx)
}

// emitLogs sends bodies as log records through a real SDK exporter.
func emitLogs(t *testing.T, exp sdklog.Exporter, bodies ...string) error {
	t.Helper()
	lp := sdklog.NewLoggerProvider(sdklog.WithProcessor(sdklog.NewSimpleProcessor(exp)))
	ctx := context.Background()
	lg := lp.Logger("evalsidecar-test")
	for _, b := range bodies {
		var rec otellog.Record
		rec.SetBody(attribute.StringValue(b))
		rec.SetEventName("gen_ai.user.message")
		lg.Emit(ctx, rec)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return lp.Shutdown(ctx)
}

func TestSDKExporters(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		logs   bool
		export func(t *testing.T, r *Receiver) error
	}{
		{"otlptracegrpc", false, func(t *testing.T, r *Receiver) error {
			exp, err := otlptracegrpc.New(ctx, otlptracegrpc.WithEndpoint(r.GRPCAddr()), otlptracegrpc.WithInsecure())
			if err != nil {
				return err
			}
			return emitSpans(t, exp, "plan", "call_tool", "answer")
		}},
		{"otlptracegrpc gzip", false, func(t *testing.T, r *Receiver) error {
			exp, err := otlptracegrpc.New(ctx, otlptracegrpc.WithEndpoint(r.GRPCAddr()), otlptracegrpc.WithInsecure(),
				otlptracegrpc.WithCompressor("gzip"))
			if err != nil {
				return err
			}
			return emitSpans(t, exp, "plan", "call_tool", "answer")
		}},
		{"otlptracehttp", false, func(t *testing.T, r *Receiver) error {
			exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpoint(r.HTTPAddr()), otlptracehttp.WithInsecure())
			if err != nil {
				return err
			}
			return emitSpans(t, exp, "plan", "call_tool", "answer")
		}},
		{"otlptracehttp gzip", false, func(t *testing.T, r *Receiver) error {
			exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpoint(r.HTTPAddr()), otlptracehttp.WithInsecure(),
				otlptracehttp.WithCompression(otlptracehttp.GzipCompression))
			if err != nil {
				return err
			}
			return emitSpans(t, exp, "plan", "call_tool", "answer")
		}},
		{"otlploggrpc", true, func(t *testing.T, r *Receiver) error {
			exp, err := otlploggrpc.New(ctx, otlploggrpc.WithEndpoint(r.GRPCAddr()), otlploggrpc.WithInsecure())
			if err != nil {
				return err
			}
			return emitLogs(t, exp, "hello", "world")
		}},
		{"otlploghttp", true, func(t *testing.T, r *Receiver) error {
			exp, err := otlploghttp.New(ctx, otlploghttp.WithEndpoint(r.HTTPAddr()), otlploghttp.WithInsecure())
			if err != nil {
				return err
			}
			return emitLogs(t, exp, "hello", "world")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := &sink{}
			r, _ := startReceiver(t, testConfig(), s)
			if err := tc.export(t, r); err != nil {
				t.Fatalf("export: %v", err)
			}
			if tc.logs {
				got := s.logBodies()
				if !slices.Equal(got, []string{"hello", "world"}) {
					t.Errorf("consumer got log bodies %q", got)
				}
				return
			}
			got := s.spanNames()
			slices.Sort(got)
			if !slices.Equal(got, []string{"answer", "call_tool", "plan"}) {
				t.Errorf("consumer got spans %q", got)
			}
		})
	}
}
