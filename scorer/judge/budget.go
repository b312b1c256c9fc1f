package judge

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// BudgetConfig limits a judge's or a metric's use of judges. A zero limit
// is unlimited.
//
// The windows are fixed and aligned to the clock in UTC: a minute starts
// at second 0, an hour at minute 0, a day at midnight UTC. Usage resets
// when the window changes.
type BudgetConfig struct {
	// CallsPerMinute limits the attempts (every HTTP request, retries
	// included: providers count failed requests too).
	CallsPerMinute int `yaml:"calls_per_minute"`
	// TokensPerHour limits input plus output tokens per hour.
	TokensPerHour int64 `yaml:"tokens_per_hour"`
	// TokensPerDay limits input plus output tokens per day.
	TokensPerDay int64 `yaml:"tokens_per_day"`
	// USDPerDay limits the estimated spend per day, from the judge's
	// prices.
	USDPerDay float64 `yaml:"usd_per_day"`
}

// Budget limit names, as in the configuration and in BudgetExceeded.
const (
	LimitCallsPerMinute = "calls_per_minute"
	LimitTokensPerHour  = "tokens_per_hour"
	LimitTokensPerDay   = "tokens_per_day"
	LimitUSDPerDay      = "usd_per_day"
)

// Validate reports negative or non-finite limits; prefix is prepended to
// the key names (for example "budget.").
func (c BudgetConfig) Validate(prefix string) error {
	var v errs.Checks
	v.Check(c.CallsPerMinute < 0, "%s%s: must be >= 0, got %d", prefix, LimitCallsPerMinute, c.CallsPerMinute)
	v.Check(c.TokensPerHour < 0, "%s%s: must be >= 0, got %d", prefix, LimitTokensPerHour, c.TokensPerHour)
	v.Check(c.TokensPerDay < 0, "%s%s: must be >= 0, got %d", prefix, LimitTokensPerDay, c.TokensPerDay)
	v.Check(!nonNegative(c.USDPerDay), "%s%s: must be a finite number >= 0, got %v", prefix, LimitUSDPerDay, c.USDPerDay)
	return v.Err()
}

// nonNegative reports whether f is a finite number >= 0.
func nonNegative(f float64) bool { return f >= 0 && !math.IsInf(f, 0) }

// unlimited reports whether no limit is set.
func (c BudgetConfig) unlimited() bool {
	return c.CallsPerMinute == 0 && c.TokensPerHour == 0 && c.TokensPerDay == 0 && c.USDPerDay == 0
}

// BudgetExceeded is the underlying error of a ClassBudget *Error: it names
// the budget and the limit that refused the call.
type BudgetExceeded struct {
	// Budget is the budget's name (a judge or a metric).
	Budget string
	// Limit is the limit's configuration key, for example
	// "calls_per_minute".
	Limit string
}

func (e *BudgetExceeded) Error() string {
	return fmt.Sprintf("budget %q: %s reached", e.Budget, e.Limit)
}

// Budget enforces a BudgetConfig. Each call reserves its estimated use
// before it is sent and commits the actual use after, so concurrent calls
// never pass a limit. The zero value is not usable; a nil *Budget is
// unlimited. Budget is safe for concurrent use.
type Budget struct {
	name string
	cfg  BudgetConfig
	now  func() time.Time

	mu         sync.Mutex
	calls      window[int]
	hourTokens window[int64]
	dayTokens  window[int64]
	dayUSD     window[float64]

	// Admission (see Admit): runs offered and admitted per window, and
	// the use of one admitted run in the windows that ended.
	minuteRuns, hourRuns, dayRuns                    demand
	prevCallsPerRun, prevTokensPerRun, prevUSDPerRun float64
}

// window is the usage of one fixed window.
type window[T int | int64 | float64] struct {
	start time.Time
	used  T
}

// at moves w to the window starting at start, resetting the usage when
// it is a new window.
func (w *window[T]) at(start time.Time) {
	if !w.start.Equal(start) {
		w.start, w.used = start, 0
	}
}

// give takes back v (adds -v when v is negative) from the window that
// started at start, if it is still the current one, without going below
// zero.
func (w *window[T]) give(start time.Time, v T) {
	if w.start.Equal(start) {
		w.used = max(w.used-v, 0)
	}
}

// NewBudget returns a budget named name (used in errors) enforcing cfg.
// now is the clock; nil means time.Now.
func NewBudget(name string, cfg BudgetConfig, now func() time.Time) *Budget {
	if now == nil {
		now = time.Now
	}
	return &Budget{name: name, cfg: cfg, now: now}
}

// Name returns the budget's name.
func (b *Budget) Name() string {
	if b == nil {
		return ""
	}
	return b.name
}

// windowStarts returns the starts of the minute, hour and day windows
// containing t.
func windowStarts(t time.Time) (minute, hour, day time.Time) {
	t = t.UTC()
	y, m, d := t.Date()
	return t.Truncate(time.Minute), t.Truncate(time.Hour), time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// roll moves every window to the current time and returns the window
// starts, under the lock.
func (b *Budget) roll() (minute, hour, day time.Time) {
	minute, hour, day = windowStarts(b.now())
	b.learn(minute, hour)
	b.calls.at(minute)
	b.hourTokens.at(hour)
	b.dayTokens.at(day)
	b.dayUSD.at(day)
	return minute, hour, day
}

// Reserve checks every limit for one call estimated to use tokens and
// usd, and takes the call out of the budget. It returns an *Error of
// ClassBudget wrapping a *BudgetExceeded naming the first limit that
// refuses. The caller must Commit or Release the reservation.
func (b *Budget) Reserve(tokens int64, usd float64) (*Reservation, error) {
	if b == nil || b.cfg.unlimited() {
		return nil, nil
	}
	tokens, usd = max(tokens, 0), max(usd, 0)
	b.mu.Lock()
	defer b.mu.Unlock()
	minute, hour, day := b.roll()
	limit := ""
	switch {
	case b.cfg.CallsPerMinute > 0 && b.calls.used+1 > b.cfg.CallsPerMinute:
		limit = LimitCallsPerMinute
	case b.cfg.TokensPerHour > 0 && b.hourTokens.used+tokens > b.cfg.TokensPerHour:
		limit = LimitTokensPerHour
	case b.cfg.TokensPerDay > 0 && b.dayTokens.used+tokens > b.cfg.TokensPerDay:
		limit = LimitTokensPerDay
	case b.cfg.USDPerDay > 0 && b.dayUSD.used+usd > b.cfg.USDPerDay:
		limit = LimitUSDPerDay
	}
	if limit != "" {
		return nil, &Error{Class: ClassBudget, Err: &BudgetExceeded{Budget: b.name, Limit: limit}}
	}
	b.calls.used++
	b.hourTokens.used += tokens
	b.dayTokens.used += tokens
	b.dayUSD.used += usd
	return &Reservation{b: b, minute: minute, hour: hour, day: day, tokens: tokens, usd: usd}, nil
}

// BudgetUsage is a budget's use in its current windows.
type BudgetUsage struct {
	// CallsThisMinute counts the calls reserved in the current minute.
	CallsThisMinute int
	// TokensThisHour and TokensToday count tokens, estimated for calls
	// still in flight.
	TokensThisHour, TokensToday int64
	// USDToday is the spend today, estimated for calls still in flight.
	USDToday float64
}

// Usage returns the use in the windows containing the current time.
func (b *Budget) Usage() BudgetUsage {
	if b == nil {
		return BudgetUsage{}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.roll()
	return BudgetUsage{
		CallsThisMinute: b.calls.used,
		TokensThisHour:  b.hourTokens.used,
		TokensToday:     b.dayTokens.used,
		USDToday:        b.dayUSD.used,
	}
}

// Reservation is one call's reserved share of a budget. A nil
// *Reservation (from an unlimited budget) accepts Commit and Release.
type Reservation struct {
	b                 *Budget
	minute, hour, day time.Time
	tokens            int64
	usd               float64
	done              bool
}

// Commit replaces the estimate by the call's actual tokens and cost. The
// call itself stays counted. Windows that ended since the reservation
// keep the estimate. Only the first Commit or Release has an effect.
func (r *Reservation) Commit(tokens int64, usd float64) {
	r.settle(func(b *Budget) {
		// Taking back the estimate less the actual use keeps the windows
		// that ended untouched.
		b.hourTokens.give(r.hour, r.tokens-max(tokens, 0))
		b.dayTokens.give(r.day, r.tokens-max(tokens, 0))
		b.dayUSD.give(r.day, r.usd-max(usd, 0))
	})
}

// Release gives the whole reservation back, the call included: use it
// when the call was not sent. Only the first Commit or Release has an
// effect.
func (r *Reservation) Release() {
	r.settle(func(b *Budget) {
		b.calls.give(r.minute, 1)
		b.hourTokens.give(r.hour, r.tokens)
		b.dayTokens.give(r.day, r.tokens)
		b.dayUSD.give(r.day, r.usd)
	})
}

// settle runs f on the budget, under its lock and with its windows
// rolled to now, unless the reservation is nil or already settled.
func (r *Reservation) settle(f func(b *Budget)) {
	if r == nil {
		return
	}
	b := r.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if r.done {
		return
	}
	r.done = true
	b.roll()
	f(b)
}

// budgetKey is the context key of a metric budget.
type budgetKey struct{}

// WithBudget returns ctx carrying b: every judge call made with the
// context reserves from b as well as from the judge's own budget.
func WithBudget(ctx context.Context, b *Budget) context.Context {
	return context.WithValue(ctx, budgetKey{}, b)
}

// BudgetFrom returns the budget attached by WithBudget, or nil.
func BudgetFrom(ctx context.Context) *Budget {
	b, _ := ctx.Value(budgetKey{}).(*Budget)
	return b
}

// reservations holds the reservations of one attempt: the judge's own
// budget's and the metric budget's.
type reservations [2]*Reservation

// reserveBoth reserves from the judge's budget and the metric's budget,
// both or neither: when the second refuses, the first is released.
func reserveBoth(tokens int64, usd float64, own, metric *Budget) (reservations, error) {
	r0, err := own.Reserve(tokens, usd)
	if err != nil {
		return reservations{}, err
	}
	r1, err := metric.Reserve(tokens, usd)
	if err != nil {
		r0.Release()
		return reservations{}, err
	}
	return reservations{r0, r1}, nil
}

// commit commits every reservation.
func (rs reservations) commit(tokens int64, usd float64) {
	for _, r := range rs {
		r.Commit(tokens, usd)
	}
}
