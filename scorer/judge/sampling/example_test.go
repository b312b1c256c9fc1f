package sampling_test

import (
	"context"
	"fmt"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer/judge/sampling"
)

// A judge stage asks each judge metric's policy about a run after the
// deterministic metrics have scored it, and records the outcome.
func ExamplePolicy_Decide() {
	rate := 0.0 // judge only what the rules select
	p, err := sampling.New(sampling.Config{
		Rate:   &rate,
		Filter: sampling.Filter{Environment: []string{"prod"}},
		Always: []sampling.RuleConfig{
			{Failed: true},
			{ScoreBelow: &sampling.ScoreBelow{Metric: "tool_args_valid", Threshold: 1}},
		},
	}, nil)
	if err != nil {
		panic(err)
	}
	tr := &agentrun.Trajectory{TraceID: "4bf92f3577b34da6a3ce929d0e0e4736", Environment: "prod"}
	scores := map[string]float64{"tool_args_valid": 0.5} // the deterministic metrics' scores
	score := func(metric string) (float64, bool) { s, ok := scores[metric]; return s, ok }
	d := p.Decide(sampling.RunOf(tr, score))
	fmt.Println(d.Outcome, d.Rule, d.Judge())

	tr.Environment = "staging"
	fmt.Println("faithfulness", p.Decide(sampling.RunOf(tr, nil)).Outcome)
	// Output:
	// always score_below:tool_args_valid true
	// faithfulness filtered
}

// The judge result cache computes identical requests once.
func ExampleCache_Do() {
	c, err := sampling.NewCache[float64](sampling.CacheConfig{}, nil)
	if err != nil {
		panic(err)
	}
	k := sampling.NewKey("faithfulness", "gpt", "prompt v3", "the rendered request")
	judge := func(context.Context) (float64, error) { return 0.8, nil }
	for range 2 {
		score, cached, err := c.Do(context.Background(), k, judge)
		fmt.Println(score, cached, err)
	}
	// Output:
	// 0.8 false <nil>
	// 0.8 true <nil>
}
