package judgemetric

import (
	"context"
	"time"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// Baseline is the other side of an online pairwise comparison: the latest
// run of the same eval case, with the same user input, by the baseline
// release.
type Baseline struct {
	TraceID  string
	Version  string // the baseline release
	Prompt   string
	Response string
	Start    time.Time
}

// Baselines finds the baseline run of a live (canary) run for the
// pairwise metrics.
type Baselines interface {
	// Check reports, without blocking, why in cannot be compared with a
	// baseline run (a *scorer.NotApplicableError: no case id, no release,
	// a run of the baseline release itself), or nil.
	Check(in *scorer.Instance) error
	// Find returns the latest baseline run of in's case and user input,
	// or a *scorer.NotApplicableError ("no_baseline") when there is none.
	Find(ctx context.Context, in *scorer.Instance) (Baseline, error)
}
