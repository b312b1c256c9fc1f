package otelevents

import (
	"context"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// TestSessionEvents: a session's deterministic scores become events even
// without all_metrics, each with gen_ai.conversation.id and the trace and
// span of the session's last turn.
func TestSessionEvents(t *testing.T) {
	col, addr := startCollector(t, ProtocolGRPC)
	cfg := DefaultConfig()
	cfg.Enabled = true
	cfg.Endpoint, cfg.TLS.Insecure = addr, true
	x, _, _ := newTestExporter(t, cfg, nil)
	if err := x.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := &agentrun.Session{ID: "conv-7", Agent: "support", Turns: []agentrun.Turn{
		{TraceID: "11111111111111111111111111111111", SpanID: "1111111111111111"},
		{TraceID: runTraceID, SpanID: runSpanID},
	}}
	ev := &scorer.Evaluation{Session: s, Results: []scorer.Result{{Metric: "session_turns", Score: 2}, {Metric: "session_failed", Score: 0, Label: "ok"}}}
	if err := x.Export(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	shutdown(t, x)
	got := col.records()
	if len(got) != 2 {
		t.Fatalf("received %d records, want 2", len(got))
	}
	for i, r := range got {
		a := r.record.Attributes().AsRaw()
		if a["gen_ai.conversation.id"] != "conv-7" || a["gen_ai.evaluation.name"] != ev.Results[i].Metric || a["gen_ai.evaluation.score.value"] != ev.Results[i].Score {
			t.Errorf("record %d attributes %v", i, a)
		}
		if r.record.TraceID().String() != runTraceID || r.record.SpanID().String() != runSpanID {
			t.Errorf("record %d: trace %s span %s, want the last turn's", i, r.record.TraceID(), r.record.SpanID())
		}
	}
}
