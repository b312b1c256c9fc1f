package receiver

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/evalsidecar/evalsidecar/receiver/internal/nesting"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc/codes"
)

const reasonPanic = "panic"

// drainingOutcome answers requests that arrive after Drain.
func (r *Receiver) drainingOutcome() outcome {
	return outcome{
		code:       codes.Unavailable,
		msg:        "receiver is shutting down",
		retryAfter: r.cfg.DefaultRetryDelay,
		reason:     reasonShuttingDown,
	}
}

// panicOutcome logs a recovered panic and answers INTERNAL.
func (r *Receiver) panicOutcome(protocol, signal string, p any) outcome {
	r.logger.Error("panic while handling an export request",
		"protocol", protocol, "signal", signal, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
	return outcome{code: codes.Internal, msg: "internal error", reason: reasonPanic}
}

// exportTraces validates a decoded request, strips invalid spans, calls the
// consumer and prepares the forward. raw is the request as received in
// protobuf form, or nil when it arrived as JSON.
func (r *Receiver) exportTraces(ctx context.Context, protocol string, raw []byte, req ptraceotlp.ExportRequest) (ptraceotlp.ExportResponse, outcome) {
	resp := ptraceotlp.NewExportResponse()
	td := req.Traces()
	n := td.SpanCount()
	r.inflight.RLock()
	defer r.inflight.RUnlock()
	if r.draining.Load() {
		o := r.drainingOutcome()
		r.metrics.refused(protocol, signalTraces, o.reason, n)
		return resp, o
	}
	if n == 0 {
		return resp, okOutcome
	}
	if r.fwd != nil && raw == nil {
		raw, _ = req.MarshalProto() // before stripping: the upstream gets the request unchanged
	}
	rej := r.validator.stripTraces(td)
	for reason, c := range rej.byReason {
		r.metrics.refused(protocol, signalTraces, reason, c)
	}
	if accepted := n - rej.total; accepted > 0 {
		if err := r.traces.ConsumeTraces(ctx, td); err != nil {
			o := classify(err, r.cfg.DefaultRetryDelay)
			r.metrics.refused(protocol, signalTraces, o.reason, accepted)
			r.logRefusal(o, protocol, signalTraces, accepted, err)
			return resp, o
		}
		r.metrics.accepted(protocol, signalTraces, accepted)
	}
	if rej.total > 0 {
		ps := resp.PartialSuccess()
		ps.SetRejectedSpans(int64(rej.total))
		ps.SetErrorMessage(rej.message(n, "spans"))
	}
	r.fwd.enqueue(signalTraces, raw)
	return resp, okOutcome
}

// exportLogs is exportTraces for logs.
func (r *Receiver) exportLogs(ctx context.Context, protocol string, raw []byte, req plogotlp.ExportRequest) (plogotlp.ExportResponse, outcome) {
	resp := plogotlp.NewExportResponse()
	ld := req.Logs()
	n := ld.LogRecordCount()
	r.inflight.RLock()
	defer r.inflight.RUnlock()
	if r.draining.Load() {
		o := r.drainingOutcome()
		r.metrics.refused(protocol, signalLogs, o.reason, n)
		return resp, o
	}
	if n == 0 {
		return resp, okOutcome
	}
	if r.fwd != nil && raw == nil {
		raw, _ = req.MarshalProto()
	}
	rej := r.validator.stripLogs(ld)
	for reason, c := range rej.byReason {
		r.metrics.refused(protocol, signalLogs, reason, c)
	}
	if accepted := n - rej.total; accepted > 0 {
		if err := r.logs.ConsumeLogs(ctx, ld); err != nil {
			o := classify(err, r.cfg.DefaultRetryDelay)
			r.metrics.refused(protocol, signalLogs, o.reason, accepted)
			r.logRefusal(o, protocol, signalLogs, accepted, err)
			return resp, o
		}
		r.metrics.accepted(protocol, signalLogs, accepted)
	}
	if rej.total > 0 {
		ps := resp.PartialSuccess()
		ps.SetRejectedLogRecords(int64(rej.total))
		ps.SetErrorMessage(rej.message(n, "log records"))
	}
	r.fwd.enqueue(signalLogs, raw)
	return resp, okOutcome
}

// decodeTracesProto guards the nesting and decodes a protobuf request.
func (r *Receiver) decodeTracesProto(body []byte) (ptraceotlp.ExportRequest, error) {
	req := ptraceotlp.NewExportRequest()
	if err := nesting.CheckProto(body, nesting.TracesRequest, r.decodeDepth); err != nil {
		return req, err
	}
	if err := req.UnmarshalProto(body); err != nil {
		return req, fmt.Errorf("decode protobuf traces request: %w", err)
	}
	return req, nil
}

// decodeLogsProto guards the nesting and decodes a protobuf request.
func (r *Receiver) decodeLogsProto(body []byte) (plogotlp.ExportRequest, error) {
	req := plogotlp.NewExportRequest()
	if err := nesting.CheckProto(body, nesting.LogsRequest, r.decodeDepth); err != nil {
		return req, err
	}
	if err := req.UnmarshalProto(body); err != nil {
		return req, fmt.Errorf("decode protobuf logs request: %w", err)
	}
	return req, nil
}

// undecodable is the outcome for a body that cannot be decoded.
func undecodable(err error) outcome {
	return outcome{code: codes.InvalidArgument, msg: err.Error(), reason: reasonUndecodable, badRequest: true}
}

// logRefusal logs a consumer error: INTERNAL answers are warnings, retryable
// refusals (expected under load) are debug messages.
func (r *Receiver) logRefusal(o outcome, protocol, signal string, items int, err error) {
	level := slog.LevelDebug
	if o.code == codes.Internal {
		level = slog.LevelWarn
	}
	r.logger.Log(context.Background(), level, "export refused by the pipeline",
		"protocol", protocol, "signal", signal, "items", items, "code", o.code.String(), "error", err)
}
