package receiver

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/evalsidecar/evalsidecar/receiver/internal/nesting"
	"google.golang.org/grpc/codes"
)

const reasonPanic = "panic"

// unavailable answers a request refused, retryable, while draining
// (reasonShuttingDown) or by the memory limiter (reasonMemoryLimit).
func (r *Receiver) unavailable(reason string) outcome {
	msg := "receiver is shutting down"
	if reason == reasonMemoryLimit {
		msg = "memory limit reached, retry later"
	}
	return outcome{code: codes.Unavailable, msg: msg, retryAfter: r.cfg.DefaultRetryDelay, reason: reason}
}

// panicOutcome logs a recovered panic and answers INTERNAL.
func (r *Receiver) panicOutcome(protocol, signal string, p any) outcome {
	r.logger.Error("panic while handling an export request",
		"protocol", protocol, "signal", signal, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
	return outcome{code: codes.Internal, msg: "internal error", reason: reasonPanic}
}

// export validates a decoded request, strips invalid items, calls the
// consumer and prepares the forward. raw is the request as received in
// protobuf form (less the deep items), or nil when it arrived as JSON;
// deep is the number of items the nesting guard cut out before decoding.
func (s *signal[Req, Resp]) export(ctx context.Context, protocol string, raw []byte, req Req, deep int) (Resp, outcome) {
	r := s.r
	resp := s.newResponse()
	n := s.count(req) + deep
	r.inflight.RLock()
	defer r.inflight.RUnlock()
	if r.draining.Load() {
		o := r.unavailable(reasonShuttingDown)
		r.metrics.refused(protocol, s.name, o.reason, n)
		return resp, o
	}
	if n == 0 {
		return resp, okOutcome
	}
	if r.fwd != nil && raw == nil {
		raw, _ = req.MarshalProto() // before stripping: the upstream gets the request unchanged
	}
	rej := s.strip(r.validator, req)
	for range deep {
		rej.add(reasonAttributeDepth)
	}
	for reason, c := range rej.byReason {
		r.metrics.refused(protocol, s.name, reason, c)
	}
	if accepted := n - rej.total; accepted > 0 {
		if err := s.consume(ctx, req); err != nil {
			o := classify(err, r.cfg.DefaultRetryDelay)
			r.metrics.refused(protocol, s.name, o.reason, accepted)
			r.logRefusal(o, protocol, s.name, accepted, err)
			return resp, o
		}
		r.metrics.accepted(protocol, s.name, accepted)
	}
	if rej.total > 0 {
		s.setRejected(resp, rej.total, rej.message(n, s.unit))
	}
	if r.fwd != nil && protocol == protoGRPC {
		raw = bytes.Clone(raw) // the gRPC body's buffer goes back to its pool when the call returns
	}
	r.fwd.enqueue(s.name, raw)
	return resp, okOutcome
}

// decodeProto cuts out the items nested too deeply to decode
// (nesting.StripProto) and decodes the rest of a protobuf request. It
// returns the body decoded and the number of items cut out.
func (s *signal[Req, Resp]) decodeProto(body []byte) (Req, []byte, int, error) {
	req := s.newRequest()
	body, deep, err := nesting.StripProto(body, s.root, s.r.decodeDepth)
	if err != nil {
		return req, nil, 0, err
	}
	if err := req.UnmarshalProto(body); err != nil {
		return req, nil, 0, fmt.Errorf("decode protobuf %s request: %w", s.name, err)
	}
	return req, body, deep, nil
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
