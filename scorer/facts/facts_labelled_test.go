package facts

import (
	"context"
	"errors"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"gopkg.in/yaml.v3"
)

// labelledFactsCase is one hand-labelled sentence of
// testdata/unsupported_facts/labelled.yaml.
type labelledFactsCase struct {
	Name        string   `yaml:"name"`
	Prompt      string   `yaml:"prompt"`
	Source      string   `yaml:"source"`
	Response    string   `yaml:"response"`
	Facts       []string `yaml:"facts"`
	Unsupported []string `yaml:"unsupported"`
	Why         string   `yaml:"why"`
}

func loadLabelledFactsCases(t *testing.T) []labelledFactsCase {
	t.Helper()
	f, err := os.Open("testdata/unsupported_facts/labelled.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	dec.KnownFields(true)
	var cases []labelledFactsCase
	if err := dec.Decode(&cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 60 {
		t.Fatalf("%d labelled cases, want at least 60", len(cases))
	}
	return cases
}

// TestUnsupportedFactsLabelled checks the metric against sentences whose
// facts were labelled by hand: which facts the response holds, which of
// them no source supports, and the score that follows.
func TestUnsupportedFactsLabelled(t *testing.T) {
	m := factsMetric()
	for _, c := range loadLabelledFactsCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			if got := responseFactSurfaces(c.Response); !slices.Equal(got, c.Facts) {
				t.Errorf("facts of %q = %q, want %q", c.Response, got, c.Facts)
			}
			in := unsupportedFactsCase{Response: c.Response, Prompt: c.Prompt}
			if c.Source != "" {
				in.Tools = append(in.Tools, struct {
					Args   string `json:"args"`
					Result string `json:"result"`
					Error  string `json:"error"`
				}{Result: c.Source})
			}
			r, err := m.Score(context.Background(), in.instance())
			if len(c.Facts) == 0 {
				if !errors.Is(err, scorer.ErrNotApplicable) {
					t.Errorf("got (%+v, %v), want ErrNotApplicable", r, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := c.Unsupported
			if want == nil {
				want = []string{}
			}
			if got := r.Details["unsupported_facts"].([]string); !slices.Equal(got, want) {
				t.Errorf("unsupported = %q, want %q", got, want)
			}
			if wantScore := float64(len(c.Unsupported)) / float64(len(c.Facts)); math.Abs(r.Score-wantScore) > 1e-12 {
				t.Errorf("score = %v, want %v", r.Score, wantScore)
			}
			if r.Details["facts"] != len(c.Facts) {
				t.Errorf("facts = %v, want %d", r.Details["facts"], len(c.Facts))
			}
		})
	}
}

// responseFactSurfaces returns the distinct facts of a response as written.
func responseFactSurfaces(s string) []string {
	out := []string{}
	for _, f := range responseFacts(s).facts {
		out = append(out, f.surface)
	}
	return out
}
