package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
)

// TestEvalWithJudgeMetrics runs `sidecar eval` with a judge metric from the
// config against a local Gemini-format judge: every row is judged (no
// sampling offline), the rating lands in metrics_table.jsonl, and an
// unparseable judge answer is an error for its row, never a score: the
// summary counts it and the exit code is 1.
func TestEvalWithJudgeMetrics(t *testing.T) {
	srv := judgetest.New(t)
	srv.Handle(judgetest.Gemini, func(r judgetest.CapturedRequest) judgetest.Reply {
		switch {
		case strings.Contains(r.User, "Paris"):
			return judgetest.JSON(`{"explanation": "coherent", "score": 5}`)
		case strings.Contains(r.User, "Berlin"):
			return judgetest.Text("I would rate this a five.")
		}
		return judgetest.JSON(`{"explanation": "rambling", "score": 2}`)
	})
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "config.yaml")
	cfg := fmt.Sprintf(`
judge:
  judges:
    - {name: gemini, provider: gemini, model: gemini-2.5-flash, base_url: %s, api_key: test-key}
  metrics:
    - name: coherence
      sampling: {rate: 0.01}
`, srv.URL())
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(dir, "rows.jsonl")
	rows := `{"prompt": "Capital of France?", "response": "Paris is the capital of France."}
{"prompt": "Capital of Germany?", "response": "Berlin."}
{"prompt": "Capital of Italy?", "response": "Well, there are many cities, and Rome is one."}
`
	if err := os.WriteFile(ds, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, stdout, stderr := runEvalCLI(t, "--dataset", ds, "--config", cfgPath, "--metrics", "coherence", "--output", out)
	if code != 1 || !strings.Contains(stdout, "errors: coherence failed on 1 of 3 rows") {
		t.Fatalf("exit %d, want 1 with the error counted\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "metrics_table.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d rows in metrics_table.jsonl", len(lines))
	}
	var got []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		got = append(got, m)
	}
	if got[0]["coherence/score"] != 5.0 || got[2]["coherence/score"] != 2.0 {
		t.Errorf("scores %v and %v, want 5 and 2", got[0]["coherence/score"], got[2]["coherence/score"])
	}
	if got[1]["coherence/score"] != nil || got[1]["coherence/status"] != "error" {
		t.Errorf("unparseable answer gave %v", got[1])
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d judge requests, want 3 (offline judges every row)", n)
	}
}

// TestEvalPairwise runs a pairwise metric against the local judge server:
// a judge that prefers the response saying "detailed" wherever it is
// shown gives the candidate the win; a judge that always picks the first
// position disagrees with itself across the two orders, which is a tie.
func TestEvalPairwise(t *testing.T) {
	srv := judgetest.New(t)
	srv.Handle(judgetest.OpenAI, func(r judgetest.CapturedRequest) judgetest.Reply {
		a := r.User[strings.Index(r.User, "### Response A"):strings.Index(r.User, "### Response B")]
		choice := "B"
		switch {
		case strings.Contains(r.User, "position"):
			choice = "A" // a judge biased to the first position
		case strings.Contains(a, "detailed"):
			choice = "A"
		}
		return judgetest.JSON(`{"explanation": "compared", "pairwise_choice": "` + choice + `"}`)
	})
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "config.yaml")
	cfg := fmt.Sprintf(`
judge:
  judges:
    - {name: local, provider: openai, model: m, base_url: %s}
`, srv.OpenAIBaseURL())
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(dir, "rows.jsonl")
	rows := `{"prompt": "Plan a day", "response": "A detailed plan.", "baseline_model_response": "Go out."}
{"prompt": "Plan a day", "response": "A detailed plan.", "baseline_model_response": "Go out."}
{"prompt": "position test", "response": "A detailed plan.", "baseline_model_response": "Go out."}
{"prompt": "Plan a day", "response": "Go out.", "baseline_model_response": "A detailed plan."}
`
	if err := os.WriteFile(ds, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runEvalCLI(t, "--dataset", ds, "--config", cfgPath, "--metrics", "pairwise_coherence")
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	if want := "win rates pairwise_coherence: candidate 0.5000, baseline 0.2500, position-inconsistent rows 1"; !strings.Contains(stdout, want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout)
	}
	if n := len(srv.Requests()); n != 8 {
		t.Errorf("%d judge calls, want 2 per row", n)
	}
}
