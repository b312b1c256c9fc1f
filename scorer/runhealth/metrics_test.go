package runhealth

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/scorertest"
)

// call builds a tool call.
func call(name, args, errText string) agentrun.ToolCall {
	return agentrun.ToolCall{Name: name, Arguments: args, Error: errText}
}

// withCalls builds an instance holding a predicted trajectory.
func withCalls(calls ...agentrun.ToolCall) *scorer.Instance {
	return &scorer.Instance{PredictedTrajectory: calls, Has: scorer.InPredictedTrajectory}
}

// withDefs adds tool declarations to in.
func withDefs(in *scorer.Instance, defs ...agentrun.ToolDefinition) *scorer.Instance {
	in.ToolDeclarations = defs
	in.Has |= scorer.InToolDeclarations
	return in
}

// mustMetric builds a run-health metric with params.
func mustMetric(t testing.TB, name string, params map[string]any) scorer.Metric {
	return scorertest.MustMetric(t, Metrics(), name, params)
}

func TestLatency(t *testing.T) {
	scorertest.Run(t, mustMetric(t, MetricLatency, nil), []scorertest.Case{
		{Name: "seconds", In: &scorer.Instance{Latency: 1500 * time.Millisecond, Has: scorer.InLatency}, Want: 1.5},
		{Name: "zero", In: &scorer.Instance{Has: scorer.InLatency}, Want: 0},
		{Name: "negative clamps", In: &scorer.Instance{Latency: -time.Second, Has: scorer.InLatency}, Want: 0},
	})
	if got := mustMetric(t, MetricLatency, nil).Needs(); got != scorer.InLatency {
		t.Errorf("Needs = %b, want InLatency", got)
	}
}

func TestFailure(t *testing.T) {
	m := mustMetric(t, MetricFailure, nil)
	scorertest.Run(t, m, []scorertest.Case{
		{Name: "failed", In: &scorer.Instance{Failure: true, Has: scorer.InFailure}, Want: 1},
		{Name: "succeeded", In: &scorer.Instance{Has: scorer.InFailure}, Want: 0},
	})
	tr := &agentrun.Trajectory{Failed: true, ErrorType: "CampaignLockedError"}
	r, err := m.Score(context.Background(), scorer.FromTrajectory(tr))
	if err != nil || r.Score != 1 || r.Label != "CampaignLockedError" {
		t.Errorf("failed trajectory: got %+v, %v; want score 1 labelled with the error type", r, err)
	}
}

func TestToolCallCount(t *testing.T) {
	scorertest.Run(t, mustMetric(t, MetricToolCallCount, nil), []scorertest.Case{
		{Name: "no calls", In: withCalls(), Want: 0},
		{Name: "three", In: withCalls(call("a", "{}", ""), call("b", "{}", "x"), call("a", "{}", "")), Want: 3},
	})
}

func TestToolErrorRate(t *testing.T) {
	scorertest.Run(t, mustMetric(t, MetricToolErrorRate, nil), []scorertest.Case{
		{Name: "no calls", In: withCalls(), WantNA: true},
		{Name: "none failed", In: withCalls(call("a", "{}", ""), call("b", "{}", "")), Want: 0,
			Details: map[string]any{"calls": 2, "errors": 0}},
		{Name: "one of four", In: withCalls(call("a", "{}", ""), call("b", "{}", "boom"), call("c", "{}", ""), call("d", "{}", "")), Want: 0.25,
			Details: map[string]any{"calls": 4, "errors": 1}},
		{Name: "all errors", In: withCalls(call("a", "{}", "x"), call("a", "{}", "y")), Want: 1,
			Details: map[string]any{"calls": 2, "errors": 2}},
	})
}

func TestRepeatedToolCallRate(t *testing.T) {
	scorertest.Run(t, mustMetric(t, MetricRepeatedToolCallRate, nil), []scorertest.Case{
		{Name: "no calls", In: withCalls(), WantNA: true},
		{Name: "single call", In: withCalls(call("a", `{"x":1}`, "")), Want: 0, Details: map[string]any{"repeated": 0}},
		{Name: "identical", In: withCalls(call("a", `{"x":1}`, ""), call("a", `{"x":1}`, "")), Want: 0.5,
			Details: map[string]any{"calls": 2, "repeated": 1}},
		{Name: "three identical", In: withCalls(call("a", `{}`, ""), call("a", `{}`, ""), call("a", `{}`, "")), Want: 2.0 / 3,
			Details: map[string]any{"repeated": 2}},
		{Name: "reordered keys", In: withCalls(call("a", `{"x":1,"y":"z"}`, ""), call("a", `{"y":"z","x":1}`, "")), Want: 0.5},
		{Name: "whitespace", In: withCalls(call("a", `{"x":1}`, ""), call("a", " {\n \"x\" : 1 }\t", "")), Want: 0.5},
		{Name: "1 vs 1.0", In: withCalls(call("a", `{"n":1}`, ""), call("a", `{"n":1.0}`, "")), Want: 0.5},
		{Name: "100 vs 1e2", In: withCalls(call("a", `{"n":100}`, ""), call("a", `{"n":1E+2}`, "")), Want: 0.5},
		{Name: "0 vs -0.0", In: withCalls(call("a", `{"n":0}`, ""), call("a", `{"n":-0.0}`, "")), Want: 0.5},
		{Name: "1.50 vs 1.5", In: withCalls(call("a", `[1.50]`, ""), call("a", `[1.5]`, "")), Want: 0.5},
		{Name: "1 vs 2", In: withCalls(call("a", `{"n":1}`, ""), call("a", `{"n":2}`, "")), Want: 0},
		{Name: "1 vs -1", In: withCalls(call("a", `{"n":1}`, ""), call("a", `{"n":-1}`, "")), Want: 0},
		{Name: "big ints differ beyond float precision",
			In: withCalls(call("a", `{"n":12345678901234567890}`, ""), call("a", `{"n":12345678901234567891}`, "")), Want: 0},
		{Name: "number vs string", In: withCalls(call("a", `{"n":1}`, ""), call("a", `{"n":"1"}`, "")), Want: 0},
		{Name: "array order matters", In: withCalls(call("a", `{"l":[1,2]}`, ""), call("a", `{"l":[2,1]}`, "")), Want: 0},
		{Name: "nested reordered", In: withCalls(call("a", `{"o":{"p":1,"q":[{"r":true,"s":null}]}}`, ""),
			call("a", `{"o":{"q":[{"s":null,"r":true}],"p":1.0}}`, "")), Want: 0.5},
		{Name: "other tool same args", In: withCalls(call("a", `{"x":1}`, ""), call("b", `{"x":1}`, "")), Want: 0},
		{Name: "invalid JSON same text", In: withCalls(call("a", `{x:1}`, ""), call("a", `{x:1}`, "")), Want: 0.5},
		{Name: "invalid JSON different text", In: withCalls(call("a", `{x:1}`, ""), call("a", `{x: 1}`, "")), Want: 0},
		{Name: "invalid vs valid", In: withCalls(call("a", `{"x":1}`, ""), call("a", `{"x":1}}`, "")), Want: 0},
		{Name: "empty arguments", In: withCalls(call("a", "", ""), call("a", "", "")), Want: 0.5},
		{Name: "repeat of a non-adjacent call", In: withCalls(call("a", `{"q":"x"}`, ""), call("b", `{}`, ""),
			call("a", `{"q":"y"}`, ""), call("a", `{"q":"x"}`, "")), Want: 0.25},
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
	scorertest.Run(t, mustMetric(t, MetricToolArgsValid, nil), []scorertest.Case{
		{Name: "no calls", In: withCalls(), WantNA: true},
		{Name: "objects without schema", In: withCalls(call("a", `{"x":1}`, ""), call("b", ` {} `, "")), Want: 1,
			Details: map[string]any{"calls": 2, "invalid": 0, "schema_validated": 0, "schema_unusable": 0}},
		{Name: "invalid JSON", In: withCalls(call("a", `{"x":1}`, ""), call("b", `{"x":`, "")), Want: 0.5,
			Details: map[string]any{"invalid": 1, "reasons": []string{"b: arguments are not a JSON object"}}},
		{Name: "not an object", In: withCalls(call("a", `[1]`, ""), call("a", `"s"`, ""), call("a", `null`, ""), call("a", ``, "")), Want: 0,
			Details: map[string]any{"invalid": 4}},
		{Name: "trailing data", In: withCalls(call("a", `{} {}`, "")), Want: 0},
		{Name: "schema match", In: withDefs(withCalls(call("weather", `{"city":"Oslo","days":3}`, "")), weather), Want: 1,
			Details: map[string]any{"schema_validated": 1, "invalid": 0}},
		{Name: "schema: integer given as 3.0", In: withDefs(withCalls(call("weather", `{"city":"Oslo","days":3.0}`, "")), weather), Want: 1},
		{Name: "schema mismatch", In: withDefs(withCalls(
			call("weather", `{"city":"Oslo"}`, ""),
			call("weather", `{"days":3}`, ""),
			call("weather", `{"city":5}`, ""),
			call("weather", `{"city":"Oslo","extra":true}`, "")), weather), Want: 0.25,
			Details: map[string]any{"schema_validated": 4, "invalid": 3}},
		{Name: "schema declared, args not JSON", In: withDefs(withCalls(call("weather", `city=Oslo`, "")), weather), Want: 0,
			Details: map[string]any{"schema_validated": 0, "invalid": 1}},
		{Name: "schema of another tool ignored", In: withDefs(withCalls(call("other", `{"days":0}`, "")), weather), Want: 1,
			Details: map[string]any{"schema_validated": 0}},
		{Name: "empty schema text ignored", In: withDefs(withCalls(call("weather", `{"days":0}`, "")),
			agentrun.ToolDefinition{Name: "weather", Parameters: "  "}), Want: 1, Details: map[string]any{"schema_validated": 0}},
		{Name: "bad schema falls back", In: withDefs(withCalls(call("t", `{"a":1}`, ""), call("t", `nope`, "")),
			agentrun.ToolDefinition{Name: "t", Parameters: badSchemaType}), Want: 0.5,
			Details: map[string]any{"schema_unusable": 2, "schema_validated": 0, "invalid": 1}},
		{Name: "schema not JSON falls back", In: withDefs(withCalls(call("t", `{"a":1}`, "")),
			agentrun.ToolDefinition{Name: "t", Parameters: badSchemaJSON}), Want: 1, Details: map[string]any{"schema_unusable": 1}},
		{Name: "external ref refused", In: withDefs(withCalls(call("t", `{"a":1}`, "")),
			agentrun.ToolDefinition{Name: "t", Parameters: remoteRef}), Want: 1, Details: map[string]any{"schema_unusable": 1}},
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
	built, err := newToolArgsValid(map[string]any{"schema_cache_size": 2})
	if err != nil {
		t.Fatal(err)
	}
	m := built.(*toolArgsValid)
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
	if n := m.schemas.entries.Len(); n != 1 {
		t.Errorf("after one distinct schema: %d cache entries, want 1", n)
	}
	in = withDefs(withCalls(call("a", `{"city":"x"}`, ""), call("c", `{}`, ""), call("d", `{}`, "")), defs...)
	r, err := m.Score(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if n := m.schemas.entries.Len(); n != 2 {
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

func TestRegistryParamsAccepted(t *testing.T) {
	for _, v := range []any{int(7), int64(7), uint8(7), float64(7)} {
		m, err := newToolArgsValid(map[string]any{ParamMaxReasons: v, ParamSchemaCacheSize: 64})
		if err != nil {
			t.Fatal(err)
		}
		if got := m.(*toolArgsValid); got.maxReasons != 7 || got.schemas.size != 64 {
			t.Errorf("%T: max_reasons, schema cache = %d, %d, want 7, 64", v, got.maxReasons, got.schemas.size)
		}
	}
}
