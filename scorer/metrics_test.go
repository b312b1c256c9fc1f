package scorer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// call builds a tool call.
func call(name, args, errText string) agentrun.ToolCall {
	return agentrun.ToolCall{Name: name, Arguments: args, Error: errText}
}

// withCalls builds an instance holding a predicted trajectory.
func withCalls(calls ...agentrun.ToolCall) *Instance {
	return &Instance{PredictedTrajectory: calls, Has: InPredictedTrajectory}
}

// withDefs adds tool declarations to in.
func withDefs(in *Instance, defs ...agentrun.ToolDefinition) *Instance {
	in.ToolDeclarations = defs
	in.Has |= InToolDeclarations
	return in
}

// mustMetric builds a built-in metric with params.
func mustMetric(t testing.TB, name string, params map[string]any) Metric {
	t.Helper()
	ms, err := NewRegistry().Build([]MetricConfig{{Name: name, Params: params}})
	if err != nil {
		t.Fatal(err)
	}
	return ms[0]
}

// scoreCase is one row of a metric table.
type scoreCase struct {
	name    string
	in      *Instance
	want    float64
	wantNA  bool
	details map[string]any // keys checked when set
}

// runScoreCases runs a metric table.
func runScoreCases(t *testing.T, m Metric, cases []scoreCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := m.Score(context.Background(), tc.in)
			if tc.wantNA {
				if !errors.Is(err, ErrNotApplicable) {
					t.Fatalf("got (%v, %v), want ErrNotApplicable", r.Score, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Metric != m.Name() {
				t.Errorf("Metric = %q, want %q", r.Metric, m.Name())
			}
			if diff := r.Score - tc.want; diff > 1e-12 || diff < -1e-12 {
				t.Errorf("Score = %v, want %v", r.Score, tc.want)
			}
			for k, v := range tc.details {
				if got := fmt.Sprint(r.Details[k]); got != fmt.Sprint(v) {
					t.Errorf("Details[%q] = %s, want %v (all: %v)", k, got, v, r.Details)
				}
			}
		})
	}
}

func TestLatency(t *testing.T) {
	runScoreCases(t, mustMetric(t, MetricLatency, nil), []scoreCase{
		{name: "seconds", in: &Instance{Latency: 1500 * time.Millisecond, Has: InLatency}, want: 1.5},
		{name: "zero", in: &Instance{Has: InLatency}, want: 0},
		{name: "negative clamps", in: &Instance{Latency: -time.Second, Has: InLatency}, want: 0},
	})
	if got := (latency{}).Needs(); got != InLatency {
		t.Errorf("Needs = %b, want InLatency", got)
	}
}

func TestFailure(t *testing.T) {
	m := mustMetric(t, MetricFailure, nil)
	runScoreCases(t, m, []scoreCase{
		{name: "failed", in: &Instance{Failure: true, Has: InFailure}, want: 1},
		{name: "succeeded", in: &Instance{Has: InFailure}, want: 0},
	})
	tr := &agentrun.Trajectory{Failed: true, ErrorType: "CampaignLockedError"}
	r, err := m.Score(context.Background(), FromTrajectory(tr))
	if err != nil || r.Score != 1 || r.Label != "CampaignLockedError" {
		t.Errorf("failed trajectory: got %+v, %v; want score 1 labelled with the error type", r, err)
	}
}

func TestToolCallCount(t *testing.T) {
	runScoreCases(t, mustMetric(t, MetricToolCallCount, nil), []scoreCase{
		{name: "no calls", in: withCalls(), want: 0},
		{name: "three", in: withCalls(call("a", "{}", ""), call("b", "{}", "x"), call("a", "{}", "")), want: 3},
	})
}

func TestToolErrorRate(t *testing.T) {
	runScoreCases(t, mustMetric(t, MetricToolErrorRate, nil), []scoreCase{
		{name: "no calls", in: withCalls(), wantNA: true},
		{name: "none failed", in: withCalls(call("a", "{}", ""), call("b", "{}", "")), want: 0,
			details: map[string]any{"calls": 2, "errors": 0}},
		{name: "one of four", in: withCalls(call("a", "{}", ""), call("b", "{}", "boom"), call("c", "{}", ""), call("d", "{}", "")), want: 0.25,
			details: map[string]any{"calls": 4, "errors": 1}},
		{name: "all errors", in: withCalls(call("a", "{}", "x"), call("a", "{}", "y")), want: 1,
			details: map[string]any{"calls": 2, "errors": 2}},
	})
}

func TestRepeatedToolCallRate(t *testing.T) {
	runScoreCases(t, mustMetric(t, MetricRepeatedToolCallRate, nil), []scoreCase{
		{name: "no calls", in: withCalls(), wantNA: true},
		{name: "single call", in: withCalls(call("a", `{"x":1}`, "")), want: 0, details: map[string]any{"repeated": 0}},
		{name: "identical", in: withCalls(call("a", `{"x":1}`, ""), call("a", `{"x":1}`, "")), want: 0.5,
			details: map[string]any{"calls": 2, "repeated": 1}},
		{name: "three identical", in: withCalls(call("a", `{}`, ""), call("a", `{}`, ""), call("a", `{}`, "")), want: 2.0 / 3,
			details: map[string]any{"repeated": 2}},
		{name: "reordered keys", in: withCalls(call("a", `{"x":1,"y":"z"}`, ""), call("a", `{"y":"z","x":1}`, "")), want: 0.5},
		{name: "whitespace", in: withCalls(call("a", `{"x":1}`, ""), call("a", " {\n \"x\" : 1 }\t", "")), want: 0.5},
		{name: "1 vs 1.0", in: withCalls(call("a", `{"n":1}`, ""), call("a", `{"n":1.0}`, "")), want: 0.5},
		{name: "100 vs 1e2", in: withCalls(call("a", `{"n":100}`, ""), call("a", `{"n":1E+2}`, "")), want: 0.5},
		{name: "0 vs -0.0", in: withCalls(call("a", `{"n":0}`, ""), call("a", `{"n":-0.0}`, "")), want: 0.5},
		{name: "1.50 vs 1.5", in: withCalls(call("a", `[1.50]`, ""), call("a", `[1.5]`, "")), want: 0.5},
		{name: "1 vs 2", in: withCalls(call("a", `{"n":1}`, ""), call("a", `{"n":2}`, "")), want: 0},
		{name: "1 vs -1", in: withCalls(call("a", `{"n":1}`, ""), call("a", `{"n":-1}`, "")), want: 0},
		{name: "big ints differ beyond float precision",
			in: withCalls(call("a", `{"n":12345678901234567890}`, ""), call("a", `{"n":12345678901234567891}`, "")), want: 0},
		{name: "number vs string", in: withCalls(call("a", `{"n":1}`, ""), call("a", `{"n":"1"}`, "")), want: 0},
		{name: "array order matters", in: withCalls(call("a", `{"l":[1,2]}`, ""), call("a", `{"l":[2,1]}`, "")), want: 0},
		{name: "nested reordered", in: withCalls(call("a", `{"o":{"p":1,"q":[{"r":true,"s":null}]}}`, ""),
			call("a", `{"o":{"q":[{"s":null,"r":true}],"p":1.0}}`, "")), want: 0.5},
		{name: "other tool same args", in: withCalls(call("a", `{"x":1}`, ""), call("b", `{"x":1}`, "")), want: 0},
		{name: "invalid JSON same text", in: withCalls(call("a", `{x:1}`, ""), call("a", `{x:1}`, "")), want: 0.5},
		{name: "invalid JSON different text", in: withCalls(call("a", `{x:1}`, ""), call("a", `{x: 1}`, "")), want: 0},
		{name: "invalid vs valid", in: withCalls(call("a", `{"x":1}`, ""), call("a", `{"x":1}}`, "")), want: 0},
		{name: "empty arguments", in: withCalls(call("a", "", ""), call("a", "", "")), want: 0.5},
		{name: "repeat of a non-adjacent call", in: withCalls(call("a", `{"q":"x"}`, ""), call("b", `{}`, ""),
			call("a", `{"q":"y"}`, ""), call("a", `{"q":"x"}`, "")), want: 0.25},
	})
}

// schema texts used by the tool_args_valid tests.
const (
	weatherSchema = `{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1}},"required":["city"],"additionalProperties":false}`
	badSchemaType = `{"type":12}`
	badSchemaJSON = `{"type":`
	remoteRef     = `{"$ref":"file:///etc/passwd"}`
)

func TestToolArgsValid(t *testing.T) {
	weather := agentrun.ToolDefinition{Name: "weather", Parameters: weatherSchema}
	runScoreCases(t, mustMetric(t, MetricToolArgsValid, nil), []scoreCase{
		{name: "no calls", in: withCalls(), wantNA: true},
		{name: "objects without schema", in: withCalls(call("a", `{"x":1}`, ""), call("b", ` {} `, "")), want: 1,
			details: map[string]any{"calls": 2, "invalid": 0, "schema_validated": 0, "schema_unusable": 0}},
		{name: "invalid JSON", in: withCalls(call("a", `{"x":1}`, ""), call("b", `{"x":`, "")), want: 0.5,
			details: map[string]any{"invalid": 1, "reasons": []string{"b: arguments are not a JSON object"}}},
		{name: "not an object", in: withCalls(call("a", `[1]`, ""), call("a", `"s"`, ""), call("a", `null`, ""), call("a", ``, "")), want: 0,
			details: map[string]any{"invalid": 4}},
		{name: "trailing data", in: withCalls(call("a", `{} {}`, "")), want: 0},
		{name: "schema match", in: withDefs(withCalls(call("weather", `{"city":"Oslo","days":3}`, "")), weather), want: 1,
			details: map[string]any{"schema_validated": 1, "invalid": 0}},
		{name: "schema: integer given as 3.0", in: withDefs(withCalls(call("weather", `{"city":"Oslo","days":3.0}`, "")), weather), want: 1},
		{name: "schema mismatch", in: withDefs(withCalls(
			call("weather", `{"city":"Oslo"}`, ""),
			call("weather", `{"days":3}`, ""),
			call("weather", `{"city":5}`, ""),
			call("weather", `{"city":"Oslo","extra":true}`, "")), weather), want: 0.25,
			details: map[string]any{"schema_validated": 4, "invalid": 3}},
		{name: "schema declared, args not JSON", in: withDefs(withCalls(call("weather", `city=Oslo`, "")), weather), want: 0,
			details: map[string]any{"schema_validated": 0, "invalid": 1}},
		{name: "schema of another tool ignored", in: withDefs(withCalls(call("other", `{"days":0}`, "")), weather), want: 1,
			details: map[string]any{"schema_validated": 0}},
		{name: "empty schema text ignored", in: withDefs(withCalls(call("weather", `{"days":0}`, "")),
			agentrun.ToolDefinition{Name: "weather", Parameters: "  "}), want: 1, details: map[string]any{"schema_validated": 0}},
		{name: "bad schema falls back", in: withDefs(withCalls(call("t", `{"a":1}`, ""), call("t", `nope`, "")),
			agentrun.ToolDefinition{Name: "t", Parameters: badSchemaType}), want: 0.5,
			details: map[string]any{"schema_unusable": 2, "schema_validated": 0, "invalid": 1}},
		{name: "schema not JSON falls back", in: withDefs(withCalls(call("t", `{"a":1}`, "")),
			agentrun.ToolDefinition{Name: "t", Parameters: badSchemaJSON}), want: 1, details: map[string]any{"schema_unusable": 1}},
		{name: "external ref refused", in: withDefs(withCalls(call("t", `{"a":1}`, "")),
			agentrun.ToolDefinition{Name: "t", Parameters: remoteRef}), want: 1, details: map[string]any{"schema_unusable": 1}},
	})
}

func TestToolArgsValidReasons(t *testing.T) {
	weather := agentrun.ToolDefinition{Name: "weather", Parameters: weatherSchema}
	in := withDefs(withCalls(
		call("weather", `{"days":3}`, ""),
		call(strings.Repeat("é", 300), `{"days":0}`+"}", ""),
		call("x", `oops`, ""),
		call("x", `oops`, ""),
	), weather)
	r, err := mustMetric(t, MetricToolArgsValid, map[string]any{"max_reasons": 2}).Score(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	reasons, _ := r.Details["reasons"].([]string)
	if len(reasons) != 2 {
		t.Fatalf("reasons = %q, want 2 (max_reasons)", reasons)
	}
	if !strings.HasPrefix(reasons[0], "weather: ") || !strings.Contains(reasons[0], "city") {
		t.Errorf("reason 0 = %q, want the tool name and the missing property", reasons[0])
	}
	if strings.Contains(reasons[0], schemaURL) || strings.Contains(reasons[0], "\n") {
		t.Errorf("reason 0 = %q: want one line without the schema URL", reasons[0])
	}
	if len(reasons[1]) > maxReasonBytes || !strings.HasSuffix(reasons[1], "…") {
		t.Errorf("reason 1 has %d bytes (%q), want a truncated reason of at most %d", len(reasons[1]), reasons[1], maxReasonBytes)
	}
	if r.Details["invalid"] != 4 {
		t.Errorf("invalid = %v, want 4", r.Details["invalid"])
	}

	r, err = mustMetric(t, MetricToolArgsValid, map[string]any{"max_reasons": 0}).Score(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Details["reasons"]; ok {
		t.Errorf("max_reasons 0: details carry reasons %v", r.Details["reasons"])
	}
}

func TestSchemaCache(t *testing.T) {
	m := mustMetric(t, MetricToolArgsValid, map[string]any{"schema_cache_size": 2}).(*toolArgsValid)
	defs := []agentrun.ToolDefinition{
		{Name: "a", Parameters: weatherSchema},
		{Name: "b", Parameters: weatherSchema}, // same text: one entry
		{Name: "c", Parameters: badSchemaType}, // uncompilable schemas are cached too
		{Name: "d", Parameters: `{"type":"object"}`},
	}
	in := withDefs(withCalls(call("a", `{"city":"x"}`, ""), call("b", `{"city":"x"}`, "")), defs...)
	for range 3 {
		if _, err := m.Score(context.Background(), in); err != nil {
			t.Fatal(err)
		}
	}
	if n := m.schemas.len(); n != 1 {
		t.Errorf("after one distinct schema: %d cache entries, want 1", n)
	}
	in = withDefs(withCalls(call("a", `{"city":"x"}`, ""), call("c", `{}`, ""), call("d", `{}`, "")), defs...)
	r, err := m.Score(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if n := m.schemas.len(); n != 2 {
		t.Errorf("after three distinct schemas with size 2: %d cache entries, want 2", n)
	}
	if r.Score != 1 || r.Details["schema_unusable"] != 1 || r.Details["schema_validated"] != 2 {
		t.Errorf("evicting cache: got %v %v", r.Score, r.Details)
	}
}

// TestToolArgsValidConcurrent runs one metric from many goroutines; run
// with -race.
func TestToolArgsValidConcurrent(t *testing.T) {
	m := mustMetric(t, MetricToolArgsValid, map[string]any{"schema_cache_size": 3})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				schema := fmt.Sprintf(`{"type":"object","required":["k%d"]}`, (g+i)%5)
				in := withDefs(withCalls(call("t", fmt.Sprintf(`{"k%d":1}`, (g+i)%5), "")),
					agentrun.ToolDefinition{Name: "t", Parameters: schema})
				r, err := m.Score(context.Background(), in)
				if err != nil || r.Score != 1 {
					t.Errorf("got %v, %v; want 1", r.Score, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
