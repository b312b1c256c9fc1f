package judge

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// DefaultEstimatedOutputTokens is the answer size a budget reserves for a
// request that sets no MaxOutputTokens, unless Options says otherwise.
const DefaultEstimatedOutputTokens = 1024

// Options are a Client's collaborators. The zero value is usable.
type Options struct {
	// Metrics records the client's series; nil records nothing.
	Metrics *Metrics
	// Now is the clock of the breaker, budgets, deadlines and latency;
	// nil means time.Now.
	Now func() time.Time
	// Sleep waits between attempts and returns ctx's error when it ends
	// first; nil waits on a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter returns a number in [0, 1) for the backoff's full jitter;
	// nil uses math/rand/v2.
	Jitter func() float64
	// EstimatedOutputTokens is the answer size reserved from budgets for
	// a request with MaxOutputTokens 0 (the provider's configured cap);
	// 0 means DefaultEstimatedOutputTokens.
	EstimatedOutputTokens int
}

// Client is one configured judge: a Provider with a per-attempt timeout,
// retries that honour retry hints, a circuit breaker, a concurrency limit,
// a budget and prices. It implements Judge and is safe for concurrent
// use.
type Client struct {
	cfg     ClientConfig
	p       Provider
	kind    string
	model   string
	opts    Options // with its defaults applied
	log     *slog.Logger
	metrics *clientMetrics
	sem     chan struct{}
	breaker *breaker
	budget  *Budget
}

var _ Judge = (*Client)(nil)

// NewClient returns the judge cfg.Name sending through p. cfg must be
// valid (see ClientConfig.Validate). The client logs failure classes,
// statuses, attempts and delays to set's logger, never prompts, answers or
// keys.
func NewClient(cfg ClientConfig, p Provider, opts Options, set telemetry.Settings) (*Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("judge %q: %w", cfg.Name, err)
	}
	if p == nil {
		return nil, fmt.Errorf("judge %q: no provider", cfg.Name)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Sleep == nil {
		opts.Sleep = sleepContext
	}
	if opts.Jitter == nil {
		opts.Jitter = rand.Float64
	}
	if opts.EstimatedOutputTokens <= 0 {
		opts.EstimatedOutputTokens = DefaultEstimatedOutputTokens
	}
	c := &Client{cfg: cfg, p: p, kind: p.Kind(), model: p.Model(), opts: opts, sem: make(chan struct{}, cfg.MaxConcurrency)}
	c.log = set.Log().With(slog.String("judge", cfg.Name), slog.String("provider", c.kind), slog.String("model", c.model))
	c.metrics = opts.Metrics.forClient(cfg.Name, c.model)
	c.metrics.circuit(CircuitClosed)
	c.breaker = newBreaker(cfg.Circuit, opts.Now, c.circuitChanged)
	c.budget = NewBudget(cfg.Name, cfg.Budget, opts.Now)
	return c, nil
}

// Name returns the configured judge name.
func (c *Client) Name() string { return c.cfg.Name }

// Config returns the client's configuration.
func (c *Client) Config() ClientConfig { return c.cfg }

// Budget returns the judge's own budget (nil-safe, unlimited when no
// limit is configured).
func (c *Client) Budget() *Budget { return c.budget }

// CircuitState returns the state of the circuit breaker.
func (c *Client) CircuitState() CircuitState { return c.breaker.State() }

// circuitChanged logs and exports a breaker transition.
func (c *Client) circuitChanged(s CircuitState) {
	c.metrics.circuit(s)
	level := slog.LevelInfo
	if s == CircuitOpen {
		level = slog.LevelWarn
	}
	c.log.LogAttrs(context.Background(), level, "judge circuit "+s.String(),
		slog.Duration("open_for", c.cfg.Circuit.OpenFor))
}

// Judge sends req under the client's policies. Every failure is an
// *Error: ClassCircuitOpen while the breaker is open, ClassBudget when a
// budget (the judge's, or one attached with WithBudget) refuses an
// attempt, ClassCanceled when ctx ends, or the class of the last
// attempt's failure.
func (c *Client) Judge(ctx context.Context, req *Request) (*Response, error) {
	if req == nil {
		return nil, &Error{Class: ClassBadRequest, Err: errors.New("nil request")}
	}
	if err := ctx.Err(); err != nil {
		return nil, &Error{Class: ClassCanceled, Err: err}
	}
	if n := int64(len(req.System)+len(req.Prompt)) / 4; c.cfg.MaxPromptTokens > 0 && n > int64(c.cfg.MaxPromptTokens) {
		c.metrics.refused(ClassPromptTooLong)
		return nil, &Error{Class: ClassPromptTooLong, Err: fmt.Errorf("judge %q: prompt of about %d tokens is over max_prompt_tokens %d", c.cfg.Name, n, c.cfg.MaxPromptTokens)}
	}
	if c.breaker.blocked() {
		return nil, c.circuitOpen(req)
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, &Error{Class: ClassCanceled, Err: ctx.Err()}
	}
	c.metrics.inFlight.Inc()
	defer func() {
		c.metrics.inFlight.Dec()
		<-c.sem
	}()
	probe, ok := c.breaker.allow()
	if !ok {
		return nil, c.circuitOpen(req)
	}
	resp, last, err := c.call(ctx, req)
	v := verdictOf(err)
	if last != nil && ClassOf(err) == ClassBudget {
		// A budget refused a retry: the provider's last failure decides.
		v = verdictOf(last)
	}
	c.breaker.done(probe, v)
	return resp, err
}

// circuitOpen counts and returns a fast failure.
func (c *Client) circuitOpen(req *Request) error {
	c.metrics.refused(ClassCircuitOpen)
	c.log.LogAttrs(context.Background(), slog.LevelDebug, "judge call refused",
		slog.String("metric", req.Metric), slog.String("class", string(ClassCircuitOpen)))
	return &Error{Class: ClassCircuitOpen, Err: fmt.Errorf("judge %q: %w", c.cfg.Name, errCircuitOpen)}
}

// estimate returns the tokens and USD a budget reserves for req: a
// quarter token per byte of instructions and prompt, plus the answer
// cap.
func (c *Client) estimate(req *Request) (int64, float64) {
	in := int64(len(req.System)+len(req.Prompt)) / 4
	out := int64(req.MaxOutputTokens)
	if out <= 0 {
		out = int64(c.opts.EstimatedOutputTokens)
	}
	return in + out, c.cfg.Prices.Cost(in, out)
}

// call makes the attempts of one admitted call. Besides the call's
// outcome it returns the last failed attempt's error, if any.
func (c *Client) call(ctx context.Context, req *Request) (*Response, *Error, error) {
	estTokens, estUSD := c.estimate(req)
	metricBudget := BudgetFrom(ctx)
	var last *Error
	for attempt := 1; ; attempt++ {
		rs, err := reserveBoth(estTokens, estUSD, c.budget, metricBudget)
		if err != nil {
			c.metrics.refused(ClassBudget)
			var be *BudgetExceeded
			errors.As(err, &be)
			c.log.LogAttrs(ctx, slog.LevelDebug, "judge call refused",
				slog.String("metric", req.Metric), slog.String("class", string(ClassBudget)),
				slog.String("budget", be.Budget), slog.String("limit", be.Limit), slog.Int("attempt", attempt))
			return nil, last, err
		}
		resp, aerr := c.attempt(ctx, req)
		if aerr == nil {
			cost := c.cfg.Prices.Cost(resp.InputTokens, resp.OutputTokens)
			rs.commit(resp.InputTokens+resp.OutputTokens, cost)
			c.metrics.usage(resp.InputTokens, resp.OutputTokens, cost)
			resp.Judge = c.cfg.Name
			resp.CostUSD = cost
			resp.Attempts = attempt
			resp.Provider, resp.Model = cmp.Or(resp.Provider, c.kind), cmp.Or(resp.Model, c.model)
			return resp, last, nil
		}
		if unbilled(aerr.Class) {
			rs.commit(0, 0)
		} else {
			// The provider may have generated an answer before failing:
			// the estimate stays charged.
			rs.commit(estTokens, estUSD)
		}
		last = aerr
		attrs := []slog.Attr{
			slog.String("metric", req.Metric), slog.String("class", string(last.Class)),
			slog.Int("status", last.Status), slog.Int("attempt", attempt),
		}
		if last.Class == ClassCanceled || !last.Retryable() || attempt > c.cfg.MaxRetries {
			c.log.LogAttrs(ctx, failureLevel(last.Class), "judge call failed", attrs...)
			return nil, last, last
		}
		delay := retryDelay(last, attempt, c.opts.Jitter(), c.kind)
		attrs = append(attrs, slog.Duration("delay", delay), slog.Duration("retry_after", last.RetryAfter))
		if dl, ok := ctx.Deadline(); ok && !c.opts.Now().Add(delay).Before(dl) {
			c.log.LogAttrs(ctx, slog.LevelWarn, "judge call failed: retry delay passes the deadline", attrs...)
			return nil, last, last
		}
		c.metrics.retries.WithLabelValues(string(last.Class)).Inc()
		c.log.LogAttrs(ctx, slog.LevelDebug, "judge retry", attrs...)
		if err := c.opts.Sleep(ctx, delay); err != nil {
			return nil, last, &Error{Class: ClassCanceled, Err: errors.Join(err, last)}
		}
	}
}

// attempt sends req once under the per-attempt timeout and classifies
// the outcome.
func (c *Client) attempt(ctx context.Context, req *Request) (*Response, *Error) {
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	start := c.opts.Now()
	resp, err := c.p.Complete(actx, req)
	elapsed := c.opts.Now().Sub(start)
	timedOut := errors.Is(actx.Err(), context.DeadlineExceeded)
	cancel()
	if err == nil && resp == nil {
		err = &Error{Class: ClassInvalidResponse, Err: errors.New("provider returned no response")}
	}
	if err != nil {
		je := classify(ctx, err, timedOut)
		c.metrics.attempt(je.Class, elapsed)
		return nil, je
	}
	resp.Latency = elapsed
	c.metrics.attempt("", elapsed)
	return resp, nil
}

// classify returns the *Error of a failed attempt. The caller's context
// ending makes it ClassCanceled; the attempt's own deadline passing makes
// a cancellation or transport failure ClassTimeout.
func classify(ctx context.Context, err error, attemptTimedOut bool) *Error {
	if ctx.Err() != nil {
		return &Error{Class: ClassCanceled, Err: err}
	}
	var je *Error
	if errors.As(err, &je) {
		if attemptTimedOut && (je.Class == ClassCanceled || je.Class == ClassTransport) {
			return &Error{Class: ClassTimeout, Status: je.Status, Err: err}
		}
		return je
	}
	if attemptTimedOut || errors.Is(err, context.DeadlineExceeded) {
		return &Error{Class: ClassTimeout, Err: err}
	}
	return &Error{Class: ClassInvalidResponse, Err: err}
}

// failureLevel is the log level of a call that failed with class:
// warnings for the provider's unavailability and for account problems,
// info for answers that could not be used, debug for the caller's
// cancellation.
func failureLevel(class Class) slog.Level {
	switch {
	case class == ClassCanceled:
		return slog.LevelDebug
	case class == ClassAuth || verdictOf(&Error{Class: class}) == verdictFailed:
		return slog.LevelWarn
	}
	return slog.LevelInfo
}

// unbilled reports whether a failure of class was refused before the
// model generated anything, so that it costs no tokens.
func unbilled(class Class) bool {
	switch class {
	case ClassRateLimited, ClassQuotaExhausted, ClassOverloaded, ClassAuth, ClassBadRequest:
		return true
	}
	return false
}
