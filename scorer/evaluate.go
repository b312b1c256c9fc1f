package scorer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"runtime/debug"
	"time"
)

// Evaluate runs every configured metric on in and returns what it
// learned. It does not export: the workers export after Evaluate, offline
// callers use the returned value. A metric whose inputs are missing, or
// that returns ErrNotApplicable, is listed in NotApplicable; an error, a
// timeout, a recovered panic or a NaN/±Inf score is listed in Errors and
// gives no result.
func (e *Engine) Evaluate(ctx context.Context, in *Instance) *Evaluation {
	ev := &Evaluation{Trajectory: in.Trajectory, Results: make([]Result, 0, len(e.metrics))}
	clock := stopwatch{t0: time.Now()}
	for i, m := range e.metrics {
		s := &e.tel.perMetric[i]
		if in.Missing(m.Needs()) != 0 {
			ev.NotApplicable = append(ev.NotApplicable, m.Name())
			s.notApplicable.Inc()
			continue
		}
		r, took, reason, err := runMetric(ctx, m, in, e.cfg.MetricTimeout, e.logger, clock)
		s.duration.Observe(took.Seconds())
		ev.Add(m.Name(), r, reason, err)
		switch {
		case err == nil:
		case reason == "":
			s.notApplicable.Inc()
		default:
			s.errors[reason].Inc()
			if reason != ReasonPanic { // panics are logged with their stack by RunMetric
				e.logger.Debug("metric failed", "metric", m.Name(), "reason", reason, "err", err)
			}
		}
	}
	return ev
}

// Add records the outcome of the metric name as RunMetric returned it: a
// result (named name when it names no metric), a not-applicable id, or an
// error.
func (ev *Evaluation) Add(name string, r Result, reason string, err error) {
	switch {
	case err == nil:
		if r.Metric == "" {
			r.Metric = name
		}
		ev.Results = append(ev.Results, r)
	case reason == "" && errors.Is(err, ErrNotApplicable):
		ev.NotApplicable = append(ev.NotApplicable, name)
	default:
		ev.Errors = append(ev.Errors, MetricError{Metric: name, Reason: reason, Err: err})
	}
}

// Inline marks a metric that never blocks and ignores its context (the
// built-in deterministic metrics). The engine calls it without a deadline
// context, which saves a timer per call, and still treats a call that took
// longer than the metric timeout as a timeout.
type Inline interface {
	Metric
	Inline()
}

// errInvalidScore reports a NaN or infinite score.
var errInvalidScore = errors.New("metric returned a NaN or infinite score")

// RunMetric calls m.Score under timeout, recovering a panic (logged to
// logger). The reason is empty on success and for ErrNotApplicable;
// otherwise it is one of the Reason constants. A call that returns after
// its deadline is a timeout even when it produced a score.
func RunMetric(ctx context.Context, m Metric, in *Instance, timeout time.Duration, logger *slog.Logger) (r Result, reason string, err error) {
	r, _, reason, err = runMetric(ctx, m, in, timeout, logger, stopwatch{t0: time.Now()})
	return r, reason, err
}

// stopwatch reads the monotonic clock as the time elapsed since t0, one
// clock read per call (time.Now reads the wall clock as well).
type stopwatch struct{ t0 time.Time }

func (w stopwatch) elapsed() time.Duration { return time.Since(w.t0) }

// runMetric is RunMetric timed on clock: took is the time the call took,
// recovery and classification included.
func runMetric(ctx context.Context, m Metric, in *Instance, timeout time.Duration, logger *slog.Logger, clock stopwatch) (r Result, took time.Duration, reason string, err error) {
	start := clock.elapsed()
	defer func() {
		if p := recover(); p != nil {
			r, reason, err = Result{}, ReasonPanic, fmt.Errorf("panic: %v", p)
			logger.Warn("metric panicked", "metric", m.Name(), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			took = clock.elapsed() - start
		}
	}()
	if _, ok := m.(Inline); ok {
		r, err = m.Score(ctx, in)
		took = clock.elapsed() - start
		if took > timeout && err == nil {
			return Result{}, took, ReasonTimeout, fmt.Errorf("metric call took %s, more than %s", took, timeout)
		}
		r, reason, err = classify(m, r, err)
		return r, took, reason, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	r, err = m.Score(ctx, in)
	took = clock.elapsed() - start
	if ctxErr := ctx.Err(); ctxErr != nil {
		if err == nil || !errors.Is(err, ErrNotApplicable) {
			return Result{}, took, ReasonTimeout, fmt.Errorf("metric call exceeded %s: %w", timeout, errors.Join(ctxErr, err))
		}
	}
	r, reason, err = classify(m, r, err)
	return r, took, reason, err
}

// classify sorts m's return into success, not applicable, error or
// invalid score, and gives a success m's pass verdict.
func classify(m Metric, r Result, err error) (Result, string, error) {
	if err != nil {
		if errors.Is(err, ErrNotApplicable) {
			return Result{}, "", err
		}
		return Result{}, ReasonError, err
	}
	if math.IsNaN(r.Score) || math.IsInf(r.Score, 0) {
		return Result{}, ReasonInvalidScore, fmt.Errorf("%w: %v", errInvalidScore, r.Score)
	}
	r.Passed = SemanticsOf(m).Pass.Verdict(r.Score)
	return r, "", nil
}
