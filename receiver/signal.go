package receiver

import (
	"context"

	"github.com/evalsidecar/evalsidecar/receiver/internal/nesting"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// exportRequest is what the receiver needs of a pdata OTLP export request.
type exportRequest interface {
	MarshalProto() ([]byte, error)
	UnmarshalProto(data []byte) error
	UnmarshalJSON(data []byte) error
}

// exportResponse is what the receiver needs of a pdata OTLP export response.
type exportResponse interface {
	MarshalProto() ([]byte, error)
	MarshalJSON() ([]byte, error)
}

// signal is one OTLP signal (traces or logs) as the receiver handles it:
// the functions that differ between signals, so that one piece of code
// decodes, validates, consumes, forwards and answers both. Req and Resp are
// the signal's pdata export request and response.
type signal[Req exportRequest, Resp exportResponse] struct {
	r    *Receiver
	name string       // signal label: signalTraces or signalLogs
	unit string       // what the items are called in partial-success messages
	root nesting.Kind // the request message, for the nesting guard

	newRequest  func() Req
	newResponse func() Resp
	// count is the number of items (spans, log records) in the request.
	count func(Req) int
	// strip removes the invalid items from the request.
	strip func(validator, Req) rejections
	// consume hands the request's data to the signal's consumer.
	consume func(context.Context, Req) error
	// setRejected records a partial success in the response.
	setRejected func(resp Resp, rejected int, msg string)
}

// tracesSignal handles OTLP traces for r, handing them to c.
func tracesSignal(r *Receiver, c TracesConsumer) *signal[ptraceotlp.ExportRequest, ptraceotlp.ExportResponse] {
	return &signal[ptraceotlp.ExportRequest, ptraceotlp.ExportResponse]{
		r:           r,
		name:        signalTraces,
		unit:        "spans",
		root:        nesting.TracesRequest,
		newRequest:  ptraceotlp.NewExportRequest,
		newResponse: ptraceotlp.NewExportResponse,
		count:       func(req ptraceotlp.ExportRequest) int { return req.Traces().SpanCount() },
		strip:       func(v validator, req ptraceotlp.ExportRequest) rejections { return v.stripTraces(req.Traces()) },
		consume: func(ctx context.Context, req ptraceotlp.ExportRequest) error {
			return c.ConsumeTraces(ctx, req.Traces())
		},
		setRejected: func(resp ptraceotlp.ExportResponse, rejected int, msg string) {
			ps := resp.PartialSuccess()
			ps.SetRejectedSpans(int64(rejected))
			ps.SetErrorMessage(msg)
		},
	}
}

// logsSignal handles OTLP logs for r, handing them to c.
func logsSignal(r *Receiver, c LogsConsumer) *signal[plogotlp.ExportRequest, plogotlp.ExportResponse] {
	return &signal[plogotlp.ExportRequest, plogotlp.ExportResponse]{
		r:           r,
		name:        signalLogs,
		unit:        "log records",
		root:        nesting.LogsRequest,
		newRequest:  plogotlp.NewExportRequest,
		newResponse: plogotlp.NewExportResponse,
		count:       func(req plogotlp.ExportRequest) int { return req.Logs().LogRecordCount() },
		strip:       func(v validator, req plogotlp.ExportRequest) rejections { return v.stripLogs(req.Logs()) },
		consume: func(ctx context.Context, req plogotlp.ExportRequest) error {
			return c.ConsumeLogs(ctx, req.Logs())
		},
		setRejected: func(resp plogotlp.ExportResponse, rejected int, msg string) {
			ps := resp.PartialSuccess()
			ps.SetRejectedLogRecords(int64(rejected))
			ps.SetErrorMessage(msg)
		},
	}
}
