// Package receiver accepts OTLP traces and logs over gRPC and HTTP
// (protobuf and JSON, optionally gzip), validates them, hands the valid part
// to a consumer and answers the client as the OTLP specification asks:
// OK with partial success when some items were invalid, UNAVAILABLE with a
// retry delay when the pipeline is overloaded or draining, INVALID_ARGUMENT
// for undecodable input. It can also forward every accepted request
// unchanged to an upstream OTLP endpoint.
package receiver

import (
	"context"

	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// TracesConsumer takes decoded, validated traces. The traces are not
// accessible after ConsumeTraces returns: an implementation that needs the
// data later must copy what it needs before returning.
//
// The returned error decides the answer to the client: an errs.Refused is
// answered as retryable with its delay, an errs.Permanent error as an
// internal error that must not be retried, and any other error as retryable
// with the receiver's default delay.
type TracesConsumer interface {
	ConsumeTraces(ctx context.Context, td ptrace.Traces) error
}

// LogsConsumer takes decoded, validated logs under the same contract as
// TracesConsumer.
type LogsConsumer interface {
	ConsumeLogs(ctx context.Context, ld plog.Logs) error
}

// TracesConsumerFunc adapts a function to TracesConsumer.
type TracesConsumerFunc func(ctx context.Context, td ptrace.Traces) error

// ConsumeTraces calls f.
func (f TracesConsumerFunc) ConsumeTraces(ctx context.Context, td ptrace.Traces) error {
	return f(ctx, td)
}

// LogsConsumerFunc adapts a function to LogsConsumer.
type LogsConsumerFunc func(ctx context.Context, ld plog.Logs) error

// ConsumeLogs calls f.
func (f LogsConsumerFunc) ConsumeLogs(ctx context.Context, ld plog.Logs) error {
	return f(ctx, ld)
}

var (
	_ TracesConsumer = TracesConsumerFunc(nil)
	_ LogsConsumer   = LogsConsumerFunc(nil)
)
