package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite golden files")

// runEvalCLI runs `sidecar eval` with args and returns the exit code and
// the output streams.
func runEvalCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), append([]string{"eval"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func golden(t *testing.T, got []byte, name string) {
	t.Helper()
	path := filepath.Join("testdata", "eval", name)
	if *updateGolden {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n got: %s\nwant: %s", name, got, want)
	}
}

func TestEvalGoldenAndExitCodes(t *testing.T) {
	ds := filepath.Join("testdata", "eval", "dataset.jsonl")
	cfg := filepath.Join("testdata", "eval", "config.yaml")
	tests := []struct {
		name     string
		criteria string
		code     int
		golden   string
	}{
		{"pass", "criteria_pass.json", 0, "pass"},
		{"fail", "criteria_fail.json", 1, "fail"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			code, stdout, stderr := runEvalCLI(t, "--dataset", ds, "--config", cfg,
				"--metrics", "essential_tools_present,team_a,trajectory_exact_match,tool_call_count",
				"--criteria", filepath.Join("testdata", "eval", tt.criteria), "--output", out)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			for _, f := range []string{"metrics_table.jsonl", "summary.json"} {
				b, err := os.ReadFile(filepath.Join(out, f))
				if err != nil {
					t.Fatal(err)
				}
				golden(t, b, tt.golden+"."+f)
			}
			if !strings.Contains(stdout, "row_count: 3") || !strings.Contains(stdout, "essential_tools_present") {
				t.Errorf("table on stdout:\n%s", stdout)
			}
			if tt.code == 1 && !strings.Contains(stdout, "criterion essential_tools_present >= 1: FAIL (rows [1 2])") {
				t.Errorf("failing criterion not shown:\n%s", stdout)
			}
		})
	}
}

func TestEvalBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := write("bad.jsonl", "{\"prompt\":\"a\",\"predicted_trajectory\":[]}\n{\"prompt\":\"b\",\"predicted_trajectory\":[{\"tool_input\":{}}]}\n")
	good := write("good.jsonl", "{\"response\":\"a\",\"reference\":\"a\"}\n")
	badCfg := write("bad.yaml", "scorer:\n  metrics:\n    - name: broken\n      type: cel\n      params: {expression: \"size(response) >\"}\n")
	badCrit := write("crit.json", `{"criteria": {"exact_match": "high"}}`)
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"bad row, fail fast", []string{"--dataset", bad, "--metrics", "exact_match", "--fail-fast"}, []string{"row 1 (line 2)", `column "predicted_trajectory"`, `missing "tool_name"`}},
		{"no input", []string{"--metrics", "exact_match"}, []string{"--dataset"}},
		{"no metrics", []string{"--dataset", good}, []string{"no metrics"}},
		{"unknown metric", []string{"--dataset", good, "--metrics", "nope"}, []string{`unknown metric type "nope"`}},
		{"cel compile error", []string{"--dataset", good, "--config", badCfg, "--metrics", "broken"}, []string{`metric "broken"`, "line 1, column 17"}},
		{"bad criteria", []string{"--dataset", good, "--criteria", badCrit}, []string{`"exact_match": must be a number`}},
		{"missing file", []string{"--dataset", filepath.Join(dir, "none.jsonl"), "--metrics", "exact_match"}, []string{"none.jsonl"}},
		{"evalset without traces", []string{"--evalset", good}, []string{"--traces"}},
		{"bad flag", []string{"--nope"}, []string{"flag provided but not defined"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runEvalCLI(t, tt.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (stderr %s)", code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
		})
	}
	if code, _, _ := runEvalCLI(t, "--dataset", good, "--metrics", "exact_match"); code != 0 {
		t.Errorf("no criteria: exit %d, want 0", code)
	}
}

func TestEvalFormatsAndEvalSet(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(csvPath, []byte("response,reference,predicted_trajectory,reference_trajectory\nParis,Paris,\"[{\"\"tool_name\"\": \"\"a\"\", \"\"tool_input\"\": {\"\"x\"\": 1}}]\",\"[{\"\"tool_name\"\": \"\"a\"\", \"\"tool_input\"\": {\"\"x\"\": 1.0}}]\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "csv")
	code, stdout, stderr := runEvalCLI(t, "--dataset", csvPath, "--metrics", "exact_match,trajectory_exact_match", "--criteria", writeCriteria(t, dir, `{"criteria": {"exact_match": 1, "trajectory_exact_match": 1}}`), "--output", out)
	if code != 0 {
		t.Fatalf("csv: exit %d\n%s\n%s", code, stdout, stderr)
	}

	// An ADK eval set against replayed OTel GenAI captures: no run carries
	// the case id, so cases match by their first user input. The expected
	// side is the capture's ground truth, so ADK's default criteria pass.
	root := filepath.Join("testdata", "otel-genai-manual", "json", "smart-home-2step")
	gtb, err := os.ReadFile(filepath.Join(root, "ground_truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	var gt groundTruth
	if err := json.Unmarshal(gtb, &gt); err != nil {
		t.Fatal(err)
	}
	var uses []map[string]any
	for _, c := range gt.ToolCalls {
		uses = append(uses, map[string]any{"name": c.Name, "args": c.Args})
	}
	matched := map[string]any{"eval_id": "smart_home", "conversation": []any{map[string]any{
		"user_content":      map[string]any{"parts": []any{map[string]any{"text": gt.UserInput}}},
		"final_response":    map[string]any{"parts": []any{map[string]any{"text": gt.FinalResponse}}},
		"intermediate_data": map[string]any{"tool_uses": uses},
	}}}
	unknown := map[string]any{"eval_id": "unknown", "conversation": []any{map[string]any{
		"user_content":   map[string]any{"parts": []any{map[string]any{"text": "no such run"}}},
		"final_response": map[string]any{"parts": []any{map[string]any{"text": "x"}}},
	}}}
	payloads, err := filepath.Glob(filepath.Join(root, "payload-*.json"))
	if err != nil || len(payloads) == 0 {
		t.Fatal("no payloads", err)
	}
	for _, tt := range []struct {
		name  string
		cases []any
		code  int
		want  string
	}{
		{"matched", []any{matched}, 0, "criterion tool_trajectory_avg_score >= 1: PASS"},
		{"matched per case", []any{matched}, 0, "smart_home: PASSED\n  tool_trajectory_avg_score: 1.0000 >= 1 PASSED"},
		{"unmatched", []any{matched, unknown}, 1, "criterion tool_trajectory_avg_score >= 1: FAIL (rows [1])"},
		{"unmatched per case", []any{matched, unknown}, 1, "unknown: FAILED"},
		{"adk count", []any{matched, unknown}, 1, "1 passed, 1 failed"},
	} {
		b, _ := json.Marshal(map[string]any{"eval_set_id": "captures", "eval_cases": tt.cases})
		set := filepath.Join(dir, tt.name+".evalset.json")
		if err := os.WriteFile(set, b, 0o644); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"--evalset", set, "--output", filepath.Join(dir, tt.name)}, payloads...)
		code, stdout, stderr := runEvalCLI(t, args...)
		if code != tt.code || !strings.Contains(stdout, tt.want) || !strings.Contains(stdout, "response_match_score") {
			t.Errorf("%s: exit %d, want %d and %q\nstdout %s\nstderr %s", tt.name, code, tt.code, tt.want, stdout, stderr)
		}
	}
}

func writeCriteria(t *testing.T, dir, data string) string {
	t.Helper()
	p := filepath.Join(dir, "criteria.json")
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A bad row is reported with its row, line and column, and the run goes
// on: the other rows are scored, the summary lists the bad row, and the
// exit status is 1.
func TestEvalBadRowGoesOn(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "bad.jsonl")
	data := "{\"response\":\"a\",\"reference\":\"a\"}\n{\"prompt\":\"b\",\"predicted_trajectory\":[{\"tool_input\":{}}]}\n{\"response\":\"c\",\"reference\":\"d\"}\n"
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runEvalCLI(t, "--dataset", p, "--metrics", "exact_match")
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	for _, w := range []string{"row_count: 2", `bad row: row 1 (line 2), column "predicted_trajectory"`} {
		if !strings.Contains(stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, stdout)
		}
	}
	if !strings.Contains(stderr, "row=1 line=2") {
		t.Errorf("stderr does not name the row:\n%s", stderr)
	}
}

// A judge metric asked for without a judge says a judge is needed.
func TestEvalJudgeMetricWithoutJudge(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "rows.jsonl")
	if err := os.WriteFile(p, []byte(`{"prompt": "q", "response": "a"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runEvalCLI(t, "--dataset", p, "--metrics", "coherence")
	if code != 2 || !strings.Contains(stderr, "no judge is configured") || strings.Contains(stderr, "unknown metric type") {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
}

// human:<metric> columns give the metric's agreement with people in
// summary.json and on stdout.
func TestEvalAgreementWithPeople(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "rows.jsonl")
	rows := `{"response": "a", "reference": "a", "human:exact_match": 1}
{"response": "b", "reference": "c", "human:exact_match": 0}
{"response": "d", "reference": "e", "human:exact_match": 1}
{"response": "f", "reference": "f", "human:exact_match": 1}
`
	if err := os.WriteFile(p, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runEvalCLI(t, "--dataset", p, "--metrics", "exact_match", "--output", out)
	if code != 0 || !strings.Contains(stdout, "agreement exact_match with people: n 4, Cohen's kappa 0.5000") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Agreement map[string]struct {
			N         int                       `json:"n"`
			Kappa     float64                   `json:"cohen_kappa"`
			MAE       float64                   `json:"mae"`
			Confusion map[string]map[string]int `json:"confusion"`
		} `json:"agreement"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	// people 1,0,1,1; metric 1,0,0,1: po 3/4, pe 1/2, kappa 1/2
	a := sum.Agreement["exact_match"]
	if a.N != 4 || a.Kappa != 0.5 || a.MAE != 0.25 || a.Confusion["1"]["0"] != 1 {
		t.Errorf("agreement %+v", a)
	}
}
