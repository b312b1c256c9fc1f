package vertex

import (
	"reflect"
	"testing"
)

// TestParseQuestionBlocks pins the §7.2 text parser: the opening tag is
// prepended when missing, the question is the text after the last
// "Question:", the verdict is the first "Verdict:" line with "yes" before
// "no", and blocks without a usable verdict are skipped.
func TestParseQuestionBlocks(t *testing.T) {
	tests := []struct {
		name, answer string
		want         []QuestionVerdict
	}{
		{
			name:   "prompt ends with the opening tag",
			answer: "STEP1: ok\nQuestion: Is it short?\nVerdict: [[YES]]\n</question>\n<question>\nQuestion: Is it in French?\nVerdict: [[NO]]\n</question>",
			want:   []QuestionVerdict{{Question: "Is it short?", Yes: true}, {Question: "Is it in French?", Yes: false}},
		},
		{
			name:   "opening tag present",
			answer: "<question>Question: A?\nVerdict: [[YES]]</question>",
			want:   []QuestionVerdict{{Question: "A?", Yes: true}},
		},
		{
			name:   "last Question: wins",
			answer: "<question>Question: draft\nSTEP2: Question: final one?\nVerdict: [[NO]]</question>",
			want:   []QuestionVerdict{{Question: "final one?", Yes: false}},
		},
		{
			name:   "no Question: takes the text before Verdict:",
			answer: "<question>Is it polite?\nVerdict: [[YES]]</question>",
			want:   []QuestionVerdict{{Question: "Is it polite?", Yes: true}},
		},
		{
			name:   "yes is tested before no and case-insensitively",
			answer: "<question>Question: A?\nVerdict: no, well, [[yes]]</question><question>Question: B?\nVerdict: Not applicable</question>",
			want:   []QuestionVerdict{{Question: "A?", Yes: true}, {Question: "B?", Yes: false}},
		},
		{
			name:   "only the first Verdict: line counts",
			answer: "<question>Question: A?\nVerdict: [[NO]]\nVerdict: [[YES]]</question>",
			want:   []QuestionVerdict{{Question: "A?", Yes: false}},
		},
		{
			name:   "unusable blocks are skipped",
			answer: "<question>Question: no verdict here</question><question>Question: C?\nVerdict: maybe</question><question>Question: \nVerdict: [[YES]]</question><question>Question: D?\nVerdict: [[YES]]</question>",
			want:   []QuestionVerdict{{Question: "D?", Yes: true}},
		},
		{name: "nothing", answer: "I cannot evaluate this.", want: nil},
		{name: "unclosed block", answer: "<question>Question: A?\nVerdict: [[YES]]", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseQuestionBlocks(tt.answer)
			for i := range got {
				got[i].Reason = ""
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestSelfConsistency pins the §7.2 aggregation: +1 per YES, -1 per NO,
// pass iff the sum is > 0 (ties fail), score = passed / parsed, 0 when
// nothing was parsed.
func TestSelfConsistency(t *testing.T) {
	y := func(q string) QuestionVerdict { return QuestionVerdict{Question: q, Yes: true, Reason: "y-" + q} }
	n := func(q string) QuestionVerdict { return QuestionVerdict{Question: q, Yes: false, Reason: "n-" + q} }
	tests := []struct {
		name    string
		samples [][]QuestionVerdict
		score   float64
		pass    []bool
		sums    []int
	}{
		{name: "single sample", samples: [][]QuestionVerdict{{y("a"), n("b"), y("c"), y("d")}}, score: 0.75, pass: []bool{true, false, true, true}, sums: []int{1, -1, 1, 1}},
		{name: "tie fails", samples: [][]QuestionVerdict{{y("a")}, {n("a")}}, score: 0, pass: []bool{false}, sums: []int{0}},
		{name: "majority of three", samples: [][]QuestionVerdict{{y("a"), n("b")}, {n("a"), n("b")}, {y("a"), y("b")}}, score: 0.5, pass: []bool{true, false}, sums: []int{1, -1}},
		{name: "rubric parsed in one sample only", samples: [][]QuestionVerdict{{y("a")}, {n("a"), y("b")}, {n("a")}}, score: 0.5, pass: []bool{false, true}, sums: []int{-1, 1}},
		{name: "nothing parsed", samples: [][]QuestionVerdict{{}, nil}, score: 0},
		{name: "no samples", samples: nil, score: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cons, score := SelfConsistency(tt.samples)
			if score != tt.score {
				t.Errorf("score %v, want %v", score, tt.score)
			}
			if len(cons) != len(tt.pass) {
				t.Fatalf("%d rubrics, want %d", len(cons), len(tt.pass))
			}
			for i, c := range cons {
				if c.Pass != tt.pass[i] || c.Sum != tt.sums[i] {
					t.Errorf("rubric %q: pass %v sum %d, want %v %d", c.Question, c.Pass, c.Sum, tt.pass[i], tt.sums[i])
				}
				want := "n-" + c.Question
				if c.Pass {
					want = "y-" + c.Question
				}
				if c.Reason != want {
					t.Errorf("rubric %q: reason %q, want %q", c.Question, c.Reason, want)
				}
			}
		})
	}
}
