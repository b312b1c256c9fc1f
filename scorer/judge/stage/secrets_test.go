package stage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
)

// planted is one text of testdata/planted.json with the secrets in it.
type planted struct {
	Text    string `json:"text"`
	Secrets []struct {
		Type  string `json:"type"`
		Value string `json:"value"`
	} `json:"secrets"`
}

// TestPlantedSecretsNeverLeave runs every planted text (over 100 secrets
// of every redaction type, in tool results, e-mails, chat and configs)
// through two judge metrics as the user's input, a tool result and the
// agent's answer. No secret may appear in a judge request body, in a log
// line (debug level) or in a metric label value.
func TestPlantedSecretsNeverLeave(t *testing.T) {
	raw, err := os.ReadFile("testdata/planted.json")
	if err != nil {
		t.Fatal(err)
	}
	var texts []planted
	if err := json.Unmarshal(raw, &texts); err != nil {
		t.Fatal(err)
	}
	var secrets []string
	types := map[string]bool{}
	for _, p := range texts {
		for _, s := range p.Secrets {
			secrets = append(secrets, s.Value)
			types[s.Type] = true
		}
	}
	if len(secrets) < 100 || len(types) < 9 {
		t.Fatalf("corpus has %d secrets of %d types, want >= 100 of all 9", len(secrets), len(types))
	}

	srv := judgetest.New(t)
	srv.Handle(judgetest.OpenAI, func(r judgetest.CapturedRequest) judgetest.Reply {
		if strings.Contains(r.System+r.User, "Leakage") {
			return judgetest.JSON(`{"explanation": "no leak", "score": 1}`)
		}
		return judgetest.JSON(`{"explanation": "coherent", "score": 4}`)
	})
	cfg := parseConfig(t, fmt.Sprintf(`
judges:
  - {name: primary, provider: openai, model: m, base_url: %s, api_key: k}
metrics:
  - name: coherence
  - name: leakage
    type: pointwise
    params:
      criteria: {Leakage: "The answer reveals no personal data."}
      rating_rubric: {1: "No leak", 0: "Leak"}
      input_variables: [prompt, predicted_trajectory]
sending_queue: {queue_size: 1000}
`, srv.OpenAIBaseURL()))
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	reg := prometheus.NewRegistry()
	rec := &recorder{}
	st, err := Build(cfg, rec, Settings{Settings: telemetry.Settings{Registerer: reg, Logger: logger}})
	if err != nil {
		t.Fatal(err)
	}
	st.Start(t.Context())
	for i, p := range texts {
		tr := &agentrun.Trajectory{
			TraceID: fmt.Sprintf("%032x", i+1), Service: "crm-agent", Agent: "support",
			Input:  "Please check this for me: " + p.Text,
			Output: "Here is what I found: " + p.Text,
			ToolCalls: []agentrun.ToolCall{{Name: "lookup", Arguments: `{"q": "customer"}`, ArgumentsValid: true,
				Result: p.Text}},
		}
		offer(st, scorer.FromTrajectory(tr))
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if err := st.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2*len(texts) {
		t.Fatalf("%d judge requests, want %d", len(reqs), 2*len(texts))
	}
	for _, r := range reqs {
		body := string(r.Body)
		for _, s := range secrets {
			if strings.Contains(body, s) || strings.Contains(body, jsonEscaped(s)) {
				t.Errorf("request %d carries secret %q", r.Seq, s)
			}
		}
	}
	for _, s := range secrets {
		if strings.Contains(logs.String(), s) {
			t.Errorf("a log line carries secret %q", s)
		}
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				for _, s := range secrets {
					if strings.Contains(l.GetValue(), s) {
						t.Errorf("%s{%s} carries secret %q", mf.GetName(), l.GetName(), s)
					}
				}
			}
		}
	}
	scored := 0
	for _, ev := range rec.all() {
		scored += len(ev.Results)
	}
	if scored != 2*len(texts) {
		t.Errorf("%d judge scores, want %d", scored, 2*len(texts))
	}
}

// jsonEscaped is s as it appears inside a JSON string.
func jsonEscaped(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
