package offline

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/extractor"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
	"github.com/evalsidecar/evalsidecar/scorer/judge/stage"
)

// TestPromptSizes measures the first judge request of every judge metric
// on the real-client captures (16 runs of 4 agent frameworks), rendered
// through the real sanitizer, in estimated tokens (a quarter token per
// byte of system prompt and prompt, as budgets and max_prompt_tokens
// count). docs/judge.md's local judge guide quotes the figures; the test
// fails when a metric's prompt outgrows the 4,096-token context of a small
// local model on these runs.
func TestPromptSizes(t *testing.T) {
	runs, err := ReadRuns(context.Background(), extractor.DefaultConfig(), []string{filepath.Join("..", "extractor", "testdata", "realclients")}, telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) < 16 {
		t.Fatalf("%d runs read from the captures", len(runs))
	}
	params := map[string]map[string]any{
		"rubric_based_final_response_quality_v1": {"rubrics": []any{"The response answers the request."}},
		"rubric_based_tool_use_quality_v1":       {"rubrics": []any{"The agent calls the right tools."}},
		"final_response_reference_free_v1":       {"rubrics": []any{"The response answers the request."}},
		"ragas_topic_adherence":                  {"reference_topics": []any{"home automation", "customer support"}},
	}
	j := judgemetrictest.NewJudge()
	r := scorer.NewRegistry()
	if err := stage.RegisterMetrics(r, judgemetrictest.Deps(j, judgemetrictest.NewGuardSanitizers())); err != nil {
		t.Fatal(err)
	}
	var perCall [][2]int // tool calls and prompt tokens of rubric_based_tool_use_quality_v1
	var b strings.Builder
	fmt.Fprintf(&b, "%-40s %5s %7s %7s\n", "metric", "runs", "median", "max")
	for _, id := range r.Names() {
		ms, err := r.Build([]scorer.MetricConfig{{Name: id, Params: params[id]}})
		if err != nil {
			continue // needs params this measurement does not give
		}
		m := ms[0]
		var sizes []int
		for _, run := range runs {
			in := scorer.FromTrajectory(run)
			if in.Missing(m.Needs()) != 0 {
				continue
			}
			before := len(j.Requests())
			_, _ = m.Score(context.Background(), in) // the judge has no answers: only the first request is made
			if reqs := j.Requests(); len(reqs) > before {
				req := reqs[before]
				sizes = append(sizes, (len(req.System)+len(req.Prompt))/4)
				if id == "rubric_based_tool_use_quality_v1" {
					perCall = append(perCall, [2]int{len(in.PredictedTrajectory), (len(req.System) + len(req.Prompt)) / 4})
				}
			}
		}
		if len(sizes) == 0 {
			continue
		}
		slices.Sort(sizes)
		med, top := sizes[len(sizes)/2], sizes[len(sizes)-1]
		fmt.Fprintf(&b, "%-40s %5d %7d %7d\n", id, len(sizes), med, top)
		if top > 4096 {
			t.Errorf("%s: a prompt of about %d tokens on the captures, over a 4,096-token context", id, top)
		}
	}
	t.Logf("estimated prompt tokens of the first judge request per metric:\n%s", b.String())
	t.Logf("rubric_based_tool_use_quality_v1, (tool calls, tokens) per run: %v", perCall)
}
