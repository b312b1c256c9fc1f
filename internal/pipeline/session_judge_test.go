package pipeline

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
)

// TestSessionJudgedAsConversation sends a three-turn conversation, each
// turn its own trace carrying no history, to a sidecar whose judge metric
// is multi_turn_chat_quality. No run can be judged by it (a run has no
// conversation); the closed session is, once, and the judge receives every
// turn of the conversation.
func TestSessionJudgedAsConversation(t *testing.T) {
	srv := judgetest.New(t)
	var mu sync.Mutex
	var prompts []string
	srv.Handle(judgetest.OpenAI, func(r judgetest.CapturedRequest) judgetest.Reply {
		mu.Lock()
		prompts = append(prompts, r.System+"\n"+r.User)
		mu.Unlock()
		reply := judgetest.JSON(`{"explanation": "follows the conversation", "score": 4}`)
		reply.InputTokens, reply.OutputTokens = 500, 30
		return reply
	})
	cfg, dir := sessionJudgeConfig(t, srv, `
    - name: multi_turn_chat_quality`)
	p, ctx := startOnline(t, cfg, Options{})
	tp := sdkTracerProvider(t, ctx, p, "travel-agent")
	tracer := tp.Tracer("session-judge-test")
	turns := [][2]string{
		{"I want to fly to Lisbon in May.", "Lisbon in May: flights from 120 EUR."},
		{"Make it the 12th, two people.", "Two seats on 12 May: 240 EUR."},
		{"Book it.", "Booked: LIS, 12 May, 2 passengers, ref TRV-5521."},
	}
	t0 := time.Now().Add(-time.Minute)
	for i, tn := range turns {
		_, root := tracer.Start(ctx, "invoke_agent travel", trace.WithTimestamp(t0.Add(time.Duration(i)*10*time.Second)))
		root.SetAttributes(
			attribute.String("gen_ai.operation.name", "invoke_agent"),
			attribute.String("gen_ai.agent.name", "travel"),
			attribute.String("gen_ai.conversation.id", "conv-lisbon"),
			attribute.String("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"`+tn[0]+`"}]}]`),
			attribute.String("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"`+tn[1]+`"}]}]`),
		)
		root.End(trace.WithTimestamp(t0.Add(time.Duration(i)*10*time.Second + time.Second)))
	}
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	mu.Lock()
	defer mu.Unlock()
	if len(prompts) != 1 {
		t.Fatalf("%d judge requests, want 1 (the session)", len(prompts))
	}
	for _, tn := range turns {
		for _, text := range tn {
			if !strings.Contains(prompts[0], text) {
				t.Errorf("the judge prompt lacks %q:\n%s", text, prompts[0])
			}
		}
	}
	var judged []record.ScoreRecord
	for _, s := range readLines[record.ScoreRecord](t, filepath.Join(dir, "scores.jsonl")) {
		if s.Metric == "multi_turn_chat_quality" {
			judged = append(judged, s)
		}
	}
	if len(judged) != 1 {
		t.Fatalf("%d multi_turn_chat_quality scores, want 1", len(judged))
	}
	s := judged[0]
	if s.Scope != record.ScopeSession || s.SessionID != "conv-lisbon" || s.TraceID != "" || s.Score != 4 || s.Judge == nil || s.Judge.InputTokens != 500 {
		t.Errorf("session judge score %+v", s)
	}
	if n := len(readLines[record.SessionRecord](t, filepath.Join(dir, "sessions.jsonl"))); n != 1 {
		t.Errorf("sessions.jsonl has %d lines, want 1 (a follow-up does not repeat the session)", n)
	}
}

// sessionJudgeConfig is a sidecar configuration with sessions on and the
// judge metrics (YAML list items) judged by srv, writing JSON lines to the
// returned directory.
func sessionJudgeConfig(t *testing.T, srv *judgetest.Server, metrics string) (config.Config, string) {
	t.Helper()
	cfg, err := config.Parse([]byte(fmt.Sprintf(`
judge:
  judges:
    - name: primary
      provider: openai
      model: judge-model
      base_url: %s
      api_key: sk-test
  metrics:%s
sessions:
  enabled: true
`, srv.OpenAIBaseURL(), metrics)), nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	def := testConfig(dir)
	cfg.Receiver, cfg.Exporters, cfg.Extractor = def.Receiver, def.Exporters, def.Extractor
	return cfg, dir
}
