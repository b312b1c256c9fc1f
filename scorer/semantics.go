package scorer

import (
	"fmt"
	"math"
	"slices"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// Direction says which way a metric's score gets better.
type Direction string

// Directions.
const (
	HigherIsBetter Direction = "higher_is_better"
	LowerIsBetter  Direction = "lower_is_better"
	// DirectionNone is a score that is neither better high nor low (a
	// count, a verbosity scale centred on 0).
	DirectionNone Direction = "none"
)

// Unit is what a metric's score measures.
type Unit string

// Units.
const (
	UnitRatio   Unit = "ratio"   // a share or probability, 0 to 1
	UnitSeconds Unit = "seconds" // a duration
	UnitCount   Unit = "count"   // a number of things, 0 or more
	UnitRating  Unit = "rating"  // a scale with bounds, e.g. 1 to 5
	UnitNone    Unit = "none"    // anything else
)

// PassRule is a metric's pass verdict: a score passes when
// `score Op Threshold` holds.
type PassRule struct {
	Threshold float64 `yaml:"threshold"`
	// Op is the comparison: ">=", ">", "<=" or "<". In configuration,
	// "none" removes the metric's built-in rule.
	Op string `yaml:"comparison"`
}

// opNone, as a configured comparison, removes a built-in pass rule.
const opNone = "none"

// Passes reports whether score passes the rule.
func (p *PassRule) Passes(score float64) bool {
	switch p.Op {
	case ">=":
		return score >= p.Threshold
	case ">":
		return score > p.Threshold
	case "<=":
		return score <= p.Threshold
	case "<":
		return score < p.Threshold
	}
	return false
}

// Verdict is the Result.Passed of score: nil without a rule.
func (p *PassRule) Verdict(score float64) *bool {
	if p == nil {
		return nil
	}
	v := p.Passes(score)
	return &v
}

func (p *PassRule) validate() error {
	switch p.Op {
	case ">=", ">", "<=", "<":
	default:
		return fmt.Errorf(`pass.comparison: must be ">=", ">", "<=", "<" or "none", got %q`, p.Op)
	}
	if math.IsNaN(p.Threshold) || math.IsInf(p.Threshold, 0) {
		return fmt.Errorf("pass.threshold: must be a finite number, got %v", p.Threshold)
	}
	return nil
}

// Semantics is what a metric's score means: which way is better, its
// unit and bounds, and the rule that turns a score into a pass/fail
// verdict.
type Semantics struct {
	Direction Direction
	Unit      Unit
	// Min and Max bound the score; NaN means unbounded on that side.
	// Ratios are [0, 1], seconds and counts [0, NaN], ratings carry
	// their scale's ends.
	Min, Max float64
	// Pass is the pass rule; nil when the metric has none (its results'
	// Passed is nil).
	Pass *PassRule
	// Description is one line saying what the score is.
	Description string
}

// Described is a metric that declares its own semantics (one whose
// semantics depend on its parameters, such as a rating template's
// scale). Registry.Build wraps every metric it builds in one.
type Described interface {
	Metric
	Semantics() Semantics
}

// SemanticsOf returns m's semantics: its declared ones when it is
// Described, else "none" in every respect.
func SemanticsOf(m Metric) Semantics {
	if d, ok := m.(Described); ok {
		return d.Semantics().normal()
	}
	return Semantics{}.normal()
}

// Ratio declares a score between 0 and 1.
func Ratio(dir Direction, desc string) Semantics {
	return Semantics{Direction: dir, Unit: UnitRatio, Min: 0, Max: 1, Description: desc}
}

// Seconds declares a duration, lower is better.
func Seconds(desc string) Semantics {
	return Semantics{Direction: LowerIsBetter, Unit: UnitSeconds, Min: 0, Max: math.NaN(), Description: desc}
}

// Count declares a count, 0 or more.
func Count(dir Direction, desc string) Semantics {
	return Semantics{Direction: dir, Unit: UnitCount, Min: 0, Max: math.NaN(), Description: desc}
}

// Rating declares a scale from lo to hi.
func Rating(dir Direction, lo, hi float64, desc string) Semantics {
	return Semantics{Direction: dir, Unit: UnitRating, Min: lo, Max: hi, Description: desc}
}

// WithPass returns s with the pass rule `score op threshold`.
func (s Semantics) WithPass(op string, threshold float64) Semantics {
	s.Pass = &PassRule{Threshold: threshold, Op: op}
	return s
}

// normal fills what a zero Semantics leaves unset: direction and unit
// "none", unbounded.
func (s Semantics) normal() Semantics {
	if s.Direction == "" {
		s.Direction = DirectionNone
	}
	if s.Unit == "" {
		s.Unit, s.Min, s.Max = UnitNone, math.NaN(), math.NaN()
	}
	return s
}

// unitBounds are the bounds a unit has unless configured.
func unitBounds(u Unit) (lo, hi float64) {
	switch u {
	case UnitRatio:
		return 0, 1
	case UnitSeconds, UnitCount:
		return 0, math.NaN()
	}
	return math.NaN(), math.NaN()
}

// Validate reports every invalid field, named by its configuration key.
func (s Semantics) Validate() error {
	var v errs.Checks
	v.Check(!slices.Contains([]Direction{HigherIsBetter, LowerIsBetter, DirectionNone}, s.Direction),
		`direction: must be %q, %q or %q, got %q`, HigherIsBetter, LowerIsBetter, DirectionNone, s.Direction)
	v.Check(s.Unit == UnitRating && (math.IsNaN(s.Min) || math.IsNaN(s.Max)), "min, max: a rating needs both bounds")
	v.Check(!slices.Contains([]Unit{UnitRatio, UnitSeconds, UnitCount, UnitRating, UnitNone}, s.Unit),
		`unit: must be %q, %q, %q, %q or %q, got %q`, UnitRatio, UnitSeconds, UnitCount, UnitRating, UnitNone, s.Unit)
	v.Check(s.Min > s.Max, "min: %v is above max %v", s.Min, s.Max)
	v.Check(math.IsInf(s.Min, 0) || math.IsInf(s.Max, 0), "min, max: must be finite (leave unset for no bound)")
	if s.Pass != nil {
		v.Add(s.Pass.validate())
	}
	return v.Err()
}

// SemanticsConfig overrides a metric's declared semantics; an unset key
// keeps the declared value. Setting unit resets the bounds to the unit's
// own (ratio 0–1, seconds and counts from 0) unless min or max is set.
type SemanticsConfig struct {
	Direction   Direction `yaml:"direction,omitempty"`
	Unit        Unit      `yaml:"unit,omitempty"`
	Min         *float64  `yaml:"min,omitempty"`
	Max         *float64  `yaml:"max,omitempty"`
	Pass        *PassRule `yaml:"pass,omitempty"`
	Description string    `yaml:"description,omitempty"`
}

// CheckSemantics reports the invalid overrides that need no declared
// semantics to be seen (Registry.Build checks the result against them),
// named by key.
func (c SemanticsConfig) CheckSemantics() error {
	_, err := c.apply(Semantics{})
	return err
}

// apply returns s with c's overrides, validated.
func (c SemanticsConfig) apply(s Semantics) (Semantics, error) {
	s = s.normal()
	if c.Direction != "" {
		s.Direction = c.Direction
	}
	if c.Unit != "" {
		s.Unit = c.Unit
		s.Min, s.Max = unitBounds(c.Unit)
	}
	if c.Min != nil {
		s.Min = *c.Min
	}
	if c.Max != nil {
		s.Max = *c.Max
	}
	if c.Pass != nil {
		s.Pass = nil
		if c.Pass.Op != opNone {
			p := *c.Pass
			s.Pass = &p
		}
	}
	if c.Description != "" {
		s.Description = c.Description
	}
	return s, s.Validate()
}
