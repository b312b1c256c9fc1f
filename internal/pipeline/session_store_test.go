package pipeline

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/session"
)

// tripTurns sends both turns of the canary conversation conv-trip, the
// second through the last tracer.
func tripTurns(ctx context.Context, tracers []trace.Tracer, t0 time.Time) {
	sendTripTurn(ctx, tracers[0], t0, "Weather in Paris?", "Paris", "It is sunny in Paris.")
	sendTripTurn(ctx, tracers[len(tracers)-1], t0.Add(10*time.Second), "And in Rome?", "Milan", "Rome: 24°C and sunny.")
}

// sessionEvaluation is the one session evaluation of id among evs.
func sessionEvaluation(t *testing.T, evs []*scorer.Evaluation, id string) *scorer.Evaluation {
	t.Helper()
	var out []*scorer.Evaluation
	for _, ev := range evs {
		if ev.Session != nil && !ev.FollowUp && ev.Session.ID == id {
			out = append(out, ev)
		}
	}
	if len(out) != 1 {
		t.Fatalf("%d evaluations of session %s, want 1", len(out), id)
	}
	return out[0]
}

// TestSessionStoreScoresLikeMemory: the turns of a canary conversation and
// of a Ragas sample go to two different replicas, which write their runs
// to ClickHouse; the session scorer (sessions.source clickhouse) reads
// each turn back with its tool calls and model replies. The canary
// session is scored once, with every turn, as its eval case, with the
// same case scores as one replica assembling it in memory; the Ragas
// session is judged on its whole dialogue exactly as Ragas renders it.
func TestSessionStoreScoresLikeMemory(t *testing.T) {
	tdb := newTestDB(t, "t_sessstore_")
	evalset := filepath.Join("testdata", "trip.evalset.json")
	t0 := time.Now().Add(-2 * time.Minute)

	// one replica, sessions in memory
	memory := &capture{}
	cfg := testConfig(t.TempDir())
	config.ExporterConfig[jsonl.Config](cfg.Exporters).Enabled = false
	cfg.Scorer.References.Files = []string{evalset}
	cfg.Sessions.Enabled = true
	p, ctx := startOnline(t, cfg, Options{Extra: []exporter.Exporter{memory}})
	tp := sdkTracerProvider(t, ctx, p, "weather-agent")
	tripTurns(ctx, []trace.Tracer{tp.Tracer("memory")}, t0)
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	inMemory := sessionEvaluation(t, memory.evs, "conv-trip")

	// two replicas writing to ClickHouse, the turns alternating
	var tracers []trace.Tracer
	var stops []func()
	for range 2 {
		dir := t.TempDir()
		p, c := startOnline(t, tdb.config(testConfig(dir), dir), Options{})
		tp := sdkTracerProvider(t, c, p, "weather-agent")
		tracers = append(tracers, tp.Tracer("replica"))
		stops = append(stops, func() {
			if err := tp.Shutdown(c); err != nil {
				t.Error(err)
			}
			if err := p.Shutdown(c); err != nil {
				t.Error(err)
			}
		})
	}
	tripTurns(ctx, tracers, t0)
	if n := sendConversation(ctx, t, tracers, ragasSample(t, 0), "conv-science", "science-bot", "", t0.Add(time.Minute)); n != 3 {
		t.Fatalf("the topic adherence sample has %d turns, want 3", n)
	}
	for _, stop := range stops {
		stop()
	}
	if got := tdb.count("SELECT count() FROM " + tdb.db + ".trajectories FINAL"); got != 5 {
		t.Fatalf("%d runs in ClickHouse after the replicas flushed, want 5", got)
	}

	// the session scorer
	srv, requests := ragasJudge(t)
	cfg, dir := sessionJudgeConfig(t, srv, `
    - name: ragas_topic_adherence
      params:
        reference_topics_by_agent:
          science-bot: [science]
    - name: ragas_agent_goal_accuracy`)
	cfg = tdb.config(cfg, dir)
	config.ExporterConfig[jsonl.Config](cfg.Exporters).Enabled = true
	cfg.Scorer.References.Files = []string{evalset}
	cfg.Sessions.Source = session.SourceClickHouse
	cfg.Sessions.IdleTimeout = time.Second
	store := &capture{}
	sc, err := New(cfg, telemetry.Settings{Version: "test"}, Options{Extra: []exporter.Exporter{store}})
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	q := "SELECT count() FROM " + tdb.db + ".evaluations WHERE trace_id = '' AND metric = 'session_turns'"
	for tdb.count(q) < 2 {
		select {
		case <-ctx.Done():
			t.Fatalf("%d sessions scored in ClickHouse, want 2", tdb.count(q))
		case <-time.After(100 * time.Millisecond):
		}
	}
	time.Sleep(time.Second) // more polls: none may score a session again
	if err := sc.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	fromStore := sessionEvaluation(t, store.evs, "conv-trip")
	if n := len(fromStore.Session.Turns); n != 2 || fromStore.Session.CaseID != "trip-1" {
		t.Errorf("store session: %d turns, case %q; want 2 turns of case trip-1", n, fromStore.Session.CaseID)
	}
	for _, m := range []string{"tool_trajectory_avg_score", "response_match_score"} {
		want, ok := inMemory.Result(m)
		got, gok := fromStore.Result(m)
		if !ok || !gok || got.Score != want.Score {
			t.Errorf("%s: store %v (present %v), memory %v (present %v)", m, got.Score, gok, want.Score, ok)
		}
	}
	if r, _ := fromStore.Result("tool_trajectory_avg_score"); r.Score != 0.5 {
		t.Errorf("tool_trajectory_avg_score %v, want 0.5 (Paris matches, Milan is not Rome)", r.Score)
	}
	science := sessionEvaluation(t, store.evs, "conv-science")
	if n := len(science.Session.Turns); n != 3 {
		t.Errorf("science session: %d turns, want 3", n)
	}

	whole := wholeDialogues(t, requests())
	for _, k := range []string{"topic_extraction topic_adherence", "infer_goal_outcome topic_adherence"} {
		if whole[k] != 1 {
			t.Errorf("%d %s requests carry the whole dialogue as Ragas renders it, want 1", whole[k], k)
		}
	}
	got := ragasSessionScores(t, readLines[record.ScoreRecord](t, filepath.Join(dir, "scores.jsonl")))
	checkRagasScore(t, got, "conv-science ragas_topic_adherence", 2.0/3, nil)
	checkRagasScore(t, got, "conv-science ragas_agent_goal_accuracy", 1, false)
}
