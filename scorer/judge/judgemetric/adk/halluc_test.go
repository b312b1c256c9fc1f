package adk

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

const validatorTwo = "sentence: It is sunny in Paris.\nlabel: supported\nrationale: tool says sunny\nsupporting_excerpt: sunny\ncontradicting_excerpt: null\n\nsentence: Enjoy!\nlabel: not_applicable\nrationale: greeting\nsupporting_excerpt: null\ncontradicting_excerpt: null"

func TestHallucinationsSingleTurn(t *testing.T) {
	e := newEnv("<sentence>It is sunny in Paris. RAWRESPONSE</sentence>\n<sentence>Enjoy!</sentence>", validatorTwo)
	res, err := e.Score(t, MetricHallucinations, nil, fixedInstance())
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 1 || res.Label != "passed" {
		t.Fatalf("score %v label %q, want 1 passed", res.Score, res.Label)
	}
	if res.Judge == nil || res.Judge.Calls != 2 {
		t.Fatalf("judge usage %+v, want 2 calls", res.Judge)
	}
	if len(e.Requests()) != 2 {
		t.Fatalf("requests = %d", len(e.Requests()))
	}
	// the validator gets the segmented sentences re-wrapped
	if !strings.Contains(e.Requests()[1].Prompt, "<sentence>Enjoy!</sentence>") {
		t.Fatalf("validator prompt lacks the sentences:\n%s", e.Requests()[1].Prompt)
	}
	e.AssertSanitized(t, rawTokens)
	judgemetrictest.GuardGolden(t, Register, MetricHallucinations, MetricHallucinations, nil, fixedInstance(), *update,
		"<sentence>It is sunny in Paris. RAWRESPONSE</sentence>\n<sentence>Enjoy!</sentence>", validatorTwo)
}

// Invocation scores are averaged; an invocation without a response is
// not judged and not counted.
func TestHallucinationsPerInvocationMean(t *testing.T) {
	in := &scorer.Instance{
		Has: scorer.InPrompt | scorer.InResponse | scorer.InInvocations,
		Invocations: []scorer.Invocation{
			{UserContent: "q1", Response: "a1"},
			{UserContent: "q2", Response: ""},
			{UserContent: "q3", Response: "a3"},
		},
	}
	e := newEnv(
		"<sentence>a1</sentence>", "sentence: a1\nlabel: unsupported\nrationale: r\nsupporting_excerpt: null\ncontradicting_excerpt: null",
		"<sentence>x</sentence><sentence>y</sentence>",
		"sentence: x\nlabel: supported\nrationale: r\nsupporting_excerpt: e\ncontradicting_excerpt: null\nsentence: y\nlabel: contradictory\nrationale: r\nsupporting_excerpt: null\ncontradicting_excerpt: e",
	)
	res, err := e.Score(t, MetricHallucinations, map[string]any{"threshold": 0.3}, in)
	if err != nil {
		t.Fatal(err)
	}
	// invocation 1: 0; invocation 3: 0.5 -> 0.25
	if res.Score != 0.25 || res.Label != "failed" {
		t.Fatalf("score %v label %q, want 0.25 failed", res.Score, res.Label)
	}
	if got := res.Details["per_invocation"].([]float64); !reflect.DeepEqual(got, []float64{0, 0.5}) {
		t.Fatalf("per_invocation = %v", got)
	}
	if !strings.Contains(res.Explanation, "contradictory") {
		t.Fatalf("explanation %q", res.Explanation)
	}
}

func TestHallucinationsErrors(t *testing.T) {
	cases := []struct {
		name    string
		answers []string
	}{
		{"segmenter without sentences", []string{"I cannot do that."}},
		{"validator without blocks", []string{"<sentence>a</sentence>", "all good"}},
		{"validator with unknown labels only", []string{"<sentence>a</sentence>", "sentence: a\nlabel: maybe\nrationale: r\nsupporting_excerpt: null\ncontradicting_excerpt: null"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := newEnv(c.answers...).Score(t, MetricHallucinations, nil, fixedInstance())
			judgemetrictest.WantInvalid(t, err)
		})
	}
	in := &scorer.Instance{Has: scorer.InResponse | scorer.InInvocations, Invocations: []scorer.Invocation{{UserContent: "q"}}}
	if _, err := newEnv().Score(t, MetricHallucinations, nil, in); !errors.Is(err, scorer.ErrNotApplicable) {
		t.Fatalf("no response: err = %v, want ErrNotApplicable", err)
	}
}

func TestParseValidations(t *testing.T) {
	got := parseValidations("  Sentence: A.\nLABEL: Supported \nrationale: multi\nline\nsupporting_excerpt: NULL\ncontradicting_excerpt: c\nmore\nsentence: B\nlabel: disputed\nrationale:\nsupporting_excerpt: s\ncontradicting_excerpt: null  ")
	want := []validation{
		{Sentence: "A.", Label: "Supported", Rationale: "multi\nline", ContradictingExcerpt: "c\nmore"},
		{Sentence: "B", Label: "disputed", SupportingExcerpt: "s"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}
	if vs := parseValidations("sentence: A\nlabel: supported\nrationale: r"); len(vs) != 0 {
		t.Fatalf("incomplete block parsed: %v", vs)
	}
}

func TestParseSentences(t *testing.T) {
	got := parseSentences("x<sentence>a\nb</sentence> <sentence></sentence><sentence>c")
	if !reflect.DeepEqual(got, []string{"a\nb", ""}) {
		t.Fatalf("got %q", got)
	}
}

func TestPlanSteps(t *testing.T) {
	events := []event{{text: "Let me look."}, {calls: []agentrun.ToolCall{{Name: "t"}}}, {text: "Found it."}}
	if got := planSteps(events, "Final.", false); len(got) != 1 || got[0].response != "Final." || len(got[0].prior) != 3 {
		t.Fatalf("final only: %+v", got)
	}
	got := planSteps(events, "Final.", true)
	if len(got) != 3 || got[0].response != "Let me look." || len(got[0].prior) != 0 ||
		got[1].response != "Found it." || len(got[1].prior) != 2 || len(got[2].prior) != 3 {
		t.Fatalf("intermediate: %+v", got)
	}
	if got := planSteps(nil, "", true); len(got) != 0 {
		t.Fatalf("nothing to judge: %+v", got)
	}
}

// The context layout of metrics.md §6.4.5 with an identity wrap.
func TestBuildContextLayout(t *testing.T) {
	id := func(_, s string) string { return s }
	h := header{agent: "root", instructions: "Be brief.", user: "Hi", tools: nil}
	calls := []agentrun.ToolCall{{Name: "f", Arguments: `{"q":"é<"}`, Result: "ok"}}
	got := buildContext(h, append([]event{{text: "Checking."}}, callEvents(calls)...), id)
	want := "Developer instructions:\nroot:\nBe brief.\n\nUser prompt:\nHi\n\nTool definitions:\nAgent has no tools.\n\nChecking.\n\ntool_calls:\n[\n  {\n    \"args\": {\n      \"q\": \"\\u00e9<\"\n    },\n    \"name\": \"f\"\n  }\n]\n\ntool_outputs:\n[\n  {\n    \"name\": \"f\",\n    \"response\": {\n      \"result\": \"ok\"\n    }\n  }\n]\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestHallucinationsParams(t *testing.T) {
	e := newEnv()
	r := scorer.NewRegistry()
	if err := Register(r, e.Deps); err != nil {
		t.Fatal(err)
	}
	for _, p := range []map[string]any{
		{"evaluate_intermediate_nl_responses": "yes"},
		{"threshold": 2.0},
		{"num_samples": 3},
		{"judge": "nope"},
	} {
		if _, err := r.Build([]scorer.MetricConfig{{Name: MetricHallucinations, Params: p}}); err == nil {
			t.Errorf("params %v accepted", p)
		}
	}
}

func TestHallucinationsLabelCounts(t *testing.T) {
	val := validatorTwo + "\n\nsentence: x\nlabel: Weird\nrationale: r\nsupporting_excerpt: null\ncontradicting_excerpt: null"
	res, err := newEnv("<sentence>a</sentence>", val).Score(t, MetricHallucinations, nil, fixedInstance())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"supported": 1, "not_applicable": 1, "unknown": 1}
	if got := res.Details["labels"]; !reflect.DeepEqual(got, want) {
		t.Fatalf("labels %v", got)
	}
	if res.Score != 1 || res.Details["sentences"] != 3 {
		t.Fatalf("score %v details %v", res.Score, res.Details)
	}
}
