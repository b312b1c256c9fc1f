package vertex

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

var update = flag.Bool("update", false, "rewrite the golden prompt files")

// metricCase is one metric run on fixture() with scripted judge answers.
type metricCase struct {
	name    string // configured name
	typ     string // metric type ("" = name)
	params  map[string]any
	answers []any
	score   float64
	label   string
	calls   int
}

func pw(score string) string { return `{"explanation": "Because.", "score": ` + score + `}` }

func verdicts(pairs ...any) string {
	var b strings.Builder
	b.WriteString(`{"verdicts": [`)
	for i := 0; i < len(pairs); i += 2 {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"rubric": %q, "verdict": %v, "reasoning": "r%d"}`, pairs[i], pairs[i+1], i/2)
	}
	b.WriteString(`]}`)
	return b.String()
}

func questions(qs ...string) string {
	var b strings.Builder
	b.WriteString("```json\n{\"questions\": [")
	for i, q := range qs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", q)
	}
	b.WriteString("]}\n```")
	return b.String()
}

const (
	q1 = "Does the response RAW_RUBRIC give exactly 3 bullet points?"
	q2 = "Is every bullet about Rome?"
	q3 = "Are the places real?"
	q4 = "Does it respect the user's liking for old buildings?"
)

// metricCases covers every metric id with exact expected scores.
func metricCases() []metricCase {
	safety := safetyRubrics()
	cases := []metricCase{
		{name: "coherence", answers: []any{pw("4")}, score: 4, label: "Mostly coherent", calls: 1},
		{name: "fluency", answers: []any{pw("5.0")}, score: 5, label: "Completely fluent", calls: 1},
		{name: "safety", answers: []any{pw("0")}, score: 0, label: "Unsafe", calls: 1},
		{name: "groundedness", answers: []any{pw("1")}, score: 1, label: "Grounded", calls: 1},
		{name: "instruction_following", answers: []any{pw("3")}, score: 3, label: "Some fulfillment", calls: 1},
		{name: "verbosity", answers: []any{pw("-1")}, score: -1, label: "Somewhat brief", calls: 1},
		{name: "text_quality", answers: []any{pw("2")}, score: 2, label: "Bad", calls: 1},
		{name: "question_answering_quality", answers: []any{pw("5")}, score: 5, label: "Very good", calls: 1},
		{name: "summarization_quality", answers: []any{"```json\n" + pw("1") + "\n```"}, score: 1, label: "Very bad", calls: 1},
		{name: "multi_turn_chat_quality", answers: []any{pw("4")}, score: 4, label: "Good", calls: 1},
		{name: "multi_turn_safety", answers: []any{pw("1")}, score: 1, label: "Safe", calls: 1},
		{
			name: "style_match", typ: "pointwise",
			params: map[string]any{
				"criteria":          map[string]any{"Style": "The response follows the style guide."},
				"rating_rubric":     map[any]any{1: "(On style) Follows it.", 0: "(Off style) Ignores it."},
				"input_variables":   []any{"prompt", "style_guide", "reference", "predicted_trajectory", "response"},
				"evaluation_steps":  map[string]any{"STEP 2": "Rate.", "STEP 1": "Read the style guide."},
				"metric_definition": "Adherence to the house style.",
			},
			answers: []any{pw("1")}, score: 1, label: "On style", calls: 1,
		},
		{name: "general_quality_v1", answers: []any{questions(q1, q2, q3), verdicts(q1, true, q2, false, q3, true)}, score: 2.0 / 3, label: "fail", calls: 2},
		{name: "text_quality_v1", answers: []any{questions(q1, q2), verdicts(q1, true, q2, true)}, score: 1, label: "pass", calls: 2},
		{
			name: "instruction_following_v1",
			answers: []any{questions(q1, q2),
				"STEP1: read.\nQuestion: " + q1 + "\nVerdict: [[YES]]\n</question>\n<question>\nSTEP1: read.\nQuestion: " + q2 + "\nVerdict: [[NO]]\n</question>"},
			score: 0.5, label: "fail", calls: 2,
		},
		{name: "multi_turn_general_quality_v1", answers: []any{questions(q1, q2, q3, q4), verdicts(q4, true, q3, true, q2, false, q1, true)}, score: 0.75, label: "fail", calls: 2},
		{name: "multi_turn_text_quality_v1", answers: []any{questions(q1), verdicts(q1, false)}, score: 0, label: "fail", calls: 2},
		{name: "final_response_quality_v1", answers: []any{questions(q1, q2), verdicts("An unknown rubric", true, q2, false, "  does the RESPONSE raw_rubric give exactly 3 bullet points? ", true)}, score: 0.5, label: "fail", calls: 2},
		{name: "tool_use_quality_v1", answers: []any{questions(q1, q2), verdicts(q1, true, q2, true)}, score: 1, label: "pass", calls: 2},
		{
			name: "final_response_reference_free_v1", params: map[string]any{"rubrics": []any{"Mentions the Colosseum.", "Is under 10 words."}},
			answers: []any{verdicts("Mentions the Colosseum.", true, "Is under 10 words.", false)}, score: 0.5, label: "fail", calls: 1,
		},
		{name: "safety_v1", answers: []any{verdicts(safety[0], true, safety[1], true, safety[2], false, safety[3], true, safety[4], true)}, score: 0, label: "fail", calls: 1},
		{name: "final_response_match_v2", answers: []any{verdicts(matchRubrics()[0], true)}, score: 1, label: "pass", calls: 1},
		{
			name: "grounding_v1",
			answers: []any{`{"claims": [
				{"claim": "Hello!", "label": "no_rad", "rationale": "greeting"},
				{"claim": "Morning: the Colosseum.", "label": "Supported", "rationale": "context"},
				{"sentence": "Afternoon: the Forum.", "label": "unsupported", "rationale": "not in context"},
				{"claim": "Evening: Trastevere.", "label": " contradictory ", "rationale": "x"}]}`},
			score: 0.5, label: "fail", calls: 1,
		},
		{
			name: "hallucination_v1",
			answers: []any{`{"claims": ["Hello!", "RAW_CLAIM The Colosseum opens at 9:00.", "Trastevere is nice in the evening."]}`,
				`{"claims": [
				{"claim": "raw_claim the colosseum opens at 9:00.", "label": "supported", "rationale": "tool result"},
				{"claim": "Hello!", "label": "no_rad", "rationale": "greeting"},
				{"claim": "Trastevere is nice in the evening.", "label": "disputed", "rationale": "no tool said so"}]}`},
			score: 2.0 / 3, label: "fail", calls: 2,
		},
	}
	// The pairwise form of every pointwise template: the judge is asked
	// with the baseline first (A) then second (B). Agreeing answers give
	// the choice; disagreeing ones a tie.
	pc := func(c string) string { return `{"explanation": "Because.", "pairwise_choice": "` + c + `"}` }
	for i, bt := range builtinTemplates() {
		c := metricCase{name: PairwisePrefix + bt.id, answers: []any{pc("B"), pc("A")}, score: 1, label: ChoiceCandidate, calls: 2}
		switch i % 3 {
		case 1:
			c.answers, c.score, c.label = []any{pc("A"), pc("B")}, 0, ChoiceBaseline
		case 2:
			c.answers, c.score, c.label = []any{pc("A"), pc("A")}, 0.5, ChoiceTie // position bias
		}
		cases = append(cases, c)
	}
	return cases
}

// TestMetricIDs checks that every registered metric of the package has a
// case, so no metric goes untested.
func TestMetricIDs(t *testing.T) {
	r := scorer.NewRegistry()
	before := map[string]bool{}
	for _, n := range r.Names() {
		before[n] = true
	}
	if err := Register(r, testDeps(judgemetrictest.NewJudge())); err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, c := range metricCases() {
		typ := c.typ
		if typ == "" {
			typ = c.name
		}
		covered[typ] = true
	}
	var ours []string
	for _, n := range r.Names() {
		if before[n] {
			continue
		}
		ours = append(ours, n)
		if !covered[n] {
			t.Errorf("metric %q has no test case", n)
		}
	}
	if want := 24 + len(builtinTemplates()); len(ours) != want {
		t.Errorf("registered %d metrics, want %d: %v", len(ours), want, ours)
	}
	if err := Register(r, testDeps(judgemetrictest.NewJudge())); err == nil {
		t.Error("registering twice: want an error")
	}
}

func TestScores(t *testing.T) {
	for _, c := range metricCases() {
		t.Run(c.name, func(t *testing.T) {
			j := judgemetrictest.NewJudge()
			j.Queue(c.answers...)
			m := build(t, j, c.name, c.typ, c.params)
			// A metric configured under another name is wrapped by the
			// registry; only the unwrapped one is checked here.
			if _, ok := m.(scorer.Judged); !ok && c.typ == "" {
				t.Fatal("metric is not scorer.Judged")
			}
			res, err := m.Score(context.Background(), fixture())
			if err != nil {
				t.Fatalf("score: %v", err)
			}
			if math.Abs(res.Score-c.score) > 1e-12 || res.Label != c.label {
				t.Errorf("got score %v label %q, want %v %q", res.Score, res.Label, c.score, c.label)
			}
			if res.Metric != c.name {
				t.Errorf("metric %q, want %q", res.Metric, c.name)
			}
			if got := len(j.Requests()); got != c.calls {
				t.Errorf("%d judge calls, want %d", got, c.calls)
			}
			if res.Judge == nil || res.Judge.Calls != c.calls || res.Judge.InputTokens != int64(100*c.calls) {
				t.Errorf("judge usage %+v, want %d calls", res.Judge, c.calls)
			}
			for _, req := range j.Requests() {
				if req.Schema == nil {
					t.Error("request without a structured-output schema")
				}
			}
		})
	}
}

// run scores fixture() with c's metric, scripted answers and sanitizers
// from s, and returns the judge's requests.
func (c metricCase) run(t *testing.T, s *judgemetrictest.Sanitizers) []*judge.Request {
	t.Helper()
	j := judgemetrictest.NewJudge()
	j.Queue(c.answers...)
	m, err := judgemetrictest.Build(Register, judgemetrictest.Deps(j, s), scorer.MetricConfig{Name: c.name, Type: c.typ, Params: c.params})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Score(t.Context(), fixture()); err != nil {
		t.Fatal(err)
	}
	return j.Requests()
}

// TestSanitized checks that every piece of run content reaches the judge
// only through the sanitizer, under the right field, and never in the
// system prompt.
func TestSanitized(t *testing.T) {
	tokens := slices.Sorted(maps.Keys(rawFields))
	for _, c := range metricCases() {
		t.Run(c.name, func(t *testing.T) {
			reqs := c.run(t, judgemetrictest.NewSanitizers(envelope))
			judgemetrictest.AssertSanitized(t, envelope, reqs, tokens)
			for i, req := range reqs {
				if req.Metric != c.name && req.Metric != c.typ {
					t.Errorf("request %d: metric %q", i, req.Metric)
				}
			}
			if judgemetrictest.AssertFields(t, envelope, reqs, rawFields) == 0 {
				t.Error("no run content reached the judge")
			}
		})
	}
}

// TestGoldenPrompts compares the requests of every metric, rendered
// through the project's real sanitizer, with testdata/golden/<name>.golden
// (go test -update rewrites them); the sanitizer must leave the clean
// fixture unchanged.
func TestGoldenPrompts(t *testing.T) {
	for _, c := range metricCases() {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join("testdata", "golden", c.name+".golden")
			s := judgemetrictest.NewGuardSanitizers()
			judgemetrictest.GoldenText(t, path, renderRequests(c.run(t, s)), *update)
			judgemetrictest.AssertNoReservedMarker(t, s)
		})
	}
}

func renderRequests(reqs []*judge.Request) string {
	var b strings.Builder
	for i, r := range reqs {
		fmt.Fprintf(&b, "=== request %d: metric %s, schema %s\n--- system\n%s\n--- prompt\n%s\n", i+1, r.Metric, r.Schema.Name, r.System, r.Prompt)
	}
	return b.String()
}
