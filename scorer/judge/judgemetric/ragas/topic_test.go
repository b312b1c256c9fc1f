package ragas

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

func refused(b bool) string {
	if b {
		return `{"refused_to_answer": true}`
	}
	return `{"refused_to_answer": false}`
}

func TestTopicAdherenceGolden(t *testing.T) {
	e := newEnv(
		`{"topics": ["Table booking RAWTOPIC", "Weather"]}`,
		refused(false), refused(true),
		`{"classifications": [true, false]}`,
	)
	res, err := e.Score(t, MetricTopicAdherence, nil, fixedInstance())
	if err != nil {
		t.Fatal(err)
	}
	// TP 1, FP 0, FN 0 -> P = R = 1/(1+1e-10)
	p := 1 / (1 + 1e-10)
	if want := 2 * p * p / (p + p + 1e-10); res.Score != want {
		t.Fatalf("score %v, want %v", res.Score, want)
	}
	if len(e.Requests()) != 4 || res.Judge.Calls != 4 {
		t.Fatalf("%d calls, want 1 + 2 + 1", len(e.Requests()))
	}
	for i, r := range e.Requests() {
		if r.Schema == nil {
			t.Fatalf("request %d has no schema", i)
		}
	}
	if !strings.Contains(e.Requests()[0].Prompt, `Tools:\n  book_table: {'people': 2, 'time': '8pm', 'note': '`) {
		t.Fatalf("workflow not rendered as pretty_repr:\n%s", e.Requests()[0].Prompt)
	}
	e.AssertSanitized(t, rawTokens)
	judgemetrictest.GuardGolden(t, Register, MetricTopicAdherence, MetricTopicAdherence, nil, fixedInstance(), *update,
		`{"topics": ["Table booking RAWTOPIC", "Weather"]}`, refused(false), refused(true), `{"classifications": [true, false]}`)
}

// The metrics.md vectors: per-topic refusals and classifications through
// the scripted judge, in each mode.
func TestTopicAdherenceVectors(t *testing.T) {
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct {
		Input struct {
			Refused []bool `json:"refused_to_answer"`
			InRef   []bool `json:"topic_in_reference"`
			Mode    string `json:"mode"`
		} `json:"input"`
		Expected  float64 `json:"expected"`
		Tolerance float64 `json:"tolerance"`
	}
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) == 0 {
		t.Fatal("no vectors")
	}
	for _, v := range vs {
		topics := make([]string, len(v.Input.Refused))
		answers := []string{""}
		for i, r := range v.Input.Refused {
			topics[i] = "topic " + string(rune('a'+i))
			answers = append(answers, refused(r))
		}
		tb, _ := json.Marshal(map[string]any{"topics": topics})
		cb, _ := json.Marshal(map[string]any{"classifications": v.Input.InRef})
		answers[0] = string(tb)
		answers = append(answers, string(cb))
		res, err := newEnv(answers...).Score(t, MetricTopicAdherence, map[string]any{"mode": v.Input.Mode}, fixedInstance())
		if err != nil {
			t.Fatal(err)
		}
		if d := res.Score - v.Expected; d > v.Tolerance || -d > v.Tolerance {
			t.Errorf("%s: score %.15g, want %.15g", v.Input.Mode, res.Score, v.Expected)
		}
	}
}

func TestTopicAdherenceModes(t *testing.T) {
	// answered [t t f f], in_ref [t f t f]: TP 1, FP 1, FN 1
	script := func() []string {
		return []string{
			`{"topics": ["a", "b", "c", "d"]}`,
			refused(false), `{"refused_to_answer": "no"}`, `{"refused_to_answer": "yes"}`, refused(true),
			`{"classifications": ["true", "0", "YES", false]}`,
		}
	}
	p := 1 / (2 + 1e-10)
	for mode, want := range map[string]float64{"precision": p, "recall": p, "f1": 2 * p * p / (p + p + 1e-10)} {
		res, err := newEnv(script()...).Score(t, MetricTopicAdherence, map[string]any{"mode": mode}, fixedInstance())
		if err != nil {
			t.Fatal(err)
		}
		if res.Score != want {
			t.Errorf("%s: %v, want %v", mode, res.Score, want)
		}
		if d := res.Details; d["tp"] != 1 || d["fp"] != 1 || d["fn"] != 1 {
			t.Errorf("%s: details %v", mode, d)
		}
	}
}

func TestTopicAdherenceNoTopics(t *testing.T) {
	e := newEnv(`{"topics": []}`)
	res, err := e.Score(t, MetricTopicAdherence, nil, fixedInstance())
	if err != nil || res.Score != 0 || len(e.Requests()) != 1 {
		t.Fatalf("score %v err %v calls %d", res.Score, err, len(e.Requests()))
	}
}

func TestTopicAdherenceErrors(t *testing.T) {
	cases := map[string][]string{
		"classification length": {`{"topics": ["a", "b"]}`, refused(false), refused(false), `{"classifications": [true]}`},
		"classification type":   {`{"topics": ["a"]}`, refused(false), `{"classifications": [null]}`},
		"refusal not boolean":   {`{"topics": ["a"]}`, `{"refused_to_answer": "perhaps"}`},
		"refusal missing":       {`{"topics": ["a"]}`, `{}`},
		"topics missing":        {`{"subjects": ["a"]}`},
		"topics not JSON":       {`a, b`},
	}
	for name, answers := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := newEnv(answers...).Score(t, MetricTopicAdherence, nil, fixedInstance())
			judgemetrictest.WantInvalid(t, err)
		})
	}
}

func TestTopicAdherenceParams(t *testing.T) {
	r := scorer.NewRegistry()
	if err := Register(r, newEnv().Deps); err != nil {
		t.Fatal(err)
	}
	for _, p := range []map[string]any{{"mode": "F1"}, {"mode": 1}, {"threshold": 0.5}} {
		if _, err := r.Build([]scorer.MetricConfig{{Name: MetricTopicAdherence, Params: p}}); err == nil {
			t.Errorf("params %v accepted", p)
		}
	}
	ms, err := r.Build([]scorer.MetricConfig{{Name: MetricTopicAdherence}})
	if err != nil {
		t.Fatal(err)
	}
	if ms[0].Needs() != scorer.InReferenceTopics|scorer.InPrompt {
		t.Fatalf("needs %b", ms[0].Needs())
	}
}
