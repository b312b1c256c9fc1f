package ragas

import (
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// judgeBase is the metric id and its resolved judge.
type judgeBase struct{ judgemetric.Base }

// Register adds the package's metrics to r. Each factory resolves the
// metric's judge from its "judge" parameter (or deps' default judge) and
// rejects unknown parameters.
func Register(r *scorer.Registry, deps judgemetric.Deps) error {
	return judgemetric.RegisterAll(r, deps,
		judgemetric.Entry{ID: MetricTopicAdherence, New: newTopicAdherence, Semantics: judgemetric.Share()},
		judgemetric.Entry{ID: MetricAgentGoalAccuracy, New: newGoalAccuracy, Semantics: judgemetric.Binary()},
	)
}

// JudgesDialogue marks both metrics as reading a closed session's whole
// dialogue, as they read a Ragas multi-turn sample.
func (*judgeBase) JudgesDialogue() {}
