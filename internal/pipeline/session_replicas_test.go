package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer/session"
)

// TestSessionsAcrossReplicas: the turns of each conversation go to two
// different replicas, which write their runs to one ClickHouse database;
// a third sidecar with sessions.source clickhouse scores every
// conversation once, with every turn, once it is idle. A turn that comes
// after its conversation was scored (a late turn, through a replica
// started later) has the conversation scored again, as its revision 2
// with every turn; the other conversations are not scored again.
func TestSessionsAcrossReplicas(t *testing.T) {
	tdb := newTestDB(t, "t_replicas_")
	count, db := tdb.count, tdb.db
	replica := func() (*Pipeline, *sdktrace.TracerProvider, context.Context) {
		dir := t.TempDir()
		p, ctx := startOnline(t, tdb.config(testConfig(dir), dir), Options{})
		return p, sdkTracerProvider(t, ctx, p, "chat-agent"), ctx
	}
	stop := func(ctx context.Context, p *Pipeline, tp *sdktrace.TracerProvider) {
		if err := tp.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
		if err := p.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Now().Add(-time.Minute)
	// turn k of conversation conv: one lookup tool call, which fails in
	// turn 1 of conv-0
	turn := func(ctx context.Context, tracer trace.Tracer, conv, k int) {
		at := t0.Add(time.Duration(conv*10+k) * time.Second)
		rctx, root := tracer.Start(ctx, "invoke_agent chat", trace.WithTimestamp(at))
		root.SetAttributes(
			attribute.String("gen_ai.operation.name", "invoke_agent"),
			attribute.String("gen_ai.agent.name", "chat"),
			attribute.String("gen_ai.conversation.id", fmt.Sprintf("conv-%d", conv)),
			attribute.String("gen_ai.input.messages", fmt.Sprintf(`[{"role":"user","parts":[{"type":"text","content":"turn %d"}]}]`, k)),
			attribute.String("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"ok"}]}]`),
		)
		_, tool := tracer.Start(rctx, "execute_tool lookup", trace.WithTimestamp(at.Add(100*time.Millisecond)))
		tool.SetAttributes(attribute.String("gen_ai.operation.name", "execute_tool"), attribute.String("gen_ai.tool.name", "lookup"))
		if k == 1 && conv == 0 {
			tool.SetAttributes(attribute.String("error.type", "timeout"))
		}
		tool.End(trace.WithTimestamp(at.Add(200 * time.Millisecond)))
		root.End(trace.WithTimestamp(at.Add(time.Second)))
	}

	const conversations, turns = 3, 3
	p0, tp0, ctx := replica()
	p1, tp1, _ := replica()
	for conv := range conversations {
		for k := range turns {
			tp := []*sdktrace.TracerProvider{tp0, tp1}[(conv+k)%2] // turns alternate between the replicas
			turn(ctx, tp.Tracer("replicas-test"), conv, k)
		}
	}
	stop(ctx, p0, tp0)
	stop(ctx, p1, tp1)
	if got := count("SELECT count() FROM " + db + ".trajectories FINAL"); got != conversations*turns {
		t.Fatalf("%d runs in ClickHouse after the replicas flushed, want %d", got, conversations*turns)
	}

	dir := t.TempDir()
	cfg := tdb.config(testConfig(dir), dir)
	config.ExporterConfig[jsonl.Config](cfg.Exporters).Enabled = true
	cfg.Sessions.Enabled = true
	cfg.Sessions.Source = session.SourceClickHouse
	cfg.Sessions.IdleTimeout = time.Second
	scorer, err := New(cfg, telemetry.Settings{Version: "test"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := scorer.Start(ctx); err != nil {
		t.Fatal(err)
	}
	perSession := 4 // turns, failed, tool error rate, duration
	q := "SELECT count() FROM " + db + ".evaluations WHERE trace_id = ''"
	waitRows := func(want int) {
		for count(q) < want {
			select {
			case <-ctx.Done():
				t.Fatalf("%d session scores in ClickHouse, want %d", count(q), want)
			case <-time.After(100 * time.Millisecond):
			}
		}
		time.Sleep(time.Second) // more polls: none may score a session again
		if got := count(q); got != want {
			t.Errorf("%d session score rows (not collapsed), want %d: a session was scored again", got, want)
		}
	}
	waitRows(conversations * perSession)

	// a late turn of conv-0
	p2, tp2, _ := replica()
	turn(ctx, tp2.Tracer("late"), 0, turns)
	stop(ctx, p2, tp2)
	waitRows((conversations + 1) * perSession)
	if err := scorer.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	rows, err := tdb.conn.Query(context.Background(), "SELECT score, details FROM "+db+".evaluations WHERE session_id = 'conv-0' AND metric IN ('session_turns', 'session_tool_error_rate') ORDER BY metric, score")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var score float64
		var details string
		if err := rows.Scan(&score, &details); err != nil {
			t.Fatal(err)
		}
		var d struct {
			Revision  int `json:"revision"`
			LateTurns int `json:"late_turns"`
		}
		_ = json.Unmarshal([]byte(details), &d)
		got = append(got, fmt.Sprintf("%.4f r%d+%d", score, d.Revision, d.LateTurns))
	}
	_ = rows.Close()
	// session_tool_error_rate: 1 of 3 calls, then 1 of 4 (revision 2);
	// session_turns: 3 turns (no revision in its details), then 4
	// (revision 2, 1 late)
	want := []string{"0.2500 r2+0", "0.3333 r0+0", "3.0000 r0+0", "4.0000 r2+1"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("conv-0 scores %v, want %v", got, want)
	}
	sessions := readLines[record.SessionRecord](t, filepath.Join(dir, "sessions.jsonl"))
	if len(sessions) != conversations+1 {
		t.Fatalf("sessions.jsonl has %d sessions, want %d", len(sessions), conversations+1)
	}
	for _, s := range sessions {
		n := turns
		if s.Revision == 2 {
			n++
			if s.SessionID != "conv-0" || s.LateTurns != 1 {
				t.Errorf("revision 2 of %s with %d late turns, want conv-0 with 1", s.SessionID, s.LateTurns)
			}
		}
		if s.TurnCount != n || len(s.Turns) != n {
			t.Errorf("session %s revision %d has %d turns, want %d (turns from every replica)", s.SessionID, s.Revision, s.TurnCount, n)
		}
		for k, tn := range s.Turns {
			if want := t0.Add(time.Duration(int(s.SessionID[len(s.SessionID)-1]-'0')*10+k) * time.Second); !tn.Start.Equal(want.Truncate(time.Nanosecond)) && !tn.Start.Equal(want.Truncate(time.Second)) {
				t.Errorf("session %s turn %d starts %v, want %v", s.SessionID, k, tn.Start, want)
			}
		}
	}
}
