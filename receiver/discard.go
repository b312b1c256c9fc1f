package receiver

import (
	"context"

	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// discardTraces is the consumer used when New gets a nil TracesConsumer.
func discardTraces(context.Context, ptrace.Traces) error { return nil }

// discardLogs is the consumer used when New gets a nil LogsConsumer.
func discardLogs(context.Context, plog.Logs) error { return nil }
