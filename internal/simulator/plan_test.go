package simulator

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func mustScenarios(t *testing.T) []*scenario {
	t.Helper()
	s, err := loadScenarios()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// compileSchemas compiles every tool's declared parameter schema.
func compileSchemas(t *testing.T, scs []*scenario) map[string]*jsonschema.Schema {
	t.Helper()
	out := map[string]*jsonschema.Schema{}
	for _, sc := range scs {
		for _, tool := range sc.Tools {
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(tool.Parameters))
			if err != nil {
				t.Fatalf("%s: %v", tool.Name, err)
			}
			c := jsonschema.NewCompiler()
			url := "mem://" + sc.Name + "/" + tool.Name + ".json"
			if err := c.AddResource(url, doc); err != nil {
				t.Fatal(err)
			}
			sch, err := c.Compile(url)
			if err != nil {
				t.Fatalf("%s schema: %v", tool.Name, err)
			}
			out[tool.Name] = sch
		}
	}
	return out
}

func validates(sch *jsonschema.Schema, args string) bool {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(args))
	return err == nil && sch.Validate(v) == nil
}

// TestScenarioTables checks the data: the correct calls of every task
// satisfy their tool's schema, and results are JSON objects.
func TestScenarioTables(t *testing.T) {
	scs := mustScenarios(t)
	schemas := compileSchemas(t, scs)
	for _, sc := range scs {
		if sc.Agent == "" || sc.Model == "" || sc.Provider == "" || !strings.Contains(sc.Apology, "%s") {
			t.Errorf("scenario %s is incomplete", sc.Name)
		}
		for _, tk := range sc.Tasks {
			if tk.Input == "" || tk.Answer == "" || len(tk.Turns) == 0 {
				t.Errorf("%s: incomplete task %q", sc.Name, tk.Input)
			}
			for _, turn := range tk.Turns {
				for _, c := range turn {
					if !validates(schemas[c.Tool], c.Args) {
						t.Errorf("%s: %s%s violates its schema", sc.Name, c.Tool, c.Args)
					}
					var res map[string]any
					if json.Unmarshal([]byte(c.Result), &res) != nil {
						t.Errorf("%s: %s result is not an object", sc.Name, c.Tool)
					}
				}
			}
		}
	}
}

// TestInvalidArguments checks that the kind of each call's arguments
// matches what a JSON Schema validator says about them.
func TestInvalidArguments(t *testing.T) {
	scs := mustScenarios(t)
	schemas := compileSchemas(t, scs)
	pl := newPlanner(3, scs)
	kinds := map[string]int{}
	for i := 0; i < 400; i++ {
		for _, c := range pl.next(Degraded).calls() {
			kinds[c.InvalidArguments]++
			switch c.InvalidArguments {
			case InvalidJSON:
				if json.Valid([]byte(c.Arguments)) || c.ErrorType == "" {
					t.Errorf("%s %s flagged as invalid JSON", c.Name, c.Arguments)
				}
			case InvalidSchema:
				if !json.Valid([]byte(c.Arguments)) || validates(schemas[c.Name], c.Arguments) || c.ErrorType != "ValidationError" {
					t.Errorf("%s %s flagged as schema violation", c.Name, c.Arguments)
				}
			case "":
				if !validates(schemas[c.Name], c.Arguments) {
					t.Errorf("%s %s is invalid but not flagged", c.Name, c.Arguments)
				}
			default:
				t.Errorf("unknown kind %q", c.InvalidArguments)
			}
		}
	}
	if kinds[InvalidJSON] == 0 || kinds[InvalidSchema] == 0 {
		t.Errorf("degraded runs lack both kinds of invalid arguments: %v", kinds)
	}
}

// TestPlanInvariants checks properties every planned run must have.
func TestPlanInvariants(t *testing.T) {
	pl := newPlanner(9, mustScenarios(t))
	for i := 0; i < 300; i++ {
		q := Quality(i % 2)
		p := pl.next(q)
		seen := map[string]bool{}
		ids := map[string]bool{}
		for _, c := range p.calls() {
			k := c.Name + "\x00" + c.Arguments
			if c.Repeated != seen[k] {
				t.Errorf("call %s %s: Repeated=%v, seen before=%v", c.Name, c.Arguments, c.Repeated, seen[k])
			}
			seen[k] = true
			if ids[c.ID] {
				t.Errorf("duplicate call id %s", c.ID)
			}
			ids[c.ID] = true
			if (c.Result == "") == (c.ErrorType == "") {
				t.Errorf("call %s has result %q and error %q", c.Name, c.Result, c.ErrorType)
			}
		}
		if p.agentErrType != "" && p.output != "" {
			t.Errorf("errored run has an answer")
		}
		var last int64
		for _, tp := range p.turns {
			if int64(tp.chat.start) < last {
				t.Errorf("chat starts before the previous step ended")
			}
			last = int64(tp.chat.end)
			for _, c := range tp.calls {
				if int64(c.start) < last || c.end <= c.start {
					t.Errorf("call %s overlaps or is empty", c.Name)
				}
				last = int64(c.end)
			}
		}
		if p.total <= 0 || int64(p.total) < last {
			t.Errorf("total %v before the last step", p.total)
		}
	}
}

// goldenRun is the seed-determined content of a run.
type goldenRun struct {
	Scenario  string `json:"scenario"`
	Quality   string `json:"quality"`
	Input     string `json:"input"`
	Output    string `json:"output"`
	ErrorType string `json:"error_type,omitempty"`
	LLMCalls  int    `json:"llm_calls"`
	TotalMS   int64  `json:"total_ms"`
	Calls     []Call `json:"calls"`
}

func planGolden(seed int64, scs []*scenario) []goldenRun {
	pl := newPlanner(seed, scs)
	var out []goldenRun
	for i := 0; i < 12; i++ {
		q := Good
		if i >= 6 {
			q = Degraded
		}
		p := pl.next(q)
		out = append(out, goldenRun{
			Scenario: p.sc.Name, Quality: qualityName(q), Input: p.input, Output: p.output,
			ErrorType: p.agentErrType, LLMCalls: p.llmCalls(), TotalMS: p.total.Milliseconds(), Calls: p.calls(),
		})
	}
	return out
}

// TestPlansGolden pins the runs seed 1 produces; run with -update after an
// intended change to the scenario tables or behaviour.
func TestPlansGolden(t *testing.T) {
	scs := mustScenarios(t)
	got, err := json.MarshalIndent(planGolden(1, scs), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "plans_seed1.golden.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("updated %s", path)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("plans for seed 1 differ from %s (rerun with -update if intended)", path)
	}
	again, _ := json.MarshalIndent(planGolden(1, mustScenarios(t)), "", "  ")
	if !bytes.Equal(append(again, '\n'), got) {
		t.Error("the same seed gave different runs")
	}
	other, _ := json.MarshalIndent(planGolden(2, scs), "", "  ")
	if bytes.Equal(append(other, '\n'), got) {
		t.Error("seeds 1 and 2 gave the same runs")
	}
}
