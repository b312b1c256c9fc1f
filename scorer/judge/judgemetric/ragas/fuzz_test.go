package ragas

import (
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

// FuzzTopicAnswers: fuzzed topic, refusal and classification answers
// give a score in [0, 1] or an invalid_response error.
func FuzzTopicAnswers(f *testing.F) {
	f.Add(`{"topics": ["a", "b"]}`, refused(false), `{"classifications": [true, "yes"]}`)
	f.Add(`{"topics": []}`, ``, ``)
	f.Add("```json\n{\"topics\": [\"a\"]}\n```", `{"refused_to_answer": "1"}`, `{"classifications": [1]}`)
	f.Fuzz(func(t *testing.T, topics, ref, cls string) {
		e := newEnv()
		e.Judge.Respond = func(r *judge.Request) (string, error) {
			switch r.Schema.Name {
			case "topic_extraction":
				return topics, nil
			case "topic_refused":
				return ref, nil
			}
			return cls, nil
		}
		res, err := e.Score(t, MetricTopicAdherence, nil, fixedInstance())
		if err != nil {
			judgemetrictest.WantInvalid(t, err)
			return
		}
		if res.Score < 0 || res.Score > 1 {
			t.Fatalf("score %v", res.Score)
		}
	})
}

func FuzzParseClassifications(f *testing.F) {
	f.Add(`{"classifications": [true, "no", 1, "YES"]}`, 4)
	f.Add(`{"classifications": {}}`, 0)
	f.Fuzz(func(t *testing.T, answer string, n int) {
		if n < 0 || n > 64 {
			return
		}
		cs, err := parseClassifications(answer, n)
		if err != nil {
			judgemetrictest.WantInvalid(t, err)
			return
		}
		if len(cs) != n {
			t.Fatalf("%d classifications, want %d", len(cs), n)
		}
	})
}

func FuzzGoalAnswers(f *testing.F) {
	f.Add(goalAnswer, `{"reason": "r", "verdict": "1"}`)
	f.Add(`{"user_goal": "", "end_state": ""}`, `{"verdict": " 0 "}`)
	f.Fuzz(func(t *testing.T, goal, cmp string) {
		res, err := newEnv(goal, cmp).Score(t, MetricAgentGoalAccuracy, nil, fixedInstance())
		if err != nil {
			judgemetrictest.WantInvalid(t, err)
			return
		}
		if res.Score != 0 && res.Score != 1 {
			t.Fatalf("score %v", res.Score)
		}
	})
}

func FuzzPyArgs(f *testing.F) {
	f.Add(`{"a":[1,2.5,{"b":null}],"c":"it's"}`)
	f.Add(`[1e400]`)
	f.Add(`"\ud800"`)
	f.Fuzz(func(t *testing.T, s string) {
		if pyArgs(s) == "" {
			t.Fatal("empty rendering")
		}
	})
}
