package adk

import (
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
	"reflect"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

var twoRubrics = []any{
	map[string]any{"rubric_id": "concise", "text": "The response is concise."},
	"The response answers the question.",
}

func block(prop, verdict string) string {
	return "Property: " + prop + "\nEvidence: e\nRationale: because " + verdict + "\nVerdict: " + verdict + "\n\n"
}

func TestRubricGoldenAndSanitized(t *testing.T) {
	for _, id := range []string{MetricRubricFinalResponse, MetricRubricToolUse} {
		t.Run(id, func(t *testing.T) {
			ans := block("The response is concise.", "yes") + block("the response answers the question. ", "no")
			e := newEnv(ans, ans, ans)
			res, err := e.Score(t, id, map[string]any{"rubrics": twoRubrics, "num_samples": 3}, fixedInstance())
			if err != nil {
				t.Fatal(err)
			}
			if res.Score != 0.5 || res.Label != "passed" || res.Confidence != 1 {
				t.Fatalf("score %v label %q confidence %v", res.Score, res.Label, res.Confidence)
			}
			if res.Judge == nil || res.Judge.Calls != 3 {
				t.Fatalf("usage %+v, want 3 calls", res.Judge)
			}
			want := []scorer.Verdict{
				{Rubric: "The response is concise.", Pass: true, Reason: "because yes"},
				{Rubric: "The response answers the question.", Pass: false, Reason: "because no"},
			}
			if !reflect.DeepEqual(res.Verdicts, want) {
				t.Fatalf("verdicts %+v", res.Verdicts)
			}
			rs := res.Details["rubric_scores"].(map[string]any)
			if rs["concise"] != 1.0 || rs["rubric_2"] != 0.0 {
				t.Fatalf("rubric_scores %v", rs)
			}
			p := e.Requests()[0].Prompt
			if hasFinal := strings.Contains(p, "<final_answer>"); hasFinal != (id == MetricRubricFinalResponse) {
				t.Fatalf("final_answer section present = %v", hasFinal)
			}
			if !strings.Contains(e.Requests()[0].System, "*  The response is concise.") {
				t.Fatalf("system lacks the properties:\n%s", e.Requests()[0].System)
			}
			e.AssertSanitized(t, rawTokens)
			g := judgemetrictest.NewGuardEnv(Register, ans)
			if _, err := g.Score(t, id, map[string]any{"rubrics": twoRubrics, "num_samples": 1}, fixedInstance()); err != nil {
				t.Fatal(err)
			}
			judgemetrictest.AssertNoReservedMarker(t, g.Sanitizers)
			g.Golden(t, id, *update)
		})
	}
}

// The case score pools the rubric scores of all invocations; it is not
// the mean of the invocation means.
func TestRubricPooledMean(t *testing.T) {
	in := &scorer.Instance{
		Has: scorer.InPrompt | scorer.InResponse | scorer.InInvocations,
		Invocations: []scorer.Invocation{
			{UserContent: "q1", Response: "a1"},
			{UserContent: "q2", Response: "a2"},
		},
	}
	e := newEnv(
		block("The response is concise.", "yes")+block("The response answers the question.", "yes"),
		block("The response is concise.", "no"),
	)
	res, err := e.Score(t, MetricRubricFinalResponse, map[string]any{"rubrics": twoRubrics, "num_samples": 1}, in)
	if err != nil {
		t.Fatal(err)
	}
	if !near(res.Score, 2.0/3, 1e-15) {
		t.Fatalf("score %v, want 2/3 (pooled), not 0.5 (mean of means)", res.Score)
	}
	if got := res.Details["per_invocation"].([]any); got[0] != 1.0 || got[1] != 0.0 {
		t.Fatalf("per_invocation %v", got)
	}
	if rs := res.Details["rubric_scores"].(map[string]any); rs["concise"] != 0.5 || rs["rubric_2"] != 1.0 {
		t.Fatalf("rubric_scores %v", rs)
	}
	if len(res.Verdicts) != 3 || !strings.HasPrefix(res.Verdicts[2].Reason, "invocation 2: ") {
		t.Fatalf("verdicts %+v", res.Verdicts)
	}
}

// Majority vote: 2 yes / 1 no is yes with agreement 2/3; a tie is no;
// only "none" verdicts leave the rubric out.
func TestRubricMajorityVote(t *testing.T) {
	e := newEnv(
		block("The response is concise.", "Yes")+block("The response answers the question.", "maybe"),
		block("The response is concise.", "No")+block("The response answers the question.", "unclear"),
		block("The response is concise.", "yes."),
	)
	res, err := e.Score(t, MetricRubricFinalResponse, map[string]any{"rubrics": twoRubrics, "num_samples": 3}, fixedInstance())
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 1 || !near(res.Confidence, 2.0/3, 1e-15) || len(res.Verdicts) != 1 {
		t.Fatalf("score %v confidence %v verdicts %+v", res.Score, res.Confidence, res.Verdicts)
	}
	votes := res.Details["votes"].(map[string]any)
	if !reflect.DeepEqual(votes["rubric_2"], map[string]int{"yes": 0, "no": 0, "none": 2}) {
		t.Fatalf("votes %v", votes)
	}
}

func TestTallyMajority(t *testing.T) {
	cases := []struct {
		t         tally
		score, sh float64
		ok        bool
	}{
		{tally{yes: 3, no: 2}, 1, 0.6, true},
		{tally{yes: 2, no: 2}, 0, 0.5, true},
		{tally{yes: 1, no: 3, none: 1}, 0, 0.75, true},
		{tally{none: 4}, 0, 0, false},
	}
	for _, c := range cases {
		s, sh, ok := c.t.majority()
		if s != c.score || sh != c.sh || ok != c.ok {
			t.Errorf("%+v: got %v %v %v", c.t, s, sh, ok)
		}
	}
}

func TestRubricErrors(t *testing.T) {
	for name, answer := range map[string]string{
		"no blocks":          "The response looks fine.",
		"only none verdicts": block("The response is concise.", "unsure"),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := newEnv(answer).Score(t, MetricRubricFinalResponse, map[string]any{"rubrics": twoRubrics, "num_samples": 1}, fixedInstance())
			judgemetrictest.WantInvalid(t, err)
		})
	}
}

func TestParseRubricAnswer(t *testing.T) {
	got := parseRubricAnswer("Property:  A \nRationale: r1\nVerdict: Not applicable\nProperty: B Property: C\nRationale: r2\r\nVerdict: YES\nProperty: D\n")
	want := []rubricAnswer{
		{property: "A", rationale: "r1", verdict: verdictNo},
		{property: "B Property: C", rationale: "r2", verdict: verdictYes},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v", got)
	}
}

func TestRubricParams(t *testing.T) {
	e := newEnv()
	r := scorer.NewRegistry()
	if err := Register(r, e.Deps); err != nil {
		t.Fatal(err)
	}
	bad := []map[string]any{
		{},
		{"rubrics": []any{}},
		{"rubrics": "be nice"},
		{"rubrics": []any{map[string]any{"rubric_id": "a", "text": "x"}, map[string]any{"rubric_id": "a", "text": "y"}}},
		{"rubrics": []any{"x", "X "}},
		{"rubrics": []any{map[string]any{"rubric_id": "a"}}},
		{"rubrics": []any{map[string]any{"rubric_id": "a", "text": "x", "weight": 2}}},
		{"rubrics": []any{"two\nlines"}},
		{"rubrics": []any{"x"}, "num_samples": 0},
		{"rubrics": []any{"x"}, "num_samples": 21},
		{"rubrics": []any{"x"}, "mode": "f1"},
	}
	for _, p := range bad {
		if _, err := r.Build([]scorer.MetricConfig{{Name: MetricRubricToolUse, Params: p}}); err == nil {
			t.Errorf("params %v accepted", p)
		}
	}
	ms, err := r.Build([]scorer.MetricConfig{{Name: MetricRubricToolUse, Params: map[string]any{"rubrics": []any{"x"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if ms[0].(interface{ Unwrap() scorer.Metric }).Unwrap().(*rubricMetric).samples != 5 {
		t.Fatal("num_samples default is not 5")
	}
	if ms[0].(scorer.Judged).JudgeName() != "fake" {
		t.Fatal("judge name")
	}
}

// Sampled votes are drawn at a temperature above 0: the default when
// num_samples > 1, and a config error when set to 0.
func TestRubricSamplesAtTemperature(t *testing.T) {
	ans := block("The response is concise.", "yes") + block("the response answers the question. ", "no")
	e := newEnv(ans, ans, ans)
	if _, err := e.Score(t, MetricRubricFinalResponse, map[string]any{"rubrics": twoRubrics, "num_samples": 3}, fixedInstance()); err != nil {
		t.Fatal(err)
	}
	for i, r := range e.Requests() {
		if r.Temperature == nil || *r.Temperature != judgemetric.DefaultSamplingTemperature {
			t.Errorf("request %d: temperature %v, want %v", i, r.Temperature, judgemetric.DefaultSamplingTemperature)
		}
	}
	_, err := judgemetrictest.Build(Register, e.Deps, scorer.MetricConfig{Name: MetricRubricFinalResponse,
		Params: map[string]any{"rubrics": twoRubrics, "num_samples": 5, "temperature": 0}})
	if err == nil || !strings.Contains(err.Error(), "temperature > 0") {
		t.Errorf("num_samples 5 at temperature 0: %v", err)
	}
}

// A judge that paraphrases a rubric while answering in the order given
// still has its verdict counted for that rubric.
func TestRubricParaphrased(t *testing.T) {
	ans := block("Concise?", "yes") + block("Does it answer what was asked?", "no")
	e := newEnv(ans)
	res, err := e.Score(t, MetricRubricFinalResponse, map[string]any{"rubrics": twoRubrics, "num_samples": 1}, fixedInstance())
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 0.5 {
		t.Fatalf("score %v, want 0.5", res.Score)
	}
	if rs := res.Details["rubric_scores"].(map[string]any); rs["concise"] != 1.0 || rs["rubric_2"] != 0.0 {
		t.Fatalf("rubric_scores %v", rs)
	}
}
