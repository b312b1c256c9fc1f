package stage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
)

// TestJudgeLogsNameTheJudgeOnce checks the log lines of a failed judge
// call made through Build: they go to the Settings' logger, carry the
// judge's name, provider and model, and name the judge once.
func TestJudgeLogsNameTheJudgeOnce(t *testing.T) {
	srv := judgetest.New(t)
	srv.SetDefault(judgetest.OpenAI, judgetest.Status(400))
	cfg := parseConfig(t, fmt.Sprintf(`
judges:
  - {name: primary, provider: openai, model: m, base_url: %s, api_key: k}
metrics:
  - name: coherence
sending_queue: {queue_size: 10}
`, srv.OpenAIBaseURL()))
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	st, err := Build(cfg, &recorder{}, Settings{Settings: telemetry.Settings{Logger: logger}})
	if err != nil {
		t.Fatal(err)
	}
	st.Start(t.Context())
	offer(st, scorer.FromTrajectory(&agentrun.Trajectory{TraceID: fmt.Sprintf("%032x", 1), Input: "q", Output: "a"}))
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if err := st.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	failed := 0
	for line := range strings.Lines(logs.String()) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if rec["msg"] != "judge call failed" {
			continue
		}
		failed++
		if rec["judge"] != "primary" || rec["provider"] != "openai" || rec["model"] != "m" {
			t.Errorf("log line lacks the judge's name, provider or model: %s", line)
		}
		if n := strings.Count(line, `"judge":`); n != 1 {
			t.Errorf("log line names the judge %d times: %s", n, line)
		}
	}
	if failed == 0 {
		t.Fatalf("no failed judge call logged:\n%s", logs.String())
	}
}
