package vertex

import "testing"

// A paraphrased rubric is matched by its position; one paraphrase does not
// invalidate the answer.
func TestParseVerdictsParaphrase(t *testing.T) {
	rubrics := []string{"The response is in French.", "The response names the capital.", "The response is one sentence."}
	answer := verdicts("The response is in French.", true, "It names the capital city", false, "the response is one sentence.", true)
	got, err := ParseVerdicts(answer, rubrics)
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{true, false, true}
	for i, v := range got {
		if v.Question != rubrics[i] || v.Yes != want[i] {
			t.Errorf("verdict %d: %+v, want %q %v", i, v, rubrics[i], want[i])
		}
	}
}
