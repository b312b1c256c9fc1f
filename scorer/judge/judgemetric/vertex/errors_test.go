package vertex

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

// scoreErr builds name, scripts answers and returns Score's error.
func scoreErr(t *testing.T, name string, params map[string]any, in *scorer.Instance, answers ...any) error {
	t.Helper()
	j := judgemetrictest.NewJudge()
	j.Queue(answers...)
	m := build(t, j, name, "", params)
	res, err := m.Score(context.Background(), in)
	if err == nil {
		t.Errorf("want an error, got score %v", res.Score)
	}
	return err
}

func TestPointwiseBadAnswers(t *testing.T) {
	for name, ans := range map[string]string{
		"off scale":           pw("6"),
		"between scale steps": pw("4.5"),
		"binary scale":        pw("2"),
		"score as string":     `{"explanation": "x", "score": "4"}`,
		"no score":            `{"explanation": "x"}`,
		"no explanation":      `{"score": 4}`,
		"null score":          `{"explanation": "x", "score": null}`,
		"refusal text":        "I'm sorry, I can't help with that.",
		"two objects":         pw("4") + pw("4"),
		"empty":               "",
	} {
		t.Run(name, func(t *testing.T) {
			metric := "coherence"
			if name == "binary scale" {
				metric = "safety"
			}
			judgemetrictest.WantInvalid(t, scoreErr(t, metric, nil, fixture(), ans))
		})
	}
	t.Run("verbosity rejects 3", func(t *testing.T) {
		judgemetrictest.WantInvalid(t, scoreErr(t, "verbosity", nil, fixture(), pw("3")))
	})
}

func TestJudgeErrorsPassThrough(t *testing.T) {
	refusal := &judge.Error{Class: judge.ClassRefusal, Err: errors.New("refused")}
	for _, name := range []string{"fluency", "general_quality_v1", "safety_v1", "hallucination_v1", "grounding_v1"} {
		t.Run(name, func(t *testing.T) {
			judgemetrictest.WantClass(t, scoreErr(t, name, nil, fixture(), refusal), judge.ClassRefusal)
		})
	}
}

func TestRubricBadAnswers(t *testing.T) {
	s := safetyRubrics()
	all := func(except int) []any {
		var p []any
		for i, r := range s {
			if i != except {
				p = append(p, r, true)
			}
		}
		return p
	}
	tests := []struct {
		name    string
		metric  string
		answers []any
	}{
		{"missing rubric", "safety_v1", []any{verdicts(all(2)...)}},
		{"rubric judged twice", "safety_v1", []any{verdicts(append(all(-1), s[0], false)...)}},
		{"verdict as string", "final_response_match_v2", []any{`{"verdicts": [{"rubric": "` + matchRubrics()[0] + `", "verdict": "yes", "reasoning": "x"}]}`}},
		{"no reasoning", "final_response_match_v2", []any{`{"verdicts": [{"rubric": ` + quote(matchRubrics()[0]) + `, "verdict": true}]}`}},
		{"no verdicts field", "final_response_match_v2", []any{`{"results": []}`}},
		{"text instead of JSON", "final_response_match_v2", []any{"<question>Question: " + matchRubrics()[0] + "\nVerdict: [[YES]]</question>"}},
		{"generation: empty list", "general_quality_v1", []any{`{"questions": []}`}},
		{"generation: blank questions", "general_quality_v1", []any{`{"questions": ["  ", ""]}`}},
		{"generation: not JSON", "general_quality_v1", []any{"1. Is it good?"}},
		{"generation: wrong type", "general_quality_v1", []any{`{"questions": "Is it good?"}`}},
		{"instruction following: no block parsed", "instruction_following_v1", []any{questions(q1), "The response is fine."}},
		{"instruction following: bad JSON is not text", "instruction_following_v1", []any{questions(q1), `{"verdicts": [{"rubric": 1}]}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			judgemetrictest.WantInvalid(t, scoreErr(t, tt.metric, nil, fixture(), tt.answers...))
		})
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

func TestClaimBadAnswers(t *testing.T) {
	seg := `{"claims": ["A.", "B."]}`
	tests := []struct {
		name, metric string
		answers      []any
	}{
		{"unknown label", "grounding_v1", []any{`{"claims": [{"claim": "A.", "label": "not_applicable", "rationale": "x"}]}`}},
		{"no claims", "grounding_v1", []any{`{"claims": []}`}},
		{"missing rationale", "grounding_v1", []any{`{"claims": [{"claim": "A.", "label": "supported"}]}`}},
		{"missing claim text", "grounding_v1", []any{`{"claims": [{"label": "supported", "rationale": "x"}]}`}},
		{"segmentation empty", "hallucination_v1", []any{`{"claims": [" "]}`}},
		{"segment left unlabelled", "hallucination_v1", []any{seg, `{"claims": [{"claim": "A.", "label": "supported", "rationale": "x"}]}`}},
		{"segment labelled twice", "hallucination_v1", []any{seg, `{"claims": [{"claim": "A.", "label": "supported", "rationale": "x"}, {"claim": "B.", "label": "supported", "rationale": "x"}, {"claim": "a.", "label": "unsupported", "rationale": "x"}]}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			judgemetrictest.WantInvalid(t, scoreErr(t, tt.metric, nil, fixture(), tt.answers...))
		})
	}
}

// TestSamples checks num_samples: one validation call per sample,
// combined by self-consistency, JSON and §7.2 text answers mixed for
// instruction_following_v1, with the agreement as confidence.
func TestSamples(t *testing.T) {
	j := judgemetrictest.NewJudge()
	j.Queue(
		questions(q1, q2, q3),
		verdicts(q1, true, q2, true, q3, false),
		"<question>Question: "+q1+"\nVerdict: [[YES]]</question><question>Question: "+q2+"\nVerdict: [[NO]]</question>",
		verdicts(q1, false, q2, true, q3, false),
	)
	m := build(t, j, "instruction_following_v1", "", map[string]any{"num_samples": 3})
	res, err := m.Score(context.Background(), fixture())
	if err != nil {
		t.Fatal(err)
	}
	// q1: +1 +1 -1 = 1 pass; q2: +1 -1 +1 = 1 pass; q3: -1 -1 = -2 fail.
	if res.Score != 2.0/3 || len(j.Requests()) != 4 {
		t.Errorf("score %v after %d calls, want 2/3 after 4", res.Score, len(j.Requests()))
	}
	wantPass := []bool{true, true, false}
	for i, v := range res.Verdicts {
		if v.Pass != wantPass[i] {
			t.Errorf("verdict %d (%s): pass %v", i, v.Rubric, v.Pass)
		}
	}
	// agreement: q1 2/3, q2 2/3, q3 2/2.
	if want := (2.0/3 + 2.0/3 + 1) / 3; abs(res.Confidence-want) > 1e-12 {
		t.Errorf("confidence %v, want %v", res.Confidence, want)
	}
	if res.Details["samples"] != 3 || res.Details["rubrics"] != 3 || res.Details["passed"] != 2 {
		t.Errorf("details %v", res.Details)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestTextFallbackUnknownQuestions checks the §7.2 semantics in the
// metric: questions that do not match a generated rubric still count, and
// the score is over the parsed questions.
func TestTextFallbackUnknownQuestions(t *testing.T) {
	j := judgemetrictest.NewJudge()
	j.Queue(questions(q1, q2, q3), "Question: Rephrased first?\nVerdict: [[YES]]\n</question>\n<question>Question: "+strings.ToUpper(q2)+"\nVerdict: [[NO]]</question>")
	m := build(t, j, "instruction_following_v1", "", nil)
	res, err := m.Score(context.Background(), fixture())
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 0.5 || len(res.Verdicts) != 2 || res.Verdicts[1].Rubric != q2 {
		t.Errorf("score %v verdicts %+v", res.Score, res.Verdicts)
	}
}

func TestSafetyAllOrNothing(t *testing.T) {
	s := safetyRubrics()
	var p []any
	for _, r := range s {
		p = append(p, r, true)
	}
	j := judgemetrictest.NewJudge()
	j.Queue(verdicts(p...))
	res, err := build(t, j, "safety_v1", "", nil).Score(context.Background(), fixture())
	if err != nil || res.Score != 1 || res.Label != "pass" || res.Details["pass_rate"] != 1.0 {
		t.Errorf("all safe: %v %+v", err, res)
	}
	p[5] = false
	j.Queue(verdicts(p...))
	res, err = build(t, j, "safety_v1", "", nil).Score(context.Background(), fixture())
	if err != nil || res.Score != 0 || res.Details["pass_rate"] != 0.8 || res.Verdicts[2].Pass {
		t.Errorf("one violation: %v %+v", err, res)
	}
}

// TestRubricCache checks that generated rubrics are reused for the same
// inputs, regenerated for others, and evicted least-recently-used.
func TestRubricCache(t *testing.T) {
	j := judgemetrictest.NewJudge()
	m := build(t, j, "general_quality_v1", "", map[string]any{"rubric_cache_size": 1})
	a, b := fixture(), fixture()
	b.Prompt = "RAW_PROMPT Another prompt."
	run := func(in *scorer.Instance, answers ...any) scorer.Result {
		t.Helper()
		j.Queue(answers...)
		res, err := m.Score(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	r := run(a, questions(q1), verdicts(q1, true))
	if r.Details["rubric_cache_hit"] != false || r.Judge.Calls != 2 {
		t.Errorf("first run: %v, %d calls", r.Details, r.Judge.Calls)
	}
	r = run(a, verdicts(q1, false))
	if r.Details["rubric_cache_hit"] != true || r.Judge.Calls != 1 || r.Score != 0 {
		t.Errorf("second run: %v, %d calls, score %v", r.Details, r.Judge.Calls, r.Score)
	}
	run(b, questions(q2), verdicts(q2, true)) // evicts a
	r = run(a, questions(q3), verdicts(q3, true))
	if r.Details["rubric_cache_hit"] != false || r.Verdicts[0].Rubric != q3 {
		t.Errorf("after eviction: %v %+v", r.Details, r.Verdicts)
	}
	if n := len(j.Requests()); n != 7 {
		t.Errorf("%d judge calls, want 7", n)
	}
	// Configured rubrics skip generation.
	j2 := judgemetrictest.NewJudge()
	j2.Queue(verdicts("Is it short?", true))
	r2, err := build(t, j2, "general_quality_v1", "", map[string]any{"rubrics": []any{"Is it short?"}}).Score(context.Background(), fixture())
	if err != nil || r2.Score != 1 || len(j2.Requests()) != 1 || r2.Details["rubrics_generated"] != false {
		t.Errorf("configured rubrics: %v %+v", err, r2)
	}
	if !strings.Contains(j2.Requests()[0].System, "- Is it short?") {
		t.Error("configured rubrics belong in the system prompt")
	}
}

func TestNeeds(t *testing.T) {
	want := map[string]scorer.Inputs{
		"coherence":                        scorer.InPrompt | scorer.InResponse,
		"multi_turn_chat_quality":          scorer.InConversation | scorer.InPrompt | scorer.InResponse,
		"final_response_match_v2":          scorer.InPrompt | scorer.InResponse | scorer.InReference,
		"tool_use_quality_v1":              scorer.InPrompt | scorer.InPredictedTrajectory,
		"final_response_quality_v1":        scorer.InPrompt | scorer.InResponse | scorer.InPredictedTrajectory,
		"hallucination_v1":                 scorer.InResponse | scorer.InPredictedTrajectory,
		"grounding_v1":                     scorer.InPrompt | scorer.InResponse | scorer.InContext,
		"multi_turn_general_quality_v1":    scorer.InConversation | scorer.InPrompt | scorer.InResponse,
		"final_response_reference_free_v1": scorer.InPrompt | scorer.InResponse,
	}
	for name, n := range want {
		var params map[string]any
		if name == "final_response_reference_free_v1" {
			params = map[string]any{"rubrics": []any{"x"}}
		}
		m := build(t, judgemetrictest.NewJudge(), name, "", params)
		if m.Needs() != n {
			t.Errorf("%s: needs %b, want %b", name, m.Needs(), n)
		}
		if m.(scorer.Judged).JudgeName() != "fake" {
			t.Errorf("%s: judge name", name)
		}
	}
	m := build(t, judgemetrictest.NewJudge(), "mine", "pointwise", customParams(map[string]any{"input_variables": []any{"reference", "tool_declarations", "my_column"}}))
	if want := scorer.InResponse | scorer.InReference | scorer.InToolDeclarations; m.Needs() != want {
		t.Errorf("custom: needs %b, want %b", m.Needs(), want)
	}
}

// TestHallucinationWithoutInstruction checks the placeholders for absent
// optional inputs.
func TestHallucinationWithoutInstruction(t *testing.T) {
	in := fixture()
	in.Has &^= scorer.InInstruction | scorer.InPrompt
	in.ToolDeclarations, in.PredictedTrajectory = nil, nil
	j := judgemetrictest.NewJudge()
	j.Queue(`{"claims": ["A."]}`, `{"claims": [{"claim": "A.", "label": "unsupported", "rationale": "x"}]}`)
	res, err := build(t, j, "hallucination_v1", "", nil).Score(context.Background(), in)
	if err != nil || res.Score != 0 {
		t.Fatalf("%v %+v", err, res)
	}
	p := j.Requests()[1].Prompt
	for _, s := range []string{"No developer instruction was given.", "The agent has no tools.", "No tool calls were made."} {
		if !strings.Contains(p, s) {
			t.Errorf("prompt lacks %q", s)
		}
	}
	if strings.Contains(p, "RAW_PROMPT") {
		t.Error("an unrecorded prompt was sent")
	}
}

func TestExplanationCapped(t *testing.T) {
	j := judgemetrictest.NewJudge()
	j.Queue(`{"explanation": "` + strings.Repeat("é", 3000) + `", "score": 3}`)
	res, err := build(t, j, "coherence", "", nil).Score(context.Background(), fixture())
	if err != nil || len(res.Explanation) > maxExplanation || !strings.HasPrefix(res.Explanation, "éé") {
		t.Errorf("%v, %d bytes", err, len(res.Explanation))
	}
	if res.Explanation != capText(res.Explanation, maxExplanation) || strings.ContainsRune(res.Explanation, '\uFFFD') {
		t.Error("cut inside a rune")
	}
}

// TestBulletEcho checks that a judge echoing a rubric or claim with the
// "- " bullet it was listed with still matches.
func TestBulletEcho(t *testing.T) {
	vs, err := ParseVerdicts(verdicts("- "+q1, true, "* "+q2, false), []string{q1, q2})
	if err != nil || !vs[0].Yes || vs[1].Yes {
		t.Errorf("%v %+v", err, vs)
	}
	cs, err := matchClaims([]Claim{{Text: "- A.", Label: LabelSupported}}, []string{"A."})
	if err != nil || cs[0].Text != "A." {
		t.Errorf("%v %+v", err, cs)
	}
}
