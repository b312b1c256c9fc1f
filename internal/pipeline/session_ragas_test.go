package pipeline

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/scorer/dataset"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
)

// ragasExamples are Ragas' published multi-turn samples and their
// MultiTurnSample.pretty_repr, kept by the Ragas metrics' tests.
var ragasExamples = filepath.Join("..", "..", "scorer", "judge", "judgemetric", "ragas", "testdata", "ragas_examples")

// ragasSample reads sample i of samples.jsonl as its messages.
func ragasSample(t *testing.T, i int) []agentrun.Message {
	t.Helper()
	rows, err := dataset.Load(filepath.Join(ragasExamples, "samples.jsonl"), dataset.FormatJSONL)
	if err != nil {
		t.Fatal(err)
	}
	return rows[i].Instance.Transcript
}

// sendConversation sends a Ragas sample as the agent's traces, one per
// human message, through tracer: the agent span carries the human message
// and the last AI text of the turn, each AI message is a model call span
// (its text, its tool calls) followed by one tool span per call, whose
// result is the tool message answering it. Turn k goes through tracer k
// modulo their number.
func sendConversation(ctx context.Context, t *testing.T, tracers []trace.Tracer, msgs []agentrun.Message, conv, agent, caseID string, t0 time.Time) int {
	t.Helper()
	var turns [][]agentrun.Message
	for _, m := range msgs {
		if m.Role == agentrun.RoleUser {
			turns = append(turns, nil)
		}
		turns[len(turns)-1] = append(turns[len(turns)-1], m)
	}
	parts := func(role string, ps ...map[string]any) string {
		b, err := json.Marshal([]map[string]any{{"role": role, "parts": ps}})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	text := func(s string) map[string]any { return map[string]any{"type": "text", "content": s} }
	for k, turn := range turns {
		at := t0.Add(time.Duration(k) * 10 * time.Second)
		step := func(n int) time.Time { return at.Add(time.Duration(n) * 10 * time.Millisecond) }
		tracer := tracers[k%len(tracers)]
		rctx, root := tracer.Start(ctx, "invoke_agent "+agent, trace.WithTimestamp(at))
		root.SetAttributes(
			attribute.String("gen_ai.operation.name", "invoke_agent"),
			attribute.String("gen_ai.agent.name", agent),
			attribute.String("gen_ai.conversation.id", conv),
			attribute.String("gen_ai.input.messages", parts("user", text(turn[0].Content))),
		)
		if caseID != "" {
			root.SetAttributes(attribute.String("eval.case_id", caseID))
		}
		n, final := 1, ""
		var pending []trace.Span // tool spans waiting for their result
		var pendingAt []time.Time
		for _, m := range turn[1:] {
			switch m.Role {
			case agentrun.RoleAssistant:
				ps := []map[string]any{text(m.Content)}
				for _, c := range m.ToolCalls {
					ps = append(ps, map[string]any{"type": "tool_call", "name": c.Name, "arguments": json.RawMessage(c.Arguments)})
				}
				_, llm := tracer.Start(rctx, "chat model", trace.WithTimestamp(step(n)))
				llm.SetAttributes(attribute.String("gen_ai.operation.name", "chat"), attribute.String("gen_ai.request.model", "model"),
					attribute.String("gen_ai.output.messages", parts("assistant", ps...)))
				llm.End(trace.WithTimestamp(step(n + 1)))
				n += 2
				for _, c := range m.ToolCalls {
					_, tool := tracer.Start(rctx, "execute_tool "+c.Name, trace.WithTimestamp(step(n)))
					tool.SetAttributes(attribute.String("gen_ai.operation.name", "execute_tool"), attribute.String("gen_ai.tool.name", c.Name),
						attribute.String("gen_ai.tool.call.arguments", c.Arguments))
					pending, pendingAt = append(pending, tool), append(pendingAt, step(n+1))
					n += 2
				}
				if m.Content != "" {
					final = m.Content
				}
			case agentrun.RoleTool:
				pending[0].SetAttributes(attribute.String("gen_ai.tool.call.result", m.Content))
				pending[0].End(trace.WithTimestamp(pendingAt[0]))
				pending, pendingAt = pending[1:], pendingAt[1:]
			}
		}
		for i, tool := range pending {
			tool.End(trace.WithTimestamp(pendingAt[i]))
		}
		if final != "" {
			root.SetAttributes(attribute.String("gen_ai.output.messages", parts("assistant", text(final))))
		}
		root.End(trace.WithTimestamp(at.Add(time.Second)))
	}
	return len(turns)
}

// envelope is the guard's quoting of one field.
var envelope = regexp.MustCompile(`(?s)^<data-[0-9a-f]{16} field="[a-z_]+">\n(.*)\n</data-[0-9a-f]{16}>$`)

// promptField reads field of the input a Ragas prompt frames, without the
// guard's envelope.
func promptField(t *testing.T, prompt, field string) string {
	t.Helper()
	i, j := strings.LastIndex(prompt, "input: {"), strings.LastIndex(prompt, "\nOutput: ")
	if i < 0 || j < i {
		t.Fatalf("no framed input in\n%s", prompt)
	}
	var input map[string]string
	if err := json.Unmarshal([]byte(prompt[i+len("input: "):j]), &input); err != nil {
		t.Fatalf("framed input: %v\n%s", err, prompt)
	}
	m := envelope.FindStringSubmatch(input[field])
	if m == nil {
		t.Fatalf("field %s is not one envelope: %q", field, input[field])
	}
	return m[1]
}

// TestSessionRagasDialogue sends two Ragas samples as conversations of
// three turns, each turn its own trace with its model calls and tool
// calls, to a sidecar judging ragas_topic_adherence (topics configured
// for the agent) and ragas_agent_goal_accuracy (with the reference when
// the instance has one). Each closed session is judged on its whole
// dialogue: the transcript the judge receives is exactly Ragas'
// rendering of the same MultiTurnSample. The second conversation is
// canary traffic naming a case of the reference store, whose reference
// is the desired outcome. The session scores reach the sinks keyed by
// session id.
func TestSessionRagasDialogue(t *testing.T) {
	srv, requests := ragasJudge(t)
	cfg, dir := sessionJudgeConfig(t, srv, `
    - name: ragas_topic_adherence
      params:
        reference_topics_by_agent:
          science-bot: [science]
    - name: ragas_agent_goal_accuracy`)
	cfg.Scorer.References.Files = []string{filepath.Join("testdata", "dinner.references.jsonl")}
	p, ctx := startOnline(t, cfg, Options{})
	tp := sdkTracerProvider(t, ctx, p, "assistant")
	tracer := []trace.Tracer{tp.Tracer("session-ragas-test")}
	t0 := time.Now().Add(-2 * time.Minute)
	if n := sendConversation(ctx, t, tracer, ragasSample(t, 0), "conv-science", "science-bot", "", t0); n != 3 {
		t.Fatalf("the topic adherence sample has %d turns, want 3", n)
	}
	if n := sendConversation(ctx, t, tracer, ragasSample(t, 2), "conv-dinner", "dinner-bot", "dinner-1", t0.Add(time.Minute)); n != 3 {
		t.Fatalf("the goal accuracy sample has %d turns, want 3", n)
	}
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	reqs := requests()
	whole := wholeDialogues(t, reqs)
	// one extraction and a refusal check per extracted topic (2); one
	// goal inference per conversation
	want := map[string]int{"topic_extraction topic_adherence": 1, "topic_refused topic_adherence": 2,
		"infer_goal_outcome topic_adherence": 1, "infer_goal_outcome agent_goal_accuracy": 1}
	for k, n := range want {
		if whole[k] != n {
			t.Errorf("%d %s requests carry the whole dialogue as Ragas renders it, want %d", whole[k], k, n)
		}
	}
	var desired []string
	for _, r := range reqs {
		if r.SchemaName == "compare_outcome" {
			desired = append(desired, promptField(t, r.User, "desired_outcome"))
		}
	}
	// the case names the dinner runs too: each of its three runs and
	// the session compare with the reference
	ref := "Table booked at one of the chinese restaurants at 8 pm"
	if n := strings.Count(strings.Join(desired, "\n"), ref); n != 4 {
		t.Errorf("the case's reference is the desired outcome of %d comparisons, want 4 (3 dinner runs, the dinner session)", n)
	}

	got := ragasSessionScores(t, readLines[record.ScoreRecord](t, filepath.Join(dir, "scores.jsonl")))
	checkRagasScore(t, got, "conv-science ragas_topic_adherence", 2.0/3, nil)
	checkRagasScore(t, got, "conv-science ragas_agent_goal_accuracy", 1, false)
	checkRagasScore(t, got, "conv-dinner ragas_agent_goal_accuracy", 1, true)
	if _, ok := got["conv-dinner ragas_topic_adherence"]; ok {
		t.Error("the dinner session has no reference topics but was scored for topic adherence")
	}
}

// ragasJudge is a judge server answering every Ragas prompt: two topics,
// neither refused, the first on the reference topics; a goal reached. It
// returns the requests it received so far.
func ragasJudge(t *testing.T) (*judgetest.Server, func() []judgetest.CapturedRequest) {
	srv := judgetest.New(t)
	var mu sync.Mutex
	var reqs []judgetest.CapturedRequest
	srv.Handle(judgetest.OpenAI, func(r judgetest.CapturedRequest) judgetest.Reply {
		mu.Lock()
		reqs = append(reqs, r)
		mu.Unlock()
		switch r.SchemaName {
		case "topic_extraction":
			return judgetest.JSON(`{"topics": ["Einstein's theory of relativity", "chocolate cake recipe"]}`)
		case "topic_refused":
			return judgetest.JSON(`{"refused_to_answer": false}`)
		case "topic_classification":
			return judgetest.JSON(`{"classifications": [true, false]}`)
		case "infer_goal_outcome":
			return judgetest.JSON(`{"user_goal": "the user's goal", "end_state": "the end state"}`)
		}
		return judgetest.JSON(`{"reason": "same outcome", "verdict": "1"}`)
	})
	return srv, func() []judgetest.CapturedRequest {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(reqs)
	}
}

// wholeDialogues counts the requests whose dialogue is exactly Ragas'
// rendering of one of its samples, by schema and sample name (e.g.
// "topic_extraction topic_adherence").
func wholeDialogues(t *testing.T, reqs []judgetest.CapturedRequest) map[string]int {
	t.Helper()
	renderings := map[string]string{}
	for _, name := range []string{"topic_adherence", "agent_goal_accuracy"} {
		b, err := os.ReadFile(filepath.Join(ragasExamples, name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		renderings[string(b)] = name
	}
	out := map[string]int{}
	for _, r := range reqs {
		field := map[string]string{"topic_extraction": "user_input", "topic_refused": "user_input", "infer_goal_outcome": "workflow"}[r.SchemaName]
		if field == "" {
			continue
		}
		if name, ok := renderings[promptField(t, r.User, field)]; ok {
			out[r.SchemaName+" "+name]++
		}
	}
	return out
}

// ragasSessionScores are the session-scoped Ragas scores by session id
// and metric; a session scored twice fails the test.
func ragasSessionScores(t *testing.T, scores []record.ScoreRecord) map[string]record.ScoreRecord {
	t.Helper()
	got := map[string]record.ScoreRecord{}
	for _, s := range scores {
		if s.Scope == record.ScopeSession && strings.HasPrefix(s.Metric, "ragas_") {
			if _, dup := got[s.SessionID+" "+s.Metric]; dup {
				t.Errorf("%s scored twice for session %s", s.Metric, s.SessionID)
			}
			got[s.SessionID+" "+s.Metric] = s
		}
	}
	return got
}

// checkRagasScore checks the session score key ("session metric"): its
// score, its judge usage and, unless withRef is nil, whether the
// reference was used. The topic adherence score the ragasJudge answers
// give: both topics answered, the first only on the reference topics:
// TP 1, FP 1, FN 0; precision 1/2, recall 1, F1 2/3.
func checkRagasScore(t *testing.T, got map[string]record.ScoreRecord, key string, score float64, withRef any) {
	t.Helper()
	s, ok := got[key]
	if !ok {
		t.Errorf("no session score %s; session scores %v", key, keys(got))
		return
	}
	if math.Abs(s.Score-score) > 1e-9 || s.TraceID != "" || s.Judge == nil {
		t.Errorf("%s: %+v, want score %v with its judge usage", key, s, score)
	}
	if withRef != nil && s.Details["with_reference"] != withRef {
		t.Errorf("%s: with_reference %v, want %v", key, s.Details["with_reference"], withRef)
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
