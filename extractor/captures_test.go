package extractor

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// exactLibraries lists the capture libraries whose convention is decoded:
// every run of these must rebuild exactly. Runs of other libraries are
// replayed and reported but do not fail the test.
var exactLibraries = map[string]bool{
	"otel-genai-manual": true,
	"openai-agents":     true,
	"langchain":         true,
	"langgraph":         true,
	"traceloop":         true,
	"vercel-ai":         true,
	"vercel-ai-legacy":  true,
}

// captureCall is one tool call of a capture's ground truth.
type captureCall struct {
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
	CallID string          `json:"call_id"`
	Error  string          `json:"error"`
	Agent  string          `json:"agent"`
}

// captureTurn is what one agent run really did.
type captureTurn struct {
	UserInput     string        `json:"user_input"`
	ToolCalls     []captureCall `json:"tool_calls"`
	FinalResponse string        `json:"final_response"`
}

// captureTruth is a capture's ground_truth.json.
type captureTruth struct {
	captureTurn
	Files             []string      `json:"files"`
	AgentName         string        `json:"agent_name"`
	SessionID         string        `json:"session_id"`
	ExpectFailureFlag bool          `json:"expect_failure_flag"`
	Turns             []captureTurn `json:"turns"`
}

// captureRun is one replayable run directory.
type captureRun struct {
	dir, set, library, encoding, scenario string
}

func (r captureRun) name() string {
	return r.set + "/" + r.library + "/" + r.encoding + "/" + r.scenario
}

// listCaptureRuns finds every run under testdata/captures and
// testdata/realclients.
func listCaptureRuns(t testing.TB) []captureRun {
	t.Helper()
	var runs []captureRun
	for _, root := range []string{"testdata/captures", "testdata/realclients"} {
		gts, err := filepath.Glob(filepath.Join(root, "*", "*", "*", "ground_truth.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, gt := range gts {
			dir := filepath.Dir(gt)
			parts := strings.Split(filepath.ToSlash(dir), "/")
			n := len(parts)
			runs = append(runs, captureRun{dir: dir, set: parts[n-4], library: parts[n-3], encoding: parts[n-2], scenario: parts[n-1]})
		}
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].name() < runs[j].name() })
	return runs
}

// replayCapture feeds a run's payloads, in arrival order, to an assembler
// and returns the trajectories it emits, in start order.
func replayCapture(t testing.TB, r captureRun, gt *captureTruth) []*agentrun.Trajectory {
	t.Helper()
	ta := newTestAssembler(t, DefaultConfig())
	files := gt.Files
	if len(files) == 0 {
		ms, _ := filepath.Glob(filepath.Join(r.dir, "payload-*"))
		for _, m := range ms {
			files = append(files, filepath.Base(m))
		}
	}
	for _, f := range files {
		body, err := os.ReadFile(filepath.Join(r.dir, f))
		if err != nil {
			t.Fatal(err)
		}
		var td ptrace.Traces
		if strings.HasSuffix(f, ".pb") {
			td, err = (&ptrace.ProtoUnmarshaler{}).UnmarshalTraces(body)
		} else {
			td, err = (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(body)
		}
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := ta.ConsumeTraces(context.Background(), td); err != nil {
			t.Fatal(err)
		}
	}
	if err := ta.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	trajs := ta.sink.all()
	sort.SliceStable(trajs, func(i, j int) bool { return trajs[i].Start.Before(trajs[j].Start) })
	return trajs
}

func loadCaptureTruth(t testing.TB, dir string) *captureTruth {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "ground_truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	var gt captureTruth
	if err := json.Unmarshal(raw, &gt); err != nil {
		t.Fatal(err)
	}
	return &gt
}

// jsonEqual reports whether a and b hold the same JSON value.
func jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// diffTurn lists how tr differs from want on the exactness measure: input,
// ordered tool names, arguments as parsed JSON, per-call error flag and
// final output.
func diffTurn(tr *agentrun.Trajectory, want *captureTurn) []string {
	var d []string
	if tr.Input != want.UserInput {
		d = append(d, fmt.Sprintf("input = %q, want %q", tr.Input, want.UserInput))
	}
	if tr.Output != want.FinalResponse {
		d = append(d, fmt.Sprintf("output = %q, want %q", tr.Output, want.FinalResponse))
	}
	got := make([]string, len(tr.ToolCalls))
	for i, c := range tr.ToolCalls {
		got[i] = c.Name
	}
	exp := make([]string, len(want.ToolCalls))
	for i, c := range want.ToolCalls {
		exp[i] = c.Name
	}
	if !reflect.DeepEqual(got, exp) {
		return append(d, fmt.Sprintf("tools = %v, want %v", got, exp))
	}
	for i, w := range want.ToolCalls {
		c := tr.ToolCalls[i]
		if !jsonEqual(c.Arguments, string(w.Args)) {
			d = append(d, fmt.Sprintf("tool %d %s arguments = %s, want %s", i, c.Name, c.Arguments, w.Args))
		}
		if (c.Error != "") != (w.Error != "") {
			d = append(d, fmt.Sprintf("tool %d %s error = %q, want error %v", i, c.Name, c.Error, w.Error != ""))
		}
	}
	return d
}

// checkCapture compares a run's trajectories with its ground truth and
// returns the differences; checks beyond the exactness measure (agent,
// session, history, failure flag) are returned separately.
func checkCapture(trajs []*agentrun.Trajectory, gt *captureTruth) (diffs, extra []string) {
	turns := gt.Turns
	if len(turns) == 0 {
		turns = []captureTurn{gt.captureTurn}
	}
	if len(trajs) != len(turns) {
		return []string{fmt.Sprintf("got %d trajectories, want %d", len(trajs), len(turns))}, nil
	}
	for i := range turns {
		for _, d := range diffTurn(trajs[i], &turns[i]) {
			if len(turns) > 1 {
				d = fmt.Sprintf("turn %d: %s", i+1, d)
			}
			diffs = append(diffs, d)
		}
		tr := trajs[i]
		if gt.AgentName != "" && tr.Agent != gt.AgentName {
			extra = append(extra, fmt.Sprintf("agent = %q, want %q", tr.Agent, gt.AgentName))
		}
		if gt.SessionID != "" && tr.SessionID != gt.SessionID {
			extra = append(extra, fmt.Sprintf("session = %q, want %q", tr.SessionID, gt.SessionID))
		}
		if i > 0 && len(tr.History) == 0 {
			extra = append(extra, fmt.Sprintf("turn %d: no history", i+1))
		}
		for j, w := range turns[i].ToolCalls {
			if w.Agent != "" && j < len(tr.ToolCalls) && tr.ToolCalls[j].Agent != w.Agent {
				extra = append(extra, fmt.Sprintf("tool %d agent = %q, want %q", j, tr.ToolCalls[j].Agent, w.Agent))
			}
		}
	}
	last := trajs[len(trajs)-1]
	if gt.ExpectFailureFlag {
		failed := false
		for _, c := range last.ToolCalls {
			failed = failed || c.Error != ""
		}
		if !failed && !last.Failed {
			extra = append(extra, "no failure recorded")
		}
	}
	return diffs, extra
}

// TestCapturesExact replays every capture against its ground truth and
// reports the exactness per library and scenario. Runs of the libraries
// in exactLibraries must match exactly.
func TestCapturesExact(t *testing.T) {
	runs := listCaptureRuns(t)
	if len(runs) == 0 {
		t.Fatal("no captures")
	}
	type tally struct{ exact, total int }
	byLib := map[string]*tally{}
	var all tally
	var report []string
	for _, r := range runs {
		t.Run(r.name(), func(t *testing.T) {
			gt := loadCaptureTruth(t, r.dir)
			trajs := replayCapture(t, r, gt)
			diffs, extra := checkCapture(trajs, gt)
			tl := byLib[r.library]
			if tl == nil {
				tl = &tally{}
				byLib[r.library] = tl
			}
			tl.total++
			all.total++
			status := "exact"
			if len(diffs) == 0 {
				tl.exact++
				all.exact++
			} else {
				status = "INEXACT: " + strings.Join(diffs, "; ")
			}
			if len(extra) > 0 {
				status += " (also: " + strings.Join(extra, "; ") + ")"
			}
			report = append(report, r.name()+": "+status)
			if exactLibraries[r.library] {
				for _, d := range append(diffs, extra...) {
					t.Error(d)
				}
			}
		})
	}
	for _, line := range report {
		t.Log(line)
	}
	libs := make([]string, 0, len(byLib))
	for l := range byLib {
		libs = append(libs, l)
	}
	sort.Strings(libs)
	for _, l := range libs {
		tl := byLib[l]
		t.Logf("%-18s %2d/%2d exact", l, tl.exact, tl.total)
	}
	t.Logf("overall exactness: %d/%d = %.1f%%", all.exact, all.total, 100*float64(all.exact)/float64(all.total))
}
