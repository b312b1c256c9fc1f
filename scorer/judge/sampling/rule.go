package sampling

import (
	"math"
	"sync"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// DefaultMaxPerMinute caps an always-judge rule that sets no
// max_per_minute.
const DefaultMaxPerMinute = 60

// UnsupportedFactsMetric is the deterministic metric whose score the
// unsupported_facts_above rule reads.
const UnsupportedFactsMetric = "unsupported_facts"

// RuleConfig is one always-judge rule: a run that meets its condition is
// judged whatever the sampling rate, up to MaxPerMinute runs a minute.
// Exactly one condition must be set:
//
//	always:
//	  - failed: true                    # the run failed
//	  - tool_errors: true               # a tool call returned an error
//	    max_per_minute: 20
//	  - unsupported_facts_above: 0      # the unsupported_facts score is above 0
//	  - score_below: {metric: tool_args_valid, threshold: 1}
type RuleConfig struct {
	// Name labels the rule in decisions, ledger entries and metrics. The
	// default is the condition's key ("failed", "tool_errors",
	// "unsupported_facts_above"), or "score_below:<metric>".
	Name string `yaml:"name,omitempty"`

	Failed                bool        `yaml:"failed,omitempty"`
	ToolErrors            bool        `yaml:"tool_errors,omitempty"`
	UnsupportedFactsAbove *float64    `yaml:"unsupported_facts_above,omitempty"`
	ScoreBelow            *ScoreBelow `yaml:"score_below,omitempty"`

	// MaxPerMinute caps the runs this rule selects in any minute (a fixed
	// window); past it, a run falls through to the next rule and then to
	// sampling. Unset means DefaultMaxPerMinute; it must be > 0.
	MaxPerMinute *int `yaml:"max_per_minute,omitempty"`
}

// ScoreBelow is the condition "the deterministic score of Metric is below
// Threshold". A run that Metric did not score does not meet it.
type ScoreBelow struct {
	Metric    string  `yaml:"metric"`
	Threshold float64 `yaml:"threshold"`
}

// RuleName returns the rule's label: Name, or the default for its
// condition ("" when no condition is set).
func (c RuleConfig) RuleName() string {
	if c.Name != "" {
		return c.Name
	}
	switch {
	case c.Failed:
		return "failed"
	case c.ToolErrors:
		return "tool_errors"
	case c.UnsupportedFactsAbove != nil:
		return "unsupported_facts_above"
	case c.ScoreBelow != nil:
		return "score_below:" + c.ScoreBelow.Metric
	}
	return ""
}

// Validate reports every invalid key of the rule; keys are relative to the
// rule (the caller adds "always[i].").
func (c RuleConfig) Validate() error {
	n := 0
	for _, set := range []bool{c.Failed, c.ToolErrors, c.UnsupportedFactsAbove != nil, c.ScoreBelow != nil} {
		if set {
			n++
		}
	}
	var v errs.Checks
	v.Check(n == 0, "needs one condition: failed, tool_errors, unsupported_facts_above or score_below")
	v.Check(n > 1, "sets more than one condition: give each condition its own rule")
	if u := c.UnsupportedFactsAbove; u != nil {
		v.Check(!finite(*u), "unsupported_facts_above: must be a finite number, got %v", *u)
	}
	if s := c.ScoreBelow; s != nil {
		v.Check(s.Metric == "", "score_below.metric: must not be empty")
		v.Check(!finite(s.Threshold), "score_below.threshold: must be a finite number, got %v", s.Threshold)
	}
	if m := c.MaxPerMinute; m != nil {
		v.Check(*m <= 0, "max_per_minute: must be > 0, got %d", *m)
	}
	return v.Err()
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// maxPerMinute is the rule's effective cap.
func (c RuleConfig) maxPerMinute() int {
	if c.MaxPerMinute == nil {
		return DefaultMaxPerMinute
	}
	return *c.MaxPerMinute
}

// ruleKind is the condition of a rule.
type ruleKind uint8

const (
	ruleFailed ruleKind = iota + 1
	ruleToolErrors
	ruleScoreAbove
	ruleScoreBelow
)

// rule is a validated RuleConfig with its cap.
type rule struct {
	name      string
	kind      ruleKind
	metric    string  // for the score conditions
	threshold float64 // for the score conditions
	cap       *limiter
}

func newRule(c RuleConfig) rule {
	ru := rule{name: c.RuleName(), cap: &limiter{max: c.maxPerMinute()}}
	switch {
	case c.Failed:
		ru.kind = ruleFailed
	case c.ToolErrors:
		ru.kind = ruleToolErrors
	case c.UnsupportedFactsAbove != nil:
		ru.kind, ru.metric, ru.threshold = ruleScoreAbove, UnsupportedFactsMetric, *c.UnsupportedFactsAbove
	case c.ScoreBelow != nil:
		ru.kind, ru.metric, ru.threshold = ruleScoreBelow, c.ScoreBelow.Metric, c.ScoreBelow.Threshold
	}
	return ru
}

// match reports whether the run meets the rule's condition. A score the
// run lacks, or a NaN score, meets no condition.
func (ru *rule) match(r *Run) bool {
	switch ru.kind {
	case ruleFailed:
		return r.Failed
	case ruleToolErrors:
		return r.ToolErrors > 0
	case ruleScoreAbove:
		s, ok := r.score(ru.metric)
		return ok && s > ru.threshold
	case ruleScoreBelow:
		s, ok := r.score(ru.metric)
		return ok && s < ru.threshold
	}
	return false
}

// limiter is a fixed-window counter: at most max takes per minute. A
// window opens at the first take after the previous one ended; a clock
// that steps back opens a new window.
type limiter struct {
	max int

	mu      sync.Mutex
	started bool
	start   time.Time
	n       int
}

// take counts one run in the window holding now, and reports whether the
// window still had room for it.
func (l *limiter) take(now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if d := now.Sub(l.start); !l.started || d >= time.Minute || d < 0 {
		l.started, l.start, l.n = true, now, 0
	}
	if l.n >= l.max {
		return false
	}
	l.n++
	return true
}
