// Package scorertest holds what the metric families' tests share: building
// one metric of a family and running a table of instances through it.
package scorertest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// MustMetric builds the metric name of family with params.
func MustMetric(t testing.TB, family []scorer.Entry, name string, params map[string]any) scorer.Metric {
	t.Helper()
	ms, err := Registry(family).Build([]scorer.MetricConfig{{Name: name, Params: params}})
	if err != nil {
		t.Fatal(err)
	}
	return ms[0]
}

// Case is one row of a metric table.
type Case struct {
	Name    string
	In      *scorer.Instance
	Want    float64
	WantNA  bool
	Details map[string]any // keys checked when set
}

// Run scores every case with m and checks the score, the metric id and
// the details named.
func Run(t *testing.T, m scorer.Metric, cases []Case) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			r, err := m.Score(context.Background(), tc.In)
			if tc.WantNA {
				if !errors.Is(err, scorer.ErrNotApplicable) {
					t.Fatalf("got (%v, %v), want ErrNotApplicable", r.Score, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Metric != m.Name() {
				t.Errorf("Metric = %q, want %q", r.Metric, m.Name())
			}
			if diff := r.Score - tc.Want; diff > 1e-12 || diff < -1e-12 {
				t.Errorf("Score = %v, want %v", r.Score, tc.Want)
			}
			for k, v := range tc.Details {
				if got := fmt.Sprint(r.Details[k]); got != fmt.Sprint(v) {
					t.Errorf("Details[%q] = %s, want %v (all: %v)", k, got, v, r.Details)
				}
			}
		})
	}
}

// Bench scores m on a new Instance from newIn per iteration.
func Bench(b *testing.B, m scorer.Metric, newIn func() *scorer.Instance) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Score(ctx, newIn()); err != nil {
			b.Fatal(err)
		}
	}
}

// Registry returns a registry holding the metrics of family.
func Registry(family []scorer.Entry) *scorer.Registry {
	r := scorer.NewRegistry()
	if err := r.RegisterAll(family...); err != nil {
		panic(err)
	}
	return r
}
