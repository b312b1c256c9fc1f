package celmetric

import (
	"context"
	"fmt"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// BenchmarkEssentialToolsPresent scores the seed's custom metric on a
// 10-call trajectory.
func BenchmarkEssentialToolsPresent(b *testing.B) {
	m, err := New("essential_tools_present", essentialTools)
	if err != nil {
		b.Fatal(err)
	}
	calls := make([]agentrun.ToolCall, 10)
	for i := range calls {
		calls[i] = agentrun.ToolCall{Name: fmt.Sprintf("tool%d", i), Arguments: `{"q": "x", "n": 1}`, ArgumentsValid: true}
	}
	in := &scorer.Instance{PredictedTrajectory: calls, Has: scorer.InPredictedTrajectory}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Score(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
}
