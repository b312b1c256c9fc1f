package dataset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// compact normalises recorded arguments so rows read from differently
// formatted files compare equal.
func compact(t *testing.T, calls []agentrun.ToolCall) []agentrun.ToolCall {
	t.Helper()
	out := make([]agentrun.ToolCall, len(calls))
	for i, c := range calls {
		if c.ArgumentsValid {
			var b bytes.Buffer
			if err := json.Compact(&b, []byte(c.Arguments)); err != nil {
				t.Fatalf("arguments %q: %v", c.Arguments, err)
			}
			c.Arguments = b.String()
		}
		out[i] = c
	}
	return out
}

func TestVertexFormatsAgree(t *testing.T) {
	for _, file := range []string{"vertex.jsonl", "vertex.json", "vertex.csv"} {
		t.Run(file, func(t *testing.T) {
			rows, err := Load(filepath.Join("testdata", file), FormatAuto)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != 2 {
				t.Fatalf("got %d rows, want 2", len(rows))
			}
			a := rows[0].Instance
			if a.Prompt != "Weather in London?" || a.Response != "It is sunny." || a.Reference != "Sunny in London." {
				t.Errorf("row 0 text fields: %+v", a)
			}
			want := scorer.InPrompt | scorer.InResponse | scorer.InReference | scorer.InPredictedTrajectory |
				scorer.InReferenceTrajectory | scorer.InLatency | scorer.InFailure
			if a.Has != want {
				t.Errorf("row 0 Has = %b, want %b", a.Has, want)
			}
			pt := compact(t, a.PredictedTrajectory)
			if len(pt) != 2 || pt[0].Name != "loc_to_lat_long" || pt[0].Arguments != `{"location":"London"}` || !pt[0].ArgumentsValid {
				t.Errorf("row 0 predicted trajectory: %+v", pt)
			}
			if len(a.ReferenceTrajectory) != 1 || a.ReferenceTrajectory[0].Name != "loc_to_lat_long" {
				t.Errorf("row 0 reference trajectory: %+v", a.ReferenceTrajectory)
			}
			if a.Latency != 1500*time.Millisecond || a.Failure {
				t.Errorf("row 0 latency %v failure %v", a.Latency, a.Failure)
			}
			if a.Columns["agent"] != "weather" || len(a.Columns["tags"].([]any)) != 2 {
				t.Errorf("row 0 other columns: %v", a.Columns)
			}
			if len(a.Invocations) != 0 {
				t.Errorf("a single-turn row has no invocations (metrics read its fields): %+v", a.Invocations)
			}

			b := rows[1].Instance
			if b.CaseID != "c2" {
				t.Errorf("row 1 case id %q", b.CaseID)
			}
			if b.Has&(scorer.InReference|scorer.InReferenceTrajectory|scorer.InLatency) != 0 {
				t.Errorf("row 1 has absent columns: %b", b.Has)
			}
			if b.Has&scorer.InPrediction == 0 {
				t.Error("row 1: prediction not marked present")
			}
			var pred struct {
				ToolCalls []struct{ Name string } `json:"tool_calls"`
			}
			if err := json.Unmarshal([]byte(b.Prediction), &pred); err != nil || len(pred.ToolCalls) != 1 || pred.ToolCalls[0].Name != "set_device_info" {
				t.Errorf("row 1 prediction %q: %v", b.Prediction, err)
			}
			pt = compact(t, b.PredictedTrajectory)
			if len(pt) != 1 || pt[0].Arguments != `{"device_id":"device_2","status":"OFF"}` {
				t.Errorf("row 1 trajectory from a JSON string: %+v", pt)
			}
			if rows[0].Columns[0].Name != "prompt" {
				t.Errorf("columns not in input order: %v", rows[0].Columns[0].Name)
			}
		})
	}
}

func TestRagasSamples(t *testing.T) {
	rows, err := Load(filepath.Join("testdata", "ragas.jsonl"), FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	in := rows[0].Instance
	pt := compact(t, in.PredictedTrajectory)
	if len(pt) != 2 || pt[0].Name != "weather_check" || pt[1].Arguments != `{"temperature_fahrenheit":75}` {
		t.Fatalf("predicted trajectory: %+v", pt)
	}
	if pt[0].Result != "75°F, partly cloudy" {
		t.Errorf("tool message not attached as result: %q", pt[0].Result)
	}
	if len(in.ReferenceTrajectory) != 2 || in.ReferenceTopics[0] != "weather" || in.Reference == "" {
		t.Errorf("reference side: %+v %v %q", in.ReferenceTrajectory, in.ReferenceTopics, in.Reference)
	}
	// The prompt is the last question and the response its answer; the
	// history is the turn before; the transcript is the whole sample.
	if in.Prompt != "Can you translate that to Celsius?" || in.Response != "75°F is approximately 23.9°C." {
		t.Errorf("prompt %q response %q", in.Prompt, in.Response)
	}
	if len(in.Conversation) != 3 || in.Conversation[1].Role != agentrun.RoleAssistant || in.Conversation[2].Role != agentrun.RoleTool ||
		len(in.Conversation[1].ToolCalls) != 1 {
		t.Errorf("conversation: %+v", in.Conversation)
	}
	if len(in.Transcript) != 7 || in.Transcript[4].Content != "Let me convert that to Celsius for you." {
		t.Errorf("transcript: %+v", in.Transcript)
	}
	want := scorer.InPrompt | scorer.InResponse | scorer.InReference | scorer.InPredictedTrajectory |
		scorer.InReferenceTrajectory | scorer.InReferenceTopics | scorer.InConversation
	if in.Has != want {
		t.Errorf("Has = %b, want %b", in.Has, want)
	}
	two := rows[1].Instance
	if two.PredictedTrajectory == nil || len(two.PredictedTrajectory) != 0 || two.Has&scorer.InReferenceTrajectory == 0 {
		t.Errorf("empty trajectories must be present observations: %+v", two)
	}
}

func TestEvalSetCamelAndSnake(t *testing.T) {
	for _, file := range []string{"snake.evalset.json", "camel.evalset.json"} {
		t.Run(file, func(t *testing.T) {
			set, err := LoadEvalSet(filepath.Join("testdata", file))
			if err != nil {
				t.Fatal(err)
			}
			if set.ID != "home_automation" || len(set.Cases) != 2 {
				t.Fatalf("set %q with %d cases", set.ID, len(set.Cases))
			}
			c := set.Cases[0]
			if c.ID != "case_off" || len(c.Turns) != 1 {
				t.Fatalf("case 0: %+v", c)
			}
			tu := compact(t, c.Turns[0].ToolCalls)
			if c.Turns[0].UserContent != "Turn off device_2 in the Bedroom." || len(tu) != 1 || tu[0].Name != "set_device_info" ||
				tu[0].Arguments != `{"location":"Bedroom","device_id":"device_2","status":"OFF"}` {
				t.Errorf("turn: %+v", c.Turns[0])
			}
			d := set.Cases[1]
			if d.Turns[0].Response != "I can roll dice\nand check primes." {
				t.Errorf("text parts must join with a newline: %q", d.Turns[0].Response)
			}
			if !d.Turns[0].HasToolCalls || len(d.Turns[0].ToolCalls) != 0 || len(d.Turns[1].ToolCalls) != 2 || d.Turns[1].ToolCalls[0].ID != "adk-1" {
				t.Errorf("tool uses: %+v", d.Turns)
			}
		})
	}
}

func TestLegacyTestFile(t *testing.T) {
	set, err := LoadEvalSet(filepath.Join("testdata", "legacy.test.json"))
	if err != nil {
		t.Fatal(err)
	}
	if set.ID != "legacy" || len(set.Cases) != 1 || len(set.Cases[0].Turns) != 2 {
		t.Fatalf("%+v", set)
	}
	tr := set.Cases[0].Turns[1]
	if tr.UserContent != "Roll a 6-sided die" || tr.Response != "I rolled a 4." || len(tr.ToolCalls) != 1 || tr.ToolCalls[0].Arguments != `{"sides": 6}` {
		t.Errorf("%+v", tr)
	}
}

func TestBadInputNamesRowAndColumn(t *testing.T) {
	tests := []struct {
		name   string
		format Format
		data   string
		row    int
		column string
		want   string
	}{
		{"jsonl bad trajectory item", FormatJSONL, "{\"prompt\":\"a\"}\n{\"predicted_trajectory\":[{\"tool_input\":{}}]}\n", 1, ColPredictedTrajectory, `item 0: missing "tool_name"`},
		{"jsonl trajectory not a list", FormatJSONL, `{"reference_trajectory": {"a": 1}}`, 0, ColReferenceTrajectory, "must be a JSON array"},
		{"jsonl invalid json", FormatJSONL, "{\"prompt\":\"a\"}\n{\"prompt\": }\n", 1, ColPrompt, "invalid JSON"},
		{"jsonl tool input not an object", FormatJSONL, `{"predicted_trajectory":[{"tool_name":"a","tool_input":[1]}]}`, 0, ColPredictedTrajectory, `"tool_input" must be a JSON object`},
		{"json array row not object", FormatJSON, `[{"prompt":"a"}, 3]`, 1, "", "must be a JSON object"},
		{"csv bad json cell", FormatCSV, "prompt,predicted_trajectory\nx,\"[{\"\"tool_name\"\": \"\"a\"\"\"\n", 0, ColPredictedTrajectory, "not valid JSON"},
		{"csv latency", FormatCSV, "prompt,latency_in_seconds\nx,1\ny,soon\n", 1, ColLatency, "number of seconds"},
		{"ragas unknown type", FormatJSONL, `{"user_input":[{"type":"robot","content":"x"}]}`, 0, ColUserInput, `unknown type "robot"`},
		{"ragas bad tool call", FormatJSONL, `{"user_input":[{"type":"ai","tool_calls":[{"args":{}}]}]}`, 0, ColUserInput, `missing "name"`},
		{"ragas reference calls", FormatJSONL, `{"user_input":[],"reference_tool_calls":[{"name":"a","args":"x"}]}`, 0, ColReferenceToolCalls, `item 0: "args" string does not hold valid JSON`},
		{"failure not bool", FormatJSONL, `{"failure":"maybe"}`, 0, ColFailure, "must be a boolean"},
		{"duplicate column", FormatJSONL, `{"prompt":"a","prompt":"b"}`, 0, ColPrompt, "given twice"},
		{"tool calls and trajectory", FormatJSONL, `{"reference_trajectory":[],"reference_tool_calls":[]}`, 0, ColReferenceToolCalls, `given together with "reference_trajectory"`},
		{"conversation and history", FormatJSONL, `{"conversation":[],"history":[]}`, 0, ColHistory, "a conversation is already given"},
		{"ragas sample and conversation", FormatJSONL, `{"user_input":[],"conversation":[]}`, 0, ColConversation, "a conversation is already given"},
		{"negative latency", FormatJSONL, `{"latency_in_seconds":-1}`, 0, ColLatency, "number of seconds >= 0"},
		{"topics not strings", FormatJSONL, `{"reference_topics":[1]}`, 0, ColReferenceTopics, "item 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, bad, err := ParseRows([]byte(tt.data), tt.format)
			if err != nil || len(bad) != 1 {
				t.Fatalf("bad rows %v, error %v; want one bad row", bad, err)
			}
			e := bad[0]
			if e.Row != tt.row || e.Column != tt.column || !strings.Contains(e.Error(), tt.want) {
				t.Errorf("got %q (row %d, column %q), want row %d, column %q, containing %q", e, e.Row, e.Column, tt.row, tt.column, tt.want)
			}
			if tt.column != "" && !strings.Contains(e.Error(), `column "`+tt.column+`"`) {
				t.Errorf("message %q does not name the column", e)
			}
		})
	}
}

// TestColumnPrecedence pins which of two columns for the same Instance
// field wins and what lands in Instance.Columns.
func TestColumnPrecedence(t *testing.T) {
	tests := []struct {
		row     string
		caseID  string
		prompt  string
		columns map[string]any
	}{
		{`{"case_id":"a","eval_id":"b"}`, "a", "", nil},
		{`{"eval_id":"b","case_id":"a"}`, "a", "", nil},
		{`{"case_id":"","eval_id":"b"}`, "b", "", nil},
		{`{"case_id":null,"eval_id":7}`, "7", "", nil},
		{`{"user_input":"u"}`, "", "u", nil},
		{`{"user_input":"u","prompt":"p"}`, "", "p", nil},
		{`{"prompt":"p","extra":{"k":1},"none":null,"tags":["x"]}`, "", "p", map[string]any{"extra": map[string]any{"k": 1.0}, "tags": []any{"x"}}},
	}
	for _, tt := range tests {
		rows, bad, err := ParseRows([]byte(tt.row), FormatJSONL)
		if err != nil || len(bad) != 0 {
			t.Fatalf("%s: %v %v", tt.row, err, bad)
		}
		in := rows[0].Instance
		if in.CaseID != tt.caseID || in.Prompt != tt.prompt || !reflect.DeepEqual(in.Columns, tt.columns) {
			t.Errorf("%s: case %q, prompt %q, columns %v; want %q, %q, %v", tt.row, in.CaseID, in.Prompt, in.Columns, tt.caseID, tt.prompt, tt.columns)
		}
		if got := in.Has&scorer.InPrompt != 0; got != (tt.prompt != "") {
			t.Errorf("%s: prompt present = %v", tt.row, got)
		}
	}
}

func TestEvalSetGivenAsDataset(t *testing.T) {
	_, err := Load(filepath.Join("testdata", "snake.evalset.json"), FormatAuto)
	if err == nil || !strings.Contains(err.Error(), "--evalset") {
		t.Fatalf("want a hint to use --evalset, got %v", err)
	}
}

func TestBadEvalSets(t *testing.T) {
	tests := []struct{ data, want string }{
		{`{"eval_set_id": "x"}`, `missing "eval_cases"`},
		{`{"eval_cases": [{"eval_id": "a", "conversation": [{"user_content": 3}]}]}`, "eval_cases[0]: conversation[0]: user_content: must be a JSON object"},
		{`{"evalCases": [{"conversation": [{"intermediateData": {"toolUses": [{"args": {}}]}}]}]}`, `tool_uses: item 0: missing "name"`},
		{`[{"query": "q", "expected_tool_use": [{"tool_input": {}}]}]`, `[0].expected_tool_use: item 0: missing "tool_name"`},
	}
	for _, tt := range tests {
		_, err := ParseEvalSet([]byte(tt.data))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.data, err, tt.want)
		}
	}
}

func TestJoinByCaseIDAndInput(t *testing.T) {
	set, err := LoadEvalSet(filepath.Join("testdata", "snake.evalset.json"))
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(1000, 0)
	runs := []*agentrun.Trajectory{
		// case_dice by input: the two turns share a session.
		{TraceID: "d2", Input: "Roll a 10-sided die twice.", SessionID: "s1", Start: t0.Add(2 * time.Second), Output: "4 and 7",
			ToolCalls: []agentrun.ToolCall{{Name: "roll_die", Arguments: `{"sides":10}`, ArgumentsValid: true}}},
		{TraceID: "d1", Input: "What can you do?", SessionID: "s1", Start: t0.Add(time.Second), Output: "dice"},
		// case_off by attribute, even though its input differs.
		{TraceID: "o1", Input: "switch it off", Start: t0, Output: "off", Attributes: map[string]string{"eval.case_id": "case_off"}},
		{TraceID: "x", Input: "unrelated", Start: t0},
	}
	rows, unmatched, stray := Join(set, runs, DefaultCaseIDAttribute)
	if len(unmatched) != 0 || len(rows) != 2 {
		t.Fatalf("rows %d unmatched %v", len(rows), unmatched)
	}
	if len(stray) != 1 || stray[0] != "x" {
		t.Errorf("runs of no case: %v, want [x]", stray)
	}
	off := rows[0].Instance
	if off.Response != "off" || len(off.Invocations) != 1 || off.Invocations[0].ID != "o1" || !off.Invocations[0].HasReference {
		t.Errorf("case_off: %+v", off)
	}
	dice := rows[1].Instance
	if len(dice.Invocations) != 2 || dice.Invocations[0].ID != "d1" || dice.Invocations[1].ID != "d2" {
		t.Fatalf("case_dice invocations: %+v", dice.Invocations)
	}
	if len(dice.PredictedTrajectory) != 1 || len(dice.ReferenceTrajectory) != 2 || dice.Reference != "I rolled 4 and 7." || dice.Response != "4 and 7" {
		t.Errorf("case_dice: %+v", dice)
	}
	if dice.Has&(scorer.InPredictedTrajectory|scorer.InReferenceTrajectory|scorer.InReference|scorer.InInvocations) !=
		scorer.InPredictedTrajectory|scorer.InReferenceTrajectory|scorer.InReference|scorer.InInvocations {
		t.Errorf("case_dice Has = %b", dice.Has)
	}

	rows, unmatched, _ = Join(set, nil, DefaultCaseIDAttribute)
	if len(unmatched) != 2 || rows[0].Instance.Has&scorer.InPredictedTrajectory != 0 {
		t.Errorf("without runs: unmatched %v, Has %b", unmatched, rows[0].Instance.Has)
	}
}

func TestCasesFromRows(t *testing.T) {
	rows, bad, err := ParseRows([]byte(`{"case_id":"a","prompt":"p","reference":"r"}
{"prompt":"q","reference_trajectory":[]}
{"prompt":"no reference"}
`), FormatJSONL)
	if err != nil || len(bad) != 0 {
		t.Fatal(err, bad)
	}
	cs := CasesFromRows(rows)
	if len(cs) != 2 || cs[0].ID != "a" || !cs[0].Turns[0].HasResponse || cs[0].Turns[0].HasToolCalls ||
		cs[1].ID != "" || !cs[1].Turns[0].HasToolCalls || cs[1].Turns[0].UserContent != "q" {
		t.Errorf("%+v", cs)
	}
}

// A case run several times is scored once per attempt, each row with the
// case id; none of the runs is dropped.
func TestJoinRepeatedAttempts(t *testing.T) {
	set, err := LoadEvalSet(filepath.Join("testdata", "snake.evalset.json"))
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(1000, 0)
	var runs []*agentrun.Trajectory
	for k := range 4 {
		runs = append(runs, &agentrun.Trajectory{TraceID: fmt.Sprintf("o%d", k), Input: "switch it off", Start: t0.Add(time.Duration(k) * time.Second),
			Output: "off", Attributes: map[string]string{"eval.case_id": "case_off"}})
	}
	rows, _, stray := Join(set, runs, DefaultCaseIDAttribute)
	var off []Row
	for _, r := range rows {
		if r.Instance.CaseID == "case_off" {
			off = append(off, r)
		}
	}
	if len(off) != 4 || len(stray) != 0 {
		t.Fatalf("%d rows for case_off, stray %v; want 4 and none", len(off), stray)
	}
	for k, r := range off {
		if r.Instance.Invocations[0].ID != fmt.Sprintf("o%d", k) {
			t.Errorf("attempt %d scores run %s", k+1, r.Instance.Invocations[0].ID)
		}
	}
}
