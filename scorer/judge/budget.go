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

	mu sync.Mutex
	// limits are calls_per_minute, tokens_per_hour, tokens_per_day and
	// usd_per_day, in this order (see uses).
	limits [4]limit
}

// limit is one limit of a budget and its use in the current window.
type limit struct {
	key    string        // the configuration key, as BudgetExceeded names it
	max    float64       // 0: unlimited
	length time.Duration // a minute, an hour or a day
	start  time.Time     // of the current window
	used   float64
	// Admission (see Admit): the runs offered and admitted in the window
	// that started at runsStart (it moves with Admit only), the runs
	// offered in the window before, and the use of one admitted run in the
	// windows that ended.
	runsStart                      time.Time
	offered, admitted, prevOffered int
	perRun                         float64
}

// uses is what a call estimated at tokens and usd takes from each limit.
func uses(tokens int64, usd float64) [4]float64 {
	return [4]float64{1, float64(max(tokens, 0)), float64(max(tokens, 0)), max(usd, 0)}
}

// NewBudget returns a budget named name (used in errors) enforcing cfg.
// now is the clock; nil means time.Now.
func NewBudget(name string, cfg BudgetConfig, now func() time.Time) *Budget {
	if now == nil {
		now = time.Now
	}
	return &Budget{name: name, cfg: cfg, now: now, limits: [4]limit{
		// Without history, a run is taken to make one call.
		{key: LimitCallsPerMinute, max: float64(cfg.CallsPerMinute), length: time.Minute, perRun: 1},
		{key: LimitTokensPerHour, max: float64(cfg.TokensPerHour), length: time.Hour},
		{key: LimitTokensPerDay, max: float64(cfg.TokensPerDay), length: 24 * time.Hour},
		{key: LimitUSDPerDay, max: cfg.USDPerDay, length: 24 * time.Hour},
	}}
}

// Name returns the budget's name.
func (b *Budget) Name() string {
	if b == nil {
		return ""
	}
	return b.name
}

// roll moves every limit to the window holding now (a minute, hour or day
// aligned to the clock in UTC) and returns the windows' starts, under the
// lock.
func (b *Budget) roll(now time.Time) (starts [4]time.Time) {
	now = now.UTC()
	b.learn(now)
	for i := range b.limits {
		l := &b.limits[i]
		starts[i] = now.Truncate(l.length)
		if !l.start.Equal(starts[i]) {
			l.start, l.used = starts[i], 0
		}
	}
	return starts
}

// Reserve checks every limit for one call estimated to use tokens and
// usd, and takes the call out of the budget. It returns an *Error of
// ClassBudget wrapping a *BudgetExceeded naming the first limit that
// refuses. The caller must Commit or Release the reservation.
func (b *Budget) Reserve(tokens int64, usd float64) (*Reservation, error) {
	if b == nil || b.cfg.unlimited() {
		return nil, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r := &Reservation{b: b, starts: b.roll(b.now()), uses: uses(tokens, usd)}
	for i, l := range b.limits {
		if l.max > 0 && l.used+r.uses[i] > l.max {
			return nil, &Error{Class: ClassBudget, Err: &BudgetExceeded{Budget: b.name, Limit: l.key}}
		}
	}
	for i := range b.limits {
		b.limits[i].used += r.uses[i]
	}
	return r, nil
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
	b.roll(b.now())
	l := &b.limits
	return BudgetUsage{CallsThisMinute: int(l[0].used), TokensThisHour: int64(l[1].used), TokensToday: int64(l[2].used), USDToday: l[3].used}
}

// Reservation is one call's reserved share of a budget. A nil
// *Reservation (from an unlimited budget) accepts Commit and Release.
type Reservation struct {
	b      *Budget
	starts [4]time.Time
	uses   [4]float64
	done   bool
}

// Commit replaces the estimate by the call's actual tokens and cost. The
// call itself stays counted. Windows that ended since the reservation
// keep the estimate. Only the first Commit or Release has an effect.
func (r *Reservation) Commit(tokens int64, usd float64) { r.settle(uses(tokens, usd)) }

// Release gives the whole reservation back, the call included: use it
// when the call was not sent. Only the first Commit or Release has an
// effect.
func (r *Reservation) Release() { r.settle([4]float64{}) }

// settle replaces the reservation's estimates by the actual use, in the
// windows that have not ended since (without going below zero), unless
// the reservation is nil or already settled.
func (r *Reservation) settle(actual [4]float64) {
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
	b.roll(b.now())
	for i := range b.limits {
		if l := &b.limits[i]; l.start.Equal(r.starts[i]) {
			l.used = max(l.used-(r.uses[i]-actual[i]), 0)
		}
	}
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
