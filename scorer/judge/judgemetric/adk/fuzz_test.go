package adk

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

func FuzzParseSentences(f *testing.F) {
	f.Add("<sentence>a</sentence>\n<sentence>b\nc</sentence>")
	f.Add("<sentence><sentence></sentence></sentence>")
	f.Add("<sentence>unterminated")
	f.Fuzz(func(t *testing.T, s string) {
		for _, x := range parseSentences(s) {
			if !strings.Contains(s, "<sentence>"+x+"</sentence>") {
				t.Fatalf("sentence %q not in answer", x)
			}
		}
	})
}

// FuzzHallucinationStep: any validator answer gives a step score in
// [0, 1] or no score; the parse never panics.
func FuzzHallucinationStep(f *testing.F) {
	f.Add(validatorTwo)
	f.Add("sentence: a\nlabel: Disputed\nrationale: r\nsupporting_excerpt: null\ncontradicting_excerpt: null\nsentence:")
	f.Add("SENTENCE:\nLABEL:\nRATIONALE:\nSUPPORTING_EXCERPT:\nCONTRADICTING_EXCERPT:")
	f.Fuzz(func(t *testing.T, s string) {
		vs := parseValidations(s)
		sc, n, ok := stepScore(vs)
		if ok && (sc < 0 || sc > 1 || n == 0 || n > len(vs)) {
			t.Fatalf("score %v n %d of %d", sc, n, len(vs))
		}
		if !ok && n != 0 {
			t.Fatal("n without score")
		}
	})
}

// FuzzRubricScore scores the rubric metric with a fuzzed answer for every
// sample: a score in [0, 1] with a confidence in [0.5, 1], or an
// invalid_response error.
func FuzzRubricScore(f *testing.F) {
	f.Add(block("The response is concise.", "yes") + block("The response answers the question.", "Not applicable"))
	f.Add("Property: The response is concise.\nRationale: \nVerdict: \n")
	f.Add("Verdict: yes Property: x Rationale: y")
	f.Fuzz(func(t *testing.T, answer string) {
		e := newEnv(answer, answer)
		res, err := e.Score(t, MetricRubricFinalResponse, map[string]any{"rubrics": twoRubrics, "num_samples": 2}, fixedInstance())
		if err != nil {
			judgemetrictest.WantInvalid(t, err)
			return
		}
		if res.Score < 0 || res.Score > 1 || res.Confidence < 0.5 || res.Confidence > 1 {
			t.Fatalf("score %v confidence %v", res.Score, res.Confidence)
		}
		if !utf8.ValidString(res.Explanation) && utf8.ValidString(answer) {
			t.Fatal("explanation cut inside a rune")
		}
	})
}

// FuzzFinalMatch: a fuzzed answer scores 0 or 1, or fails with
// invalid_response.
func FuzzFinalMatch(f *testing.F) {
	f.Add(fm("valid"))
	f.Add(`{"is_the_agent_response_valid": " Invalid "}`)
	f.Add("```json\n{}\n```")
	f.Add(`{"is_the_agent_response_valid": null}`)
	f.Fuzz(func(t *testing.T, answer string) {
		a, err := parseFinalMatch(answer)
		if err != nil {
			judgemetrictest.WantInvalid(t, err)
			return
		}
		if a.verdict != verdictYes && a.verdict != verdictNo {
			t.Fatalf("verdict %v", a.verdict)
		}
	})
}

// FuzzHallucinationsScore runs the whole metric with fuzzed segmenter
// and validator answers.
func FuzzHallucinationsScore(f *testing.F) {
	f.Add("<sentence>a</sentence>", validatorTwo)
	f.Add("", "")
	f.Fuzz(func(t *testing.T, seg, val string) {
		res, err := newEnv(seg, val).Score(t, MetricHallucinations, nil, fixedInstance())
		if err != nil {
			judgemetrictest.WantInvalid(t, err)
			return
		}
		if res.Score < 0 || res.Score > 1 {
			t.Fatalf("score %v", res.Score)
		}
	})
}
