package scorer

import (
	"strings"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// ReferencesConfig configures the reference store that gives live runs
// (canary traffic) their expected side, so reference-based metrics run
// online.
type ReferencesConfig struct {
	// Files are ADK eval sets (*.evalset.json, *.test.json) and
	// Vertex-style datasets (.jsonl, .json, .csv) holding the references.
	// Empty turns the lookup off.
	Files []string `yaml:"files"`
	// CaseIDAttribute is the trajectory attribute naming the eval case.
	CaseIDAttribute string `yaml:"case_id_attribute"`
	// MatchInput also looks a reference up by exact match of the run's
	// user input when the run names no case.
	MatchInput bool `yaml:"match_input"`
	// ReloadInterval is how often the files' modification times are
	// checked; changed files are loaded again.
	ReloadInterval time.Duration `yaml:"reload_interval"`
}

// DefaultReferencesConfig returns the defaults: no files, case ids in
// eval.case_id, no input matching, a 10s reload check.
func DefaultReferencesConfig() ReferencesConfig {
	return ReferencesConfig{
		Files:           []string{},
		CaseIDAttribute: "eval.case_id",
		ReloadInterval:  10 * time.Second,
	}
}

// Validate reports every invalid key, relative to "references".
func (c ReferencesConfig) Validate() error {
	var v errs.Checks
	for i, f := range c.Files {
		v.Check(strings.TrimSpace(f) == "", "references.files[%d]: must not be empty", i)
	}
	v.Check(c.CaseIDAttribute == "", "references.case_id_attribute: must not be empty")
	v.Check(c.ReloadInterval <= 0, "references.reload_interval: must be > 0, got %s", c.ReloadInterval)
	return v.Err()
}
