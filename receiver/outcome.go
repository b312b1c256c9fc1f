package receiver

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/errs"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

// outcome is the protocol-neutral answer to one export request.
type outcome struct {
	code       codes.Code
	msg        string
	retryAfter time.Duration // > 0 only for retryable answers
	reason     string        // refusal reason label when code != OK
	badRequest bool          // attach an errdetails.BadRequest
}

var okOutcome = outcome{code: codes.OK}

// classify turns a consumer error into an outcome: Refused → UNAVAILABLE
// with its delay, Permanent → INTERNAL, anything else → UNAVAILABLE with
// the default delay.
func classify(err error, defaultDelay time.Duration) outcome {
	if r, ok := errs.AsRefused(err); ok {
		delay := r.RetryAfter
		if delay <= 0 {
			delay = defaultDelay
		}
		reason := reasonOverloaded
		if r.Reason == reasonShuttingDown {
			reason = reasonShuttingDown
		}
		return outcome{code: codes.Unavailable, msg: err.Error(), retryAfter: delay, reason: reason}
	}
	if errs.IsPermanent(err) {
		return outcome{code: codes.Internal, msg: err.Error(), reason: reasonInternal}
	}
	return outcome{code: codes.Unavailable, msg: err.Error(), retryAfter: defaultDelay, reason: reasonConsumerError}
}

// statusProto builds the google.rpc.Status carried by gRPC errors and HTTP
// error bodies, with RetryInfo or BadRequest details as the outcome needs.
func (o outcome) statusProto() *spb.Status {
	st := status.New(o.code, o.msg)
	if o.retryAfter > 0 {
		if ds, err := st.WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(o.retryAfter)}); err == nil {
			st = ds
		}
	}
	if o.badRequest {
		br := &errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{
			Field: "body", Description: o.msg,
		}}}
		if ds, err := st.WithDetails(br); err == nil {
			st = ds
		}
	}
	return st.Proto()
}

// grpcErr is the outcome as a gRPC status error (nil for OK).
func (o outcome) grpcErr() error {
	if o.code == codes.OK {
		return nil
	}
	return status.FromProto(o.statusProto()).Err()
}

// httpStatus maps the outcome to its HTTP status code.
func (o outcome) httpStatus() int {
	switch o.code {
	case codes.OK:
		return http.StatusOK
	case codes.InvalidArgument:
		return http.StatusBadRequest
	case codes.Unauthenticated:
		return http.StatusUnauthorized
	case codes.PermissionDenied:
		return http.StatusForbidden
	case codes.ResourceExhausted:
		return http.StatusRequestEntityTooLarge
	case codes.Unavailable:
		return http.StatusServiceUnavailable
	case codes.Unimplemented:
		return http.StatusNotFound
	default:
		return http.StatusInternalServerError
	}
}

// retryAfterSeconds renders the delay for the Retry-After header, rounded
// up to whole seconds and at least 1.
func retryAfterSeconds(d time.Duration) string {
	s := int64(math.Ceil(d.Seconds()))
	if s < 1 {
		s = 1
	}
	return strconv.FormatInt(s, 10)
}
