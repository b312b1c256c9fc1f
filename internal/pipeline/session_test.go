package pipeline

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/offline"
	"github.com/evalsidecar/evalsidecar/receiver/otlpfile"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// multiTurnCapture is a real client's two-turn conversation (Traceloop,
// session-mt-0001), each turn its own trace, split over ten requests.
var multiTurnCapture = filepath.Join("..", "..", "extractor", "testdata", "captures", "traceloop", "json", "multi-turn")

// TestReplayClosesSessions replays a captured conversation: its two runs
// are scored as two turns of one session, closed at the end of the input.
func TestReplayClosesSessions(t *testing.T) {
	cfg := config.Default()
	config.ExporterConfig[jsonl.Config](cfg.Exporters).Enabled = false
	cfg.Sessions.Enabled = true
	c := &capture{}
	p, err := New(cfg, telemetry.Settings{}, Options{Extra: []exporter.Exporter{c}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := p.Start(ctx); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(multiTurnCapture, "payload-*.json"))
	if err := otlpfile.Read(ctx, files, func(it otlpfile.Item) error { return offline.Feed(ctx, p.Assembler, it) }, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	var runs []string
	var sessions []*scorer.Evaluation
	for _, ev := range c.evs {
		switch {
		case ev.Session != nil:
			sessions = append(sessions, ev)
		case ev.Trajectory != nil && !ev.FollowUp:
			runs = append(runs, ev.Trajectory.TraceID)
		}
	}
	if len(runs) != 2 || len(sessions) != 1 {
		t.Fatalf("%d runs and %d sessions exported, want 2 and 1", len(runs), len(sessions))
	}
	s := sessions[0].Session
	if s.ID != "session-mt-0001" || s.CloseReason != agentrun.SessionClosedShutdown || s.Agent != "weather_assistant" {
		t.Errorf("session %q closed %q agent %q", s.ID, s.CloseReason, s.Agent)
	}
	// the turns in start order: the capture's first trace asked about
	// Paris, the second "And in Rome?"
	want := []string{"86b76c07db756e1d0a34d6afbd62e6d8", "8c91998187f3393e96739d3af3ab51c4"}
	if got := s.TraceIDs(); !slices.Equal(got, want) {
		t.Errorf("turns %v, want %v", got, want)
	}
	if s.Turns[1].Input != "And in Rome?" {
		t.Errorf("second turn input %q", s.Turns[1].Input)
	}
	for _, r := range sessions[0].Results {
		if r.Metric == "session_turns" && r.Score != 2 {
			t.Errorf("session_turns = %v", r.Score)
		}
	}
}
