package sampling

import "testing"

func TestOutcomes(t *testing.T) {
	want := map[Outcome]string{
		OutcomeSampled: "sampled", OutcomeAlways: "always", OutcomeSampledOut: "sampled_out",
		OutcomeFiltered: "filtered", OutcomeScored: "scored", OutcomeCached: "cached",
		OutcomeOverBudget: "over_budget", OutcomeQueueFull: "queue_full", OutcomeJudgeError: "judge_error",
		OutcomeNotApplicable: "not_applicable", OutcomeShuttingDown: "shutting_down",
	}
	for o, s := range want {
		if string(o) != s {
			t.Errorf("outcome %q, want label value %q", o, s)
		}
	}
	ledger := map[Outcome]bool{}
	for _, o := range LedgerOutcomes() {
		if ledger[o] {
			t.Errorf("LedgerOutcomes lists %q twice", o)
		}
		ledger[o] = true
		if !o.Final() {
			t.Errorf("%q is listed as a ledger outcome but is not Final", o)
		}
	}
	if len(ledger) != 9 {
		t.Errorf("LedgerOutcomes has %d outcomes, want 9", len(ledger))
	}
	for _, o := range DecisionOutcomes() {
		judge := Decision{Outcome: o}.Judge()
		if judge == o.Final() {
			t.Errorf("decision outcome %q: Judge %v, Final %v; want exactly one", o, judge, o.Final())
		}
	}
	if Outcome("bogus").Final() {
		t.Error("an unknown outcome is Final")
	}
}

func TestDecisionEntry(t *testing.T) {
	for _, tc := range []struct {
		d    Decision
		want Entry
	}{
		{Decision{Outcome: OutcomeFiltered}, Entry{Metric: "m", Outcome: OutcomeFiltered}},
		{Decision{Outcome: OutcomeSampledOut}, Entry{Metric: "m", Outcome: OutcomeSampledOut}},
		{Decision{Outcome: OutcomeSampledOut, Rule: "failed", Capped: true}, Entry{Metric: "m", Outcome: OutcomeSampledOut, Rule: "failed", Reason: ReasonRuleCapped}},
		{Decision{Outcome: OutcomeAlways, Rule: "tool_errors"}, Entry{Metric: "m", Outcome: OutcomeAlways, Rule: "tool_errors"}},
	} {
		if got := tc.d.Entry("m"); got != tc.want {
			t.Errorf("%+v.Entry = %+v, want %+v", tc.d, got, tc.want)
		}
	}
}
