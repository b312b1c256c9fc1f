package pipeline

import (
	"context"
	"math"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"google.golang.org/grpc"

	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	"github.com/evalsidecar/evalsidecar/exporter/otelevents"
	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/simulator"
)

// wantSession is a conversation as the simulated agent really had it,
// computed from the runs it reports.
type wantSession struct {
	turns, calls, callErrors int
	failed                   bool
	start, end               time.Time
	agent                    string // the first turn's
}

func sessionsOf(runs map[string]simulator.Run) map[string]*wantSession {
	out := map[string]*wantSession{}
	for _, r := range runs {
		w := out[r.ConversationID]
		if w == nil {
			w = &wantSession{start: r.Start, end: r.End, agent: r.Agent}
			out[r.ConversationID] = w
		}
		w.turns++
		w.failed = w.failed || r.Failed
		w.calls += len(r.ToolCalls)
		for _, c := range r.ToolCalls {
			if c.Error != "" {
				w.callErrors++
			}
		}
		if r.Start.Before(w.start) {
			w.start, w.agent = r.Start, r.Agent
		}
		if r.End.After(w.end) {
			w.end = r.End
		}
	}
	return out
}

// scores returns the expected session scores by metric id.
func (w *wantSession) scores() map[string]float64 {
	m := map[string]float64{"session_turns": float64(w.turns), "session_failed": 0,
		"session_duration_seconds": w.end.Sub(w.start).Seconds()}
	if w.failed {
		m["session_failed"] = 1
	}
	if w.calls > 0 {
		m["session_tool_error_rate"] = float64(w.callErrors) / float64(w.calls)
	}
	return m
}

// logsCollector is an OTLP/gRPC logs endpoint keeping every record's
// conversation id and evaluation name.
type logsCollector struct {
	plogotlp.UnimplementedGRPCServer
	mu     sync.Mutex
	events map[string]map[string]float64 // conversation id → metric → score
}

func (c *logsCollector) Export(_ context.Context, req plogotlp.ExportRequest) (plogotlp.ExportResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	rls := req.Logs().ResourceLogs()
	for i := range rls.Len() {
		sls := rls.At(i).ScopeLogs()
		for j := range sls.Len() {
			lrs := sls.At(j).LogRecords()
			for k := range lrs.Len() {
				a := lrs.At(k).Attributes().AsRaw()
				conv, ok := a["gen_ai.conversation.id"].(string)
				if !ok {
					continue
				}
				if c.events[conv] == nil {
					c.events[conv] = map[string]float64{}
				}
				c.events[conv][a["gen_ai.evaluation.name"].(string)], _ = a["gen_ai.evaluation.score.value"].(float64)
			}
		}
	}
	return plogotlp.NewExportResponse(), nil
}

// TestSessionsEndToEnd sends conversations of three runs each with the
// real OpenTelemetry SDK to a running sidecar and checks that every
// conversation is scored once, when idle, with the scores its runs imply,
// in every sink: JSON lines, ClickHouse, Prometheus and OTel events.
func TestSessionsEndToEnd(t *testing.T) {
	tdb := newTestDB(t, "t_sessions_")
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	col := &logsCollector{events: map[string]map[string]float64{}}
	srv := grpc.NewServer()
	plogotlp.RegisterGRPCServer(srv, col)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)

	db, conn := tdb.db, tdb.conn
	dir := t.TempDir()
	cfg := tdb.config(testConfig(dir), dir)
	config.ExporterConfig[jsonl.Config](cfg.Exporters).Enabled = true
	cfg.Sessions.Enabled = true
	cfg.Sessions.IdleTimeout = 2 * time.Second
	oe := config.ExporterConfig[otelevents.Config](cfg.Exporters)
	oe.Enabled, oe.Endpoint, oe.TLS.Insecure = true, lis.Addr().String(), true
	p, ctx := startOnline(t, cfg, Options{})

	const conversations, turns = 4, 3
	simCfg := simulator.DefaultConfig()
	simCfg.Endpoint = p.Receiver.GRPCAddr()
	simCfg.Quality = simulator.Degraded
	simCfg.Seed = 11
	simCfg.ConversationTurns = turns
	sim, err := simulator.New(ctx, simCfg)
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string]simulator.Run{}
	if err := sim.Run(ctx, conversations*turns, 0, func(r simulator.Run) { runs[r.TraceID] = r }); err != nil {
		t.Fatal(err)
	}
	if err := sim.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	want := sessionsOf(runs)
	if len(want) != conversations {
		t.Fatalf("the simulator sent %d conversations, want %d", len(want), conversations)
	}

	// every session closes when idle, before shutdown
	metricsURL := "http://" + p.Metrics.Addr() + "/metrics"
	for {
		fams := scrape(t, metricsURL)
		if sumCounter(fams["evalsidecar_sessions_closed_total"], map[string]string{"reason": "idle"}) >= conversations {
			var failed int
			for _, w := range want {
				if w.failed {
					failed++
				}
			}
			byAgent := map[string]int{}
			for _, w := range want {
				byAgent[w.agent]++
			}
			for agent, n := range byAgent {
				if got := sumCounter(fams["evalsidecar_sessions_total"], map[string]string{"agent": agent}); got != float64(n) {
					t.Errorf("evalsidecar_sessions_total{agent=%q} = %v, want %d", agent, got, n)
				}
			}
			if got := sumCounter(fams["evalsidecar_sessions_total"], map[string]string{"outcome": "failed"}); got != float64(failed) {
				t.Errorf("evalsidecar_sessions_total{outcome=failed} = %v, want %d", got, failed)
			}
			if got := sumCounter(fams["evalsidecar_sessions_total"], nil); got != conversations {
				t.Errorf("evalsidecar_sessions_total = %v, want %d", got, conversations)
			}
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("sessions did not close when idle")
		case <-time.After(100 * time.Millisecond):
		}
	}
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	// JSON lines: one session line per conversation, its turns the runs
	sessions := readLines[record.SessionRecord](t, filepath.Join(dir, "sessions.jsonl"))
	if len(sessions) != conversations {
		t.Fatalf("sessions.jsonl has %d lines, want %d", len(sessions), conversations)
	}
	for _, s := range sessions {
		w := want[s.SessionID]
		if w == nil || s.TurnCount != w.turns || len(s.Turns) != w.turns || s.CloseReason != "idle" {
			t.Errorf("session %s: %d turns closed %q, want %v", s.SessionID, s.TurnCount, s.CloseReason, w)
			continue
		}
		for i, tn := range s.Turns {
			r, ok := runs[tn.TraceID]
			if !ok || r.ConversationID != s.SessionID || (i > 0 && tn.Start.Before(s.Turns[i-1].Start.Time)) {
				t.Errorf("session %s turn %d: trace %s not a run of it in start order", s.SessionID, i, tn.TraceID)
			}
		}
	}
	got := map[string]map[string]float64{}
	for _, sc := range readLines[record.ScoreRecord](t, filepath.Join(dir, "scores.jsonl")) {
		if sc.Scope != record.ScopeSession {
			continue
		}
		if got[sc.SessionID] == nil {
			got[sc.SessionID] = map[string]float64{}
		}
		if _, dup := got[sc.SessionID][sc.Metric]; dup {
			t.Errorf("session %s scored twice by %s", sc.SessionID, sc.Metric)
		}
		got[sc.SessionID][sc.Metric] = sc.Score
	}
	checkSessionScores(t, "scores.jsonl", got, want)
	checkSessionScores(t, "otel events", col.events, want)

	// ClickHouse: the same scores, keyed by session id, without trace id
	rows, err := conn.Query(context.Background(), "SELECT session_id, metric, score FROM "+db+".evaluations FINAL WHERE trace_id = ''")
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]map[string]float64{}
	for rows.Next() {
		var sid, metric string
		var score float64
		if err := rows.Scan(&sid, &metric, &score); err != nil {
			t.Fatal(err)
		}
		if stored[sid] == nil {
			stored[sid] = map[string]float64{}
		}
		stored[sid][metric] = score
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	checkSessionScores(t, "clickhouse", stored, want)
}

// checkSessionScores compares a sink's session scores with the
// conversations' expected ones. Durations come from span timestamps that
// the exporters round to the nanosecond or the millisecond.
func checkSessionScores(t *testing.T, sink string, got map[string]map[string]float64, want map[string]*wantSession) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d sessions scored, want %d", sink, len(got), len(want))
	}
	for sid, w := range want {
		exp := w.scores()
		g := got[sid]
		if len(g) != len(exp) {
			t.Errorf("%s: session %s scores %v, want %v", sink, sid, g, exp)
			continue
		}
		for m, v := range exp {
			if math.Abs(g[m]-v) > 1e-6 {
				t.Errorf("%s: session %s %s = %v, want %v", sink, sid, m, g[m], v)
			}
		}
	}
}
