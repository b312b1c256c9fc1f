package judgemetric

import (
	"fmt"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// Deps are what judge metric factories need besides their parameters.
type Deps struct {
	// Judges maps configured judge names to judges (with their fallbacks
	// already resolved).
	Judges map[string]judge.Judge
	// DefaultJudge is used by a metric whose params name no judge.
	DefaultJudge string
	// Sanitizers returns the sanitizer factory for a metric id: redaction,
	// the metric's field allow-list and the data envelope. Nil means
	// content passes unchanged (tests only).
	Sanitizers func(metric string) func() judge.Sanitizer
	// Baselines gives the pairwise metrics the baseline run of a live
	// run; nil offline, where the baseline is a dataset column.
	Baselines Baselines
}

// Resolve returns the judge named by the metric's "judge" parameter (or
// the default judge) and the metric's sanitizer factory.
func (d Deps) Resolve(metric string, params scorer.Params) (judge.Judge, func() judge.Sanitizer, error) {
	name, err := params.String("judge", d.DefaultJudge)
	if err != nil {
		return nil, nil, err
	}
	if name == "" {
		if len(d.Judges) == 0 {
			return nil, nil, fmt.Errorf(`%s is judged by an LLM and no judge is configured: define one under judge.judges in the config (see docs/judge.md)`, metric)
		}
		return nil, nil, fmt.Errorf(`param "judge": no judge named and no default judge configured`)
	}
	j, ok := d.Judges[name]
	if !ok {
		return nil, nil, fmt.Errorf(`param "judge": unknown judge %q`, name)
	}
	newSan := func() judge.Sanitizer { return passthrough{} }
	if d.Sanitizers != nil {
		if f := d.Sanitizers(metric); f != nil {
			newSan = f
		}
	}
	return j, newSan, nil
}

// passthrough is the Sanitizer of Deps without Sanitizers: content passes
// unchanged inside plain tags. Only tests use it.
type passthrough struct{}

func (passthrough) Untrusted(field, text string) string {
	return "<" + field + ">\n" + text + "\n</" + field + ">"
}
func (p passthrough) UntrustedPieces(field string, pieces []judge.Piece) string {
	return p.Untrusted(field, judge.JoinPieces(pieces))
}
func (passthrough) SystemNote() string          { return "" }
func (passthrough) CheckAnswer(string) []string { return nil }
func (passthrough) Flags() []string             { return nil }
