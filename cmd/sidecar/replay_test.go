package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/internal/testpayload"
	"github.com/evalsidecar/evalsidecar/scorer/feedback"
)

// groundTruth is the agent script's own record of a captured run.
type groundTruth struct {
	Scenario  string `json:"scenario"`
	UserInput string `json:"user_input"`
	ToolCalls []struct {
		Name   string          `json:"name"`
		Args   json.RawMessage `json:"args"`
		CallID string          `json:"call_id"`
		Error  string          `json:"error"`
	} `json:"tool_calls"`
	FinalResponse string `json:"final_response"`
	AgentName     string `json:"agent_name"`
}

// TestReplayRealClientCaptures replays OTLP/JSON captures of hand-written
// OTel GenAI instrumentation and checks every run against its ground truth:
// input, ordered tool names and arguments, per-call errors, final output.
func TestReplayRealClientCaptures(t *testing.T) {
	root := filepath.Join("testdata", "otel-genai-manual", "json")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	truths := map[string]groundTruth{}
	var inputs []string
	for _, d := range dirs {
		var gt groundTruth
		b, err := os.ReadFile(filepath.Join(root, d.Name(), "ground_truth.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &gt); err != nil {
			t.Fatal(err)
		}
		truths[gt.UserInput] = gt
		payloads, err := filepath.Glob(filepath.Join(root, d.Name(), "payload-*.json"))
		if err != nil || len(payloads) == 0 {
			t.Fatalf("no payloads in %s: %v", d.Name(), err)
		}
		inputs = append(inputs, payloads...)
	}

	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := append([]string{"replay", "-output", out, "-log-level", "error"}, inputs...)
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("replay exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "runs: 4,") || !strings.Contains(stdout.String(), "tool_error_rate") {
		t.Errorf("summary table missing runs or metrics:\n%s", stdout.String())
	}

	f, err := os.Open(filepath.Join(out, "trajectories.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var tr record.TrajectoryRecord
		if err := json.Unmarshal(sc.Bytes(), &tr); err != nil {
			t.Fatal(err)
		}
		gt, ok := truths[tr.Input]
		if !ok {
			t.Errorf("trajectory with unexpected input %q", tr.Input)
			continue
		}
		seen[gt.Scenario] = true
		t.Run(gt.Scenario, func(t *testing.T) {
			if tr.Output != gt.FinalResponse {
				t.Errorf("output = %q, want %q", tr.Output, gt.FinalResponse)
			}
			if tr.Agent != gt.AgentName {
				t.Errorf("agent = %q, want %q", tr.Agent, gt.AgentName)
			}
			if len(tr.ToolCalls) != len(gt.ToolCalls) {
				t.Fatalf("%d tool calls, want %d", len(tr.ToolCalls), len(gt.ToolCalls))
			}
			for i, c := range tr.ToolCalls {
				w := gt.ToolCalls[i]
				if c.Name != w.Name || c.ID != w.CallID {
					t.Errorf("call %d = %s (%s), want %s (%s)", i, c.Name, c.ID, w.Name, w.CallID)
				}
				var got, want any
				if err := json.Unmarshal(c.Arguments, &got); err != nil {
					t.Errorf("call %d arguments %s: %v", i, c.Arguments, err)
				}
				if err := json.Unmarshal(w.Args, &want); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("call %d arguments = %v, want %v", i, got, want)
				}
				if (c.Error != "") != (w.Error != "") {
					t.Errorf("call %d error = %q, want %q", i, c.Error, w.Error)
				}
			}
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(truths) {
		t.Errorf("runs rebuilt for %v, want all of %d scenarios", seen, len(truths))
	}
}

func TestRunUsageErrors(t *testing.T) {
	out := t.TempDir()
	tests := []struct {
		args     []string
		wantCode int
		wantErr  string
	}{
		{args: []string{"bogus"}, wantCode: 2, wantErr: "unknown command"},
		{args: []string{"replay"}, wantCode: 2, wantErr: "no input files"},
		{args: []string{"serve", "-nope"}, wantCode: 2, wantErr: "flag provided but not defined"},
		{args: []string{"serve", "-config", "testdata/does-not-exist.yaml"}, wantCode: 1, wantErr: "does-not-exist.yaml"},
		{args: []string{"replay", "-output", out, "testdata/missing.json"}, wantCode: 1, wantErr: "missing.json"},
		{args: []string{"version"}, wantCode: 0},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tt.args, &stdout, &stderr)
		if code != tt.wantCode || !strings.Contains(stderr.String(), tt.wantErr) {
			t.Errorf("run %v = %d, stderr %q; want %d and %q", tt.args, code, stderr.String(), tt.wantCode, tt.wantErr)
		}
	}
}

// TestReplayManyTracesDropsNothing replays more traces than the scorer's
// queue holds: offline, the queue pushes back instead of dropping.
func TestReplayManyTracesDropsNothing(t *testing.T) {
	const traces = 2500
	raw, err := ptraceotlp.NewExportRequestFromTraces(testpayload.Medium(traces)).MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "many.pb")
	if err := os.WriteFile(in, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	// A one-slot queue and one worker: without backpressure most runs
	// would be dropped.
	cfgPath := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfgPath, []byte("scorer:\n  sending_queue:\n    queue_size: 1\n    num_consumers: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"replay", "-config", cfgPath, "-output", out, "-log-level", "error", in}, &stdout, &stderr); code != 0 {
		t.Fatalf("replay exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), fmt.Sprintf("runs: %d,", traces)) {
		t.Errorf("summary does not count %d runs:\n%s", traces, stdout.String())
	}
	b, err := os.ReadFile(filepath.Join(out, "trajectories.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n != traces {
		t.Errorf("%d trajectories written, want %d", n, traces)
	}
}

// TestReplayWritesSessions replays a real client's two-turn conversation
// (two traces split over ten requests) with sessions on: at the end of
// the input the open session is closed and written with both turns, and
// the summary still counts two runs.
func TestReplayWritesSessions(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("..", "..", "extractor", "testdata", "captures", "traceloop", "json", "multi-turn", "payload-*.json"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no capture: %v", err)
	}
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfgPath, []byte("sessions:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	args := append([]string{"replay", "-config", cfgPath, "-output", out, "-log-level", "error"}, inputs...)
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("replay exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "runs: 2,") || !strings.Contains(stdout.String(), "session_turns") {
		t.Errorf("summary:\n%s", stdout.String())
	}
	b, err := os.ReadFile(filepath.Join(out, "sessions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var s record.SessionRecord
	if err := json.Unmarshal(b, &s); err != nil || bytes.Count(b, []byte("\n")) != 1 {
		t.Fatalf("sessions.jsonl: %s (%v)", b, err)
	}
	if s.SessionID != "session-mt-0001" || s.TurnCount != 2 || s.CloseReason != "shutdown" || s.Agent != "weather_assistant" {
		t.Errorf("session %+v", s)
	}
}

// TestReplayWritesFeedback replays a capture of runs followed by a log
// request holding people's feedback on two of them (and one malformed
// record): the feedback is written to feedback.jsonl and is not counted
// as a run.
func TestReplayWritesFeedback(t *testing.T) {
	const traces = 3
	td := testpayload.Medium(traces)
	rawTraces, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	ld := plog.NewLogs()
	lrs := ld.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty().LogRecords()
	for i, label := range []string{"pass", "fail", ""} {
		lr := lrs.AppendEmpty()
		lr.SetEventName(feedback.EventName)
		lr.SetTraceID(td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0).TraceID())
		if i == 1 {
			lr.SetTraceID(pcommon.TraceID{0xab, 1})
		}
		lr.Attributes().PutStr(feedback.AttrMetric, "coherence")
		if label != "" {
			lr.Attributes().PutStr(feedback.AttrLabel, label)
		}
	}
	rawLogs, err := plogotlp.NewExportRequestFromLogs(ld).MarshalJSON() // logs files are OTLP/JSON
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	inTraces, inLogs := filepath.Join(dir, "runs.pb"), filepath.Join(dir, "feedback.json")
	if err := os.WriteFile(inTraces, rawTraces, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(inLogs, rawLogs, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"replay", "-output", out, "-log-level", "warn", inTraces, inLogs}, &stdout, &stderr); code != 0 {
		t.Fatalf("replay exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), fmt.Sprintf("runs: %d,", traces)) {
		t.Errorf("summary does not count %d runs:\n%s", traces, stdout.String())
	}
	if !strings.Contains(stderr.String(), "feedback record rejected") || !strings.Contains(stderr.String(), feedback.ReasonNoValue) {
		t.Errorf("the malformed record was not reported:\n%s", stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(out, "feedback.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var got []record.FeedbackRecord
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var r record.FeedbackRecord
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		got = append(got, r)
	}
	if len(got) != 2 || got[0].Label != "pass" || got[1].Label != "fail" || got[1].TraceID != "ab010000000000000000000000000000" {
		t.Errorf("feedback.jsonl: %+v", got)
	}
}
