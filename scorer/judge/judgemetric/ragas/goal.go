package ragas

import (
	"context"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// ParamWithReference selects ragas_agent_goal_accuracy's variant: true
// compares the outcome with Instance.Reference (WithReference; the metric
// then needs a reference), false with the goal the judge infers
// (WithoutReference). Absent: use the reference when the instance has
// one, else infer the goal.
const ParamWithReference = "with_reference"

// goalAccuracy is ragas_agent_goal_accuracy (metrics.md §8.4, ragas
// _goal_accuracy.py AgentGoalAccuracyWithReference / WithoutReference):
// did the agent achieve the user's goal? Calls: 2 (infer {user_goal,
// end_state} from the workflow; compare desired and arrived outcome →
// {reason, verdict}). desired_outcome is the reference (with reference)
// or the inferred user_goal; arrived_outcome is the inferred end_state.
// Score = float(verdict).
type goalAccuracy struct {
	judgeBase
	withRef *bool // nil: decided per instance
}

func newGoalAccuracy(p scorer.Params, deps judgemetric.Deps) (scorer.Metric, error) {
	b, err := judgemetric.NewBase(MetricAgentGoalAccuracy, p, deps, ParamWithReference)
	if err != nil {
		return nil, err
	}
	m := &goalAccuracy{judgeBase: judgeBase{b}}
	if p[ParamWithReference] != nil {
		withRef, err := p.Bool(ParamWithReference, false)
		if err != nil {
			return nil, err
		}
		m.withRef = &withRef
	}
	return m, nil
}

// Needs returns the prompt (ragas needs only the user_input messages,
// and a sample may end with the user's message), and the reference when
// with_reference is true.
func (m *goalAccuracy) Needs() scorer.Inputs {
	n := scorer.InPrompt
	if m.withRef != nil && *m.withRef {
		n |= scorer.InReference
	}
	return n
}

// Score infers the goal and end state and compares the outcomes.
func (m *goalAccuracy) Score(ctx context.Context, in *scorer.Instance) (scorer.Result, error) {
	useRef := in.Has&scorer.InReference != 0
	if m.withRef != nil {
		useRef = *m.withRef
	}
	if useRef && in.Has&scorer.InReference == 0 {
		return scorer.Result{}, scorer.ErrNotApplicable
	}
	c := m.Caller()
	flow := workflow(in)
	goal, err := judgemetric.Ask(ctx, c, func(s judge.Sanitizer) *judge.Request {
		return inferGoal.request(struct {
			Workflow string `json:"workflow"`
		}{s.UntrustedPieces(FieldConversation, flow)})
	}, parseGoal)
	if err != nil {
		return scorer.Result{}, err
	}
	cmp, err := judgemetric.Ask(ctx, c, func(s judge.Sanitizer) *judge.Request {
		desired := s.Untrusted(FieldConversation, goal.UserGoal)
		if useRef {
			desired = s.Untrusted(FieldReference, in.Reference)
		}
		return compareOutcome.request(struct {
			Desired string `json:"desired_outcome"`
			Arrived string `json:"arrived_outcome"`
		}{desired, s.Untrusted(FieldConversation, goal.EndState)})
	}, parseCompare)
	if err != nil {
		return scorer.Result{}, err
	}
	label := "not_achieved"
	if cmp.score == 1 {
		label = "achieved"
	}
	return c.Finish(scorer.Result{
		Score:       cmp.score,
		Label:       label,
		Explanation: judgemetric.Explanation(cmp.reason),
		Details:     map[string]any{"with_reference": useRef},
	}), nil
}
