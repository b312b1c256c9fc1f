package scorer

import (
	"context"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// MetricRepeatedToolCallRate is the id of the repeated tool-call metric.
const MetricRepeatedToolCallRate = "repeated_tool_call_rate"

// repeatedToolCallRate scores the share of tool calls that repeat an
// earlier call of the run: same tool name and equal arguments.
//
// Formula: repeated / calls, where call i is repeated when some call j < i
// has the same name and equal arguments. Arguments are compared as parsed
// JSON: object key order is ignored and numbers compare by value (1 equals
// 1.0); arguments that are not valid JSON compare as raw text. The first
// occurrence of a call is never counted, so three identical calls give
// 2/3. Edge case: zero calls is not applicable (ErrNotApplicable).
// Details: "calls", "repeated".
type repeatedToolCallRate struct{}

// Name returns "repeated_tool_call_rate".
func (repeatedToolCallRate) Name() string { return MetricRepeatedToolCallRate }

// Needs requires the predicted trajectory.
func (repeatedToolCallRate) Needs() Inputs { return InPredictedTrajectory }

func (repeatedToolCallRate) inline() {}

// Score returns repeated / calls.
func (repeatedToolCallRate) Score(_ context.Context, in *Instance) (Result, error) {
	calls := in.PredictedTrajectory
	if len(calls) == 0 {
		return Result{}, ErrNotApplicable
	}
	key := func(i int) string { return argsKey(calls[i].Arguments) }
	rep := countRepeated(calls, key)
	return Result{
		Metric:  MetricRepeatedToolCallRate,
		Score:   float64(rep) / float64(len(calls)),
		Details: map[string]any{"calls": len(calls), "repeated": rep},
	}, nil
}

// pairwiseLimit is the call count up to which repeats are found by
// comparing pairs; above it a set of keys is used.
const pairwiseLimit = 32

// countRepeated counts calls that repeat an earlier call; key(i) is
// argsKey of call i's arguments. Keys are asked for only for calls whose
// name occurs more than once.
func countRepeated(calls []agentrun.ToolCall, key func(i int) string) int {
	n := len(calls)
	if n < 2 {
		return 0
	}
	rep := 0
	if n <= pairwiseLimit {
		var keys [pairwiseLimit]string
		var have [pairwiseLimit]bool
		keyOf := func(i int) string {
			if !have[i] {
				keys[i], have[i] = key(i), true
			}
			return keys[i]
		}
		for i := 1; i < n; i++ {
			for j := 0; j < i; j++ {
				if calls[j].Name != calls[i].Name {
					continue
				}
				if calls[j].Arguments == calls[i].Arguments || keyOf(j) == keyOf(i) {
					rep++
					break
				}
			}
		}
		return rep
	}
	names := make(map[string]int, n)
	for i := range calls {
		names[calls[i].Name]++
	}
	seen := make(map[string]struct{}, n)
	for i := range calls {
		if names[calls[i].Name] < 2 {
			continue
		}
		k := calls[i].Name + "\x00" + key(i)
		if _, ok := seen[k]; ok {
			rep++
			continue
		}
		seen[k] = struct{}{}
	}
	return rep
}
