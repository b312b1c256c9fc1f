package ragas

import (
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// judgeBase holds the metric id and its resolved judge.
type judgeBase struct {
	id     string
	judge  judge.Judge
	newSan func() judge.Sanitizer
}

func newJudgeBase(id string, p scorer.Params, deps judgemetric.Deps) (judgeBase, error) {
	j, ns, err := deps.Resolve(id, p)
	if err != nil {
		return judgeBase{}, err
	}
	return judgeBase{id: id, judge: j, newSan: ns}, nil
}

// Name returns the metric id.
func (b *judgeBase) Name() string { return b.id }

// JudgeName returns the configured judge the metric calls.
func (b *judgeBase) JudgeName() string { return b.judge.Name() }

func (b *judgeBase) caller() *judgemetric.Caller {
	return judgemetric.NewCaller(b.judge, b.newSan, b.id)
}

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
