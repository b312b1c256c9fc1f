package vertex

import (
	"math"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

func FuzzParseRating(f *testing.F) {
	for _, s := range []string{pw("4"), pw("-2"), pw("4.5"), pw("1e308"), "```json\n" + pw("1") + "\n```", `{"score": NaN}`, "", "{"} {
		f.Add(s)
	}
	templates := builtinTemplates()
	f.Fuzz(func(t *testing.T, answer string) {
		for _, bt := range templates {
			pts, err := bt.tmpl.scale()
			if err != nil {
				t.Fatal(err)
			}
			r, err := parseRating(answer, pts)
			if err != nil {
				judgemetrictest.WantInvalid(t, err)
				continue
			}
			on := false
			for _, p := range pts {
				on = on || p.value == r.Score
			}
			if !on || math.IsNaN(r.Score) || r.Label == "" {
				t.Fatalf("%s: score %v label %q off the scale", bt.id, r.Score, r.Label)
			}
		}
	})
}

func FuzzParseVerdicts(f *testing.F) {
	f.Add(verdicts("a", true, "b", false))
	f.Add(verdicts("a", true, "A ", false))
	f.Add(`{"verdicts": [{"rubric": "a", "verdict": true, "reasoning": ""}, {"rubric": "x", "verdict": 1}]}`)
	f.Add(`{"verdicts": null}`)
	rubrics := []string{"a", "b"}
	f.Fuzz(func(t *testing.T, answer string) {
		vs, err := ParseVerdicts(answer, rubrics)
		if err != nil {
			judgemetrictest.WantInvalid(t, err)
			return
		}
		if len(vs) != len(rubrics) {
			t.Fatalf("%d verdicts for %d rubrics", len(vs), len(rubrics))
		}
		for i, v := range vs {
			if v.Question != rubrics[i] {
				t.Fatalf("verdict %d for %q", i, v.Question)
			}
		}
	})
}

func FuzzParseQuestionBlocks(f *testing.F) {
	f.Add("Question: a\nVerdict: [[YES]]\n</question>\n<question>Question: b\nVerdict: [[NO]]</question>")
	f.Add("<question></question><question>Verdict:</question>")
	f.Add("<question>Question: Verdict: yes</question>")
	f.Fuzz(func(t *testing.T, answer string) {
		vs := ParseQuestionBlocks(answer)
		cons, score := SelfConsistency([][]QuestionVerdict{vs, vs})
		if score < 0 || score > 1 || math.IsNaN(score) {
			t.Fatalf("score %v", score)
		}
		if len(vs) > 0 && len(cons) == 0 {
			t.Fatal("parsed verdicts lost")
		}
		for _, v := range vs {
			if v.Question == "" {
				t.Fatal("empty question")
			}
		}
	})
}

func FuzzParseQuestions(f *testing.F) {
	f.Add(questions("a", "b", "A"))
	f.Add(`{"questions": ""}`)
	f.Add("```json\n{\"questions\": [\"x\"]}")
	f.Fuzz(func(t *testing.T, answer string) {
		qs, err := ParseQuestions(answer)
		if err != nil {
			judgemetrictest.WantInvalid(t, err)
			return
		}
		if len(qs) == 0 || len(qs) > maxRubrics {
			t.Fatalf("%d questions", len(qs))
		}
		seen := map[string]bool{}
		for _, q := range qs {
			if q == "" || len(q) > maxRubricLen || seen[normalize(q)] {
				t.Fatalf("bad question %q", q)
			}
			seen[normalize(q)] = true
		}
	})
}

func FuzzParseClaims(f *testing.F) {
	f.Add(`{"claims": [{"claim": "a", "label": "supported", "rationale": "r"}, {"sentence": "b", "label": "NO_RAD", "rationale": ""}]}`)
	f.Add(`{"claims": [{"claim": "a", "label": "maybe", "rationale": "r"}]}`)
	f.Add(`{"claims": ["a", "b"]}`)
	f.Fuzz(func(t *testing.T, answer string) {
		if segs, err := ParseSegments(answer); err == nil && (len(segs) == 0 || len(segs) > maxClaims) {
			t.Fatalf("%d segments", len(segs))
		}
		claims, err := ParseClaims(answer)
		if err != nil {
			judgemetrictest.WantInvalid(t, err)
			return
		}
		res := claimsResult(claims)
		if res.Score < 0 || res.Score > 1 || math.IsNaN(res.Score) {
			t.Fatalf("score %v", res.Score)
		}
		for _, c := range claims {
			known := false
			for _, l := range claimLabels {
				known = known || c.Label == l
			}
			if !known {
				t.Fatalf("label %q", c.Label)
			}
		}
	})
}
