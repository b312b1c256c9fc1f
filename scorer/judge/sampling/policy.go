package sampling

import (
	"fmt"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// DefaultRate is the sampling rate of a judge metric whose config sets no
// rate: a judge metric that is configured judges every run (that passes
// its filter) until a lower rate is set.
const DefaultRate = 1.0

// Config is one judge metric's sampling policy:
//
//	sampling:
//	  rate: 0.05                 # fraction of runs judged; default 1
//	  filter:
//	    service: [checkout, "search-*"]
//	    environment: [prod]
//	    attributes: {tenant: [acme]}
//	  always:
//	    - failed: true
//	    - score_below: {metric: tool_args_valid, threshold: 1}
//	      max_per_minute: 10
type Config struct {
	// Rate is the fraction of runs judged, in [0, 1]; unset means
	// DefaultRate. Rate 0 judges only the runs the always rules select.
	Rate *float64 `yaml:"rate,omitempty"`
	// Filter selects the runs the metric applies to; others are
	// "filtered", whatever the rules say.
	Filter Filter `yaml:"filter,omitempty"`
	// Always are the always-judge rules, tried in order.
	Always []RuleConfig `yaml:"always,omitempty"`
}

// EffectiveRate returns Rate, or DefaultRate when it is unset.
func (c Config) EffectiveRate() float64 {
	if c.Rate == nil {
		return DefaultRate
	}
	return *c.Rate
}

// Validate reports every invalid key ("rate", "filter.service[1]",
// "always[0].max_per_minute", ...).
func (c Config) Validate() error {
	var v errs.Checks
	if r := c.Rate; r != nil {
		v.Check(!(*r >= 0 && *r <= 1), "rate: must be in [0, 1], got %v", *r)
	}
	v.Add(errs.Prefix("filter.", c.Filter.Validate()))
	seen := make(map[string]int, len(c.Always))
	for i, rc := range c.Always {
		if e := rc.Validate(); e != nil {
			v.Add(errs.Prefix(fmt.Sprintf("always[%d].", i), e))
			continue
		}
		name := rc.RuleName()
		j, dup := seen[name]
		v.Check(dup, "always[%d].name: duplicate rule %q (also always[%d]); set name to tell them apart", i, name, j)
		if !dup {
			seen[name] = i
		}
	}
	return v.Err()
}

// Decision is a Policy's verdict on one run.
type Decision struct {
	// Outcome is sampled or always (judge the run), sampled_out or
	// filtered (do not).
	Outcome Outcome
	// Rule names the always-judge rule that selected the run. With
	// sampled_out and Capped, it names the first rule the run met while
	// that rule was over its cap.
	Rule string
	// Capped is set when the run met an always-judge rule that was over
	// its max_per_minute and no other rule or the rate selected it.
	Capped bool
}

// Judge reports whether the run is to be judged.
func (d Decision) Judge() bool { return d.Outcome == OutcomeSampled || d.Outcome == OutcomeAlways }

// Policy decides which runs one judge metric judges. It is safe for
// concurrent use.
type Policy struct {
	rate   float64
	filter compiledFilter
	rules  []rule
	now    func() time.Time
}

// New builds a Policy from a config; now is the clock of the rules' caps
// (nil for time.Now).
func New(c Config, now func() time.Time) (*Policy, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if now == nil {
		now = time.Now
	}
	p := &Policy{rate: c.EffectiveRate(), filter: c.Filter.compile(), now: now}
	for _, rc := range c.Always {
		p.rules = append(p.rules, newRule(rc))
	}
	return p, nil
}

// Rate returns the policy's sampling rate.
func (p *Policy) Rate() float64 { return p.rate }

// Rules returns the names of the policy's always-judge rules in order: the
// values Decision.Rule can take, for example to initialise label values.
func (p *Policy) Rules() []string {
	names := make([]string, len(p.rules))
	for i := range p.rules {
		names[i] = p.rules[i].name
	}
	return names
}

// Decide returns whether to judge run:
//
//  1. a run the filter excludes is filtered;
//  2. a run in the sample (Sampled(run.TraceID, rate)) is sampled; it uses
//     no rule's cap;
//  3. otherwise the first rule the run meets and whose cap has room
//     selects it (always, Rule names the rule); a rule over its cap is
//     skipped;
//  4. otherwise the run is sampled_out.
func (p *Policy) Decide(run Run) Decision {
	if !p.filter.match(&run) {
		return Decision{Outcome: OutcomeFiltered}
	}
	if Sampled(run.TraceID, p.rate) {
		return Decision{Outcome: OutcomeSampled}
	}
	d := Decision{Outcome: OutcomeSampledOut}
	var now time.Time // read once, at the first rule the run meets
	for i := range p.rules {
		ru := &p.rules[i]
		if !ru.match(&run) {
			continue
		}
		if now.IsZero() {
			now = p.now()
		}
		if ru.cap.take(now) {
			return Decision{Outcome: OutcomeAlways, Rule: ru.name}
		}
		if !d.Capped {
			d.Rule, d.Capped = ru.name, true
		}
	}
	return d
}
