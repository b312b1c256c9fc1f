package aggregate

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// Published values: Cohen's kappa of the two-rater, 50-item table of
// Wikipedia's "Cohen's kappa" article (20 yes/yes, 5 yes/no, 10 no/yes,
// 15 no/no: kappa 0.4), and Spearman's rho of its "Spearman's rank
// correlation coefficient" example (IQ against hours of TV: rho = -29/165).
func TestPublishedAgreement(t *testing.T) {
	var a, b []string
	add := func(n int, x, y string) {
		for range n {
			a, b = append(a, x), append(b, y)
		}
	}
	add(20, "yes", "yes")
	add(5, "yes", "no")
	add(10, "no", "yes")
	add(15, "no", "no")
	if k, ok := CohenKappa(a, b); !ok || math.Abs(k-0.4) > 1e-12 {
		t.Errorf("kappa %v (%v), want 0.4", k, ok)
	}
	iq := []float64{106, 100, 86, 101, 99, 103, 97, 113, 112, 110}
	tv := []float64{7, 27, 2, 50, 28, 29, 20, 12, 6, 17}
	if r, ok := Spearman(iq, tv); !ok || math.Abs(r-(-29.0/165)) > 1e-12 {
		t.Errorf("rho %v (%v), want %v", r, ok, -29.0/165)
	}
	// ties take the mean rank: x ranks 1, 2.5, 2.5, 4 against y 1..4
	if r, _ := Spearman([]float64{1, 2, 2, 3}, []float64{1, 2, 3, 4}); math.Abs(r-0.9486832980505138) > 1e-12 {
		t.Errorf("rho with ties %v", r)
	}
}

func TestAgree(t *testing.T) {
	// a 1-5 judge against people's 1-5 scores
	pairs := []Pair{{Score: 5, Human: 5.0}, {Score: 4, Human: 5.0}, {Score: 2, Human: 1.0}, {Score: 3, Human: 3.0}}
	a := Agree("coherence", pairs)
	if a.N != 4 || !a.HasMAE || a.MAE != 0.5 || !a.HasSpearman || !a.HasKappa {
		t.Fatalf("%+v", a)
	}
	if a.Confusion["5"]["4"] != 1 || a.Confusion["5"]["5"] != 1 {
		t.Errorf("confusion %v", a.Confusion)
	}
	// labels: the judge's label against people's booleans
	lab := Agree("safety", []Pair{{Label: "true", Human: true}, {Label: "false", Human: true}, {Label: "false", Human: false}})
	if lab.HasSpearman || !lab.HasKappa || lab.Confusion["true"]["false"] != 1 {
		t.Errorf("%+v", lab)
	}
}

// A pairwise metric's summary has Vertex's win rates and the rows whose
// two orders disagreed.
func TestWinRates(t *testing.T) {
	ev := func(label string, consistent bool) *scorer.Evaluation {
		return &scorer.Evaluation{Results: []scorer.Result{{Metric: "pairwise_coherence", Label: label,
			Details: map[string]any{"position_consistent": consistent}}}}
	}
	s := Summarize([]string{"pairwise_coherence"}, []*scorer.Evaluation{
		ev("CANDIDATE", true), ev("CANDIDATE", true), ev("BASELINE", true), ev("TIE", false),
	}, nil)
	m := s.Metrics[0]
	if !m.HasWinRates || m.CandidateWinRate != 0.5 || m.BaselineWinRate != 0.25 || m.PositionInconsistent != 1 {
		t.Fatalf("%+v", m)
	}
	b, _ := json.Marshal(s)
	if !strings.Contains(string(b), `"pairwise_coherence/candidate_model_win_rate":0.5,"pairwise_coherence/baseline_model_win_rate":0.25`) {
		t.Errorf("summary %s", b)
	}
}
