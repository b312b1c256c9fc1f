package scorer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"sync"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/testtext"
)

// preparedCaseMetrics returns every catalog metric and, for the
// parameterised ones, a metric per setting that changes how the
// reference side is derived (ROUGE type, stemming, sentence splitting,
// BLEU's effective order).
func preparedCaseMetrics(t *testing.T) []Metric {
	t.Helper()
	var ms []Metric
	add := func(name string, params map[string]any) {
		for _, c := range catalog() {
			if c.name != name {
				continue
			}
			m, err := c.factory(params)
			if err != nil {
				t.Fatalf("%s %v: %v", name, params, err)
			}
			ms = append(ms, m)
			return
		}
		t.Fatalf("no metric %s", name)
	}
	for _, c := range catalog() {
		var params map[string]any
		if c.name == MetricTrajectorySingleToolUse {
			params = map[string]any{ParamToolName: "tool_1"}
		}
		add(c.name, params)
	}
	for _, typ := range []string{"rouge1", "rouge2", "rouge3", "rouge9", "rougeL", "rougeLsum"} {
		for _, stem := range []bool{false, true} {
			for _, split := range []bool{false, true} {
				add(MetricRouge, map[string]any{ParamRougeType: typ, ParamUseStemmer: stem, ParamSplitSummaries: split})
			}
		}
	}
	add(MetricBLEU, map[string]any{ParamUseEffectiveOrder: false})
	return ms
}

// preparedCase is one reference side and the responses scored against it.
type preparedCase struct {
	name      string
	reference string
	refCalls  []agentrun.ToolCall
	responses []string
	runs      [][]agentrun.ToolCall
}

// preparedCases returns the texts of the shared text vectors (each
// vector's reference against its prediction and against the other
// vectors' predictions), the benchmark case, and random tool-call lists.
func preparedCases(t *testing.T) []preparedCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/text_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []textVector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatal(err)
	}
	var preds []string
	for _, v := range vs {
		preds = append(preds, v.Input.Prediction)
	}
	var cases []preparedCase
	for i, v := range vs {
		if v.Input.Reference == "" && v.Input.Prediction == "" {
			continue
		}
		rs := []string{v.Input.Prediction, preds[(i+1)%len(preds)], preds[(i+7)%len(preds)], ""}
		cases = append(cases, preparedCase{name: fmt.Sprintf("text vector %d", i), reference: v.Input.Reference, responses: rs})
	}
	pred, ref := benchTrajectories()
	cases = append(cases, preparedCase{
		name: "bench case", reference: testtext.Answer(200, 3), refCalls: ref,
		responses: []string{testtext.Answer(200, 0), testtext.Answer(200, 3), testtext.Answer(37, 5)},
		runs:      [][]agentrun.ToolCall{pred, ref, pred[:3], nil},
	})
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 12 {
		c := preparedCase{name: fmt.Sprintf("random calls %d", i), reference: testtext.Answer(1+rng.IntN(60), rng.IntN(9)), refCalls: randomCalls(rng)}
		for range 4 {
			c.runs = append(c.runs, randomCalls(rng))
			c.responses = append(c.responses, testtext.Answer(1+rng.IntN(60), rng.IntN(9)))
		}
		c.runs = append(c.runs, c.refCalls)
		cases = append(cases, c)
	}
	return cases
}

// randomCalls returns a few calls drawn from a small set of names and
// argument texts that are equal under some equalities only.
func randomCalls(rng *rand.Rand) []agentrun.ToolCall {
	args := []string{``, `{}`, ` {} `, `{"a": 1}`, `{"a": 1.0}`, `{"a": true}`, `{"a":1,"b":"x"}`, `{"b":"x","a":1}`, `not json`, `{"a": [1, {"c": null}]}`, `null`, `"s"`}
	calls := make([]agentrun.ToolCall, rng.IntN(6))
	for i := range calls {
		calls[i] = agentrun.ToolCall{Name: fmt.Sprintf("tool_%d", rng.IntN(3)), Arguments: args[rng.IntN(len(args))]}
	}
	return calls
}

// instancesOf returns the instances of c: each response with each run,
// the reference side set and, when prep is set, prepared.
func (c preparedCase) instancesOf(prep *PreparedReference) []*Instance {
	var out []*Instance
	runs := c.runs
	if len(runs) == 0 {
		runs = [][]agentrun.ToolCall{nil}
	}
	for _, resp := range c.responses {
		for _, calls := range runs {
			in := &Instance{
				Response: resp, Reference: c.reference,
				PredictedTrajectory: calls, ReferenceTrajectory: c.refCalls,
				Has:               InResponse | InReference | InPredictedTrajectory | InReferenceTrajectory | InFailure,
				PreparedReference: prep,
			}
			if resp == "" {
				in.Has &^= InResponse
			}
			in.Invocations = []Invocation{{
				Response: resp, Reference: c.reference,
				PredictedToolCalls: calls, ReferenceToolCalls: c.refCalls, HasReference: true,
			}}
			in.Has |= InInvocations
			out = append(out, in)
		}
	}
	return out
}

// scoreAll scores in with every metric, keeping errors as results.
func scoreAll(ms []Metric, in *Instance) []any {
	out := make([]any, len(ms))
	for i, m := range ms {
		if in.Missing(m.Needs()) != 0 {
			out[i] = "missing"
			continue
		}
		r, err := m.Score(context.Background(), in)
		switch {
		case errors.Is(err, ErrNotApplicable):
			out[i] = "not applicable"
		case err != nil:
			out[i] = "error: " + err.Error()
		default:
			out[i] = r
		}
	}
	return out
}

// TestPreparedReferenceGivesTheSameScores scores every case with and
// without the reference side prepared, sequentially and from several
// goroutines sharing one PreparedReference, and wants the same results
// (details included) from every metric.
func TestPreparedReferenceGivesTheSameScores(t *testing.T) {
	ms := preparedCaseMetrics(t)
	for _, c := range preparedCases(t) {
		t.Run(c.name, func(t *testing.T) {
			plain := c.instancesOf(nil)
			want := make([][]any, len(plain))
			for i, in := range plain {
				want[i] = scoreAll(ms, in)
			}
			prep := NewPreparedReference(c.reference, c.refCalls)
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i, in := range c.instancesOf(prep) {
						got := scoreAll(ms, in)
						for k := range ms {
							if !reflect.DeepEqual(got[k], want[i][k]) {
								t.Errorf("goroutine %d, instance %d, %s: prepared %+v, plain %+v", g, i, ms[k].Name(), got[k], want[i][k])
							}
						}
					}
				}()
			}
			wg.Wait()
		})
	}
}

// TestPreparedReferenceOnlyServesItsOwnSide gives an instance a prepared
// reference made from other texts and calls: the scores must be those of
// the instance's own reference side.
func TestPreparedReferenceOnlyServesItsOwnSide(t *testing.T) {
	ms := preparedCaseMetrics(t)
	pred, ref := benchTrajectories()
	other := append([]agentrun.ToolCall(nil), ref...) // equal calls, another list
	other[0].Arguments = `{"query": "elsewhere"}`
	prep := NewPreparedReference(testtext.Answer(50, 1), ref)
	in := func(p *PreparedReference) *Instance {
		return &Instance{
			Response: testtext.Answer(60, 0), Reference: testtext.Answer(40, 2),
			PredictedTrajectory: pred, ReferenceTrajectory: other,
			Has:               InResponse | InReference | InPredictedTrajectory | InReferenceTrajectory,
			PreparedReference: p,
		}
	}
	want, got := scoreAll(ms, in(nil)), scoreAll(ms, in(prep))
	for k := range ms {
		if !reflect.DeepEqual(got[k], want[k]) {
			t.Errorf("%s: with another case's prepared reference %+v, without %+v", ms[k].Name(), got[k], want[k])
		}
	}
}
