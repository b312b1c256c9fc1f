package scorertest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// SharedValues checks that the values metrics share through
// scorer.Derive never change a score: each metric of ms scores an
// instance the other metrics have used exactly as it scores a fresh one
// (same result, same error). newIn returns a fresh instance each call.
// Metrics whose inputs are missing are skipped, as the engine skips
// them. Three rounds score one instance in random orders; a fourth
// scores one instance with every metric at once, each from its own
// goroutine (run with -race).
func SharedValues(t *testing.T, ms []scorer.Metric, newIn func() *scorer.Instance, seed uint64) {
	t.Helper()
	ctx := context.Background()
	type outcome struct {
		res scorer.Result
		err string
	}
	score := func(m scorer.Metric, in *scorer.Instance) outcome {
		res, err := m.Score(ctx, in)
		return outcome{res: res, err: fmt.Sprint(err)}
	}
	fresh := make([]outcome, len(ms))
	applicable := make([]bool, len(ms))
	for i, m := range ms {
		in := newIn()
		if applicable[i] = in.Missing(m.Needs()) == 0; applicable[i] {
			fresh[i] = score(m, in)
		}
	}
	check := func(round, i int, got outcome) {
		if !reflect.DeepEqual(got, fresh[i]) {
			t.Errorf("round %d, %s: %+v on a shared instance, %+v on a fresh one", round, ms[i].Name(), got, fresh[i])
		}
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	for round := range 3 {
		shared := newIn()
		for _, i := range rng.Perm(len(ms)) {
			if applicable[i] {
				check(round, i, score(ms[i], shared))
			}
		}
	}
	shared := newIn()
	var wg sync.WaitGroup
	for _, i := range rng.Perm(len(ms)) {
		if applicable[i] {
			wg.Go(func() { check(3, i, score(ms[i], shared)) })
		}
	}
	wg.Wait()
}
