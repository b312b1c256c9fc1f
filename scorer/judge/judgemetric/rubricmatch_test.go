package judgemetric_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

func TestMatchRubrics(t *testing.T) {
	rubrics := []string{"The response is concise.", "The response answers the question.", "The tone is polite."}
	tests := []struct {
		name     string
		answered []string
		want     []int
	}{
		{"exact, any order", []string{"the tone is polite.", "The response is concise.", "The response answers the question."}, []int{2, 0, 1}},
		{"one paraphrased", []string{"The response is concise.", "It answers what was asked.", "The tone is polite."}, []int{0, 1, 2}},
		{"all paraphrased", []string{"Concise?", "Answers the question?", "Polite?"}, []int{0, 1, 2}},
		{"paraphrase among reordered", []string{"The tone is polite.", "Short answer", "The response is concise."}, []int{2, 1, 0}},
		{"extra entry", []string{"The response is concise.", "The response answers the question.", "The tone is polite.", "Bonus"}, []int{0, 1, 2, -1}},
		{"fewer answers, paraphrase keeps its place", []string{"Concise?", "The tone is polite."}, []int{0, 2}},
	}
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := judgemetric.MatchRubrics(rubrics, tt.answered, norm); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
