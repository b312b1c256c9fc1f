package judge

import (
	"errors"
	"fmt"
	"time"
)

// Class is the outcome class of a failed judge call. It is a label value
// of evalsidecar_judge_requests_total{outcome} and of the decision ledger.
type Class string

// Failure classes.
const (
	ClassRateLimited     Class = "rate_limited"     // 429 that is about rate
	ClassQuotaExhausted  Class = "quota_exhausted"  // 429/403 about quota or spend: not retried
	ClassOverloaded      Class = "overloaded"       // 529, 503
	ClassServerError     Class = "server_error"     // other 5xx
	ClassTimeout         Class = "timeout"          // per-call deadline passed
	ClassTransport       Class = "transport"        // connection refused, reset, TLS
	ClassAuth            Class = "auth"             // 401, 403
	ClassBadRequest      Class = "bad_request"      // other 4xx
	ClassRefusal         Class = "refusal"          // the model refused
	ClassContentFilter   Class = "content_filter"   // a safety filter blocked the answer
	ClassTruncated       Class = "truncated"        // the answer hit max tokens
	ClassInvalidResponse Class = "invalid_response" // no answer, or an answer that does not parse
	ClassCircuitOpen     Class = "circuit_open"     // the judge's breaker is open (no fallback)
	ClassBudget          Class = "over_budget"      // a budget refused the call
	ClassCanceled        Class = "canceled"         // the caller's context ended
	ClassPromptTooLong   Class = "prompt_too_long"  // the prompt is over max_prompt_tokens: not sent
)

// Error is a classified judge failure.
type Error struct {
	Class Class
	// Status is the HTTP status, 0 when there was no response.
	Status int
	// RetryAfter is the provider's retry hint (retry-after,
	// retry-after-ms, rate-limit reset headers); 0 when none was given.
	RetryAfter time.Duration
	// Err is the underlying error.
	Err error
}

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("judge %s (HTTP %d): %v", e.Class, e.Status, e.Err)
	}
	return fmt.Sprintf("judge %s: %v", e.Class, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether the call may be retried.
func (e *Error) Retryable() bool {
	switch e.Class {
	case ClassRateLimited, ClassOverloaded, ClassServerError, ClassTimeout, ClassTransport:
		return true
	}
	return false
}

// ClassOf returns err's class: the Class of an *Error in its chain,
// ClassInvalidResponse for any other error, "" for nil.
func ClassOf(err error) Class {
	if err == nil {
		return ""
	}
	var je *Error
	if errors.As(err, &je) {
		return je.Class
	}
	return ClassInvalidResponse
}
