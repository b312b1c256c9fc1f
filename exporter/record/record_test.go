package record

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/exporter/internal/exportertest"
	"github.com/evalsidecar/evalsidecar/scorer"
)

var update = flag.Bool("update", false, "rewrite golden files")

// scoredAt is the fixed scoring time used by golden files.
var scoredAt = exportertest.ScoredAt()

// loadEvaluations returns the exporters' shared evaluation fixture.
func loadEvaluations(t testing.TB) []scorer.Evaluation { return exportertest.Evaluations(t) }

// encodeLines writes each value as one JSON line, as the JSON lines
// exporter does.
func encodeLines(t *testing.T, vs ...any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, v := range vs {
		if err := enc.Encode(v); err != nil {
			t.Fatalf("encode %T: %v", v, err)
		}
	}
	return buf.Bytes()
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	exportertest.Golden(t, name, got, *update)
}

func TestGolden(t *testing.T) {
	evs := loadEvaluations(t)
	var trajs, scores []any
	for i := range evs {
		trajs = append(trajs, Trajectory(evs[i].Trajectory))
		for _, s := range ScoresAt(&evs[i], scoredAt) {
			scores = append(scores, s)
		}
	}
	golden(t, "trajectories.golden.jsonl", encodeLines(t, trajs...))
	golden(t, "scores.golden.jsonl", encodeLines(t, scores...))
}

// keyOrder returns the keys of the JSON object in b, in document order.
func keyOrder(t *testing.T, b []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", b)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func TestFieldNamesAndOrder(t *testing.T) {
	evs := loadEvaluations(t)
	tr := Trajectory(evs[0].Trajectory)
	sc := ScoresAt(&evs[0], scoredAt)
	cases := []struct {
		name string
		v    any
		want []string
	}{
		{"trajectory", tr, []string{"trace_id", "span_id", "service", "service_version", "environment",
			"agent", "session_id", "convention", "start", "end", "latency_seconds", "failed", "error_type",
			"input", "output", "instructions", "truncated", "tool_calls", "llm_calls", "attributes"}},
		{"tool_call", tr.ToolCalls[0], []string{"id", "name", "arguments", "arguments_valid", "result",
			"error", "start", "end", "span_id", "agent"}},
		{"llm_call", tr.LLMCalls[0], []string{"model", "provider", "input_tokens", "output_tokens",
			"start", "end", "finish_reasons"}},
		{"score", sc[0], []string{"timestamp", "trace_id", "span_id", "service", "agent", "session_id",
			"metric", "score", "label", "explanation", "confidence", "passed", "details", "judge"}},
		{"judge", sc[4].Judge, []string{"judge", "provider", "model", "input_tokens", "output_tokens", "cost_usd", "latency_seconds", "calls", "attempts", "cached"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := json.Marshal(c.v)
			if err != nil {
				t.Fatal(err)
			}
			if got := keyOrder(t, b); !reflect.DeepEqual(got, c.want) {
				t.Errorf("keys\n got %v\nwant %v", got, c.want)
			}
		})
	}
}

func TestEmptyCollectionsEncodeAsEmpty(t *testing.T) {
	tr := Trajectory(&agentrun.Trajectory{TraceID: "t"})
	var m map[string]json.RawMessage
	if err := json.Unmarshal(encodeLines(t, tr), &m); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{
		"tool_calls": "[]", "llm_calls": "[]", "attributes": "{}", "start": "null", "end": "null",
	} {
		if got := string(m[key]); got != want {
			t.Errorf("%s = %s, want %s", key, got, want)
		}
	}

	ev := &scorer.Evaluation{Results: []scorer.Result{{Metric: "m", Score: 1}}}
	if err := json.Unmarshal(encodeLines(t, ScoresAt(ev, scoredAt)[0]), &m); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{"details": "{}", "judge": "null", "trace_id": `""`} {
		if got := string(m[key]); got != want {
			t.Errorf("%s = %s, want %s", key, got, want)
		}
	}

	withCall := Trajectory(&agentrun.Trajectory{LLMCalls: []agentrun.LLMCall{{Model: "m"}}})
	if withCall.LLMCalls[0].FinishReasons == nil {
		t.Error("finish_reasons is nil, want []")
	}
}

func TestArguments(t *testing.T) {
	f := func(raw string, flagged bool, want string, wantValid bool) {
		t.Helper()
		got, valid := arguments(raw, flagged)
		if string(got) != want || valid != wantValid {
			t.Errorf("arguments(%q, %v) = %s, %v; want %s, %v", raw, flagged, got, valid, want, wantValid)
		}
	}
	f(`{"a":1}`, true, `{"a":1}`, true)
	f(` {"a": [1, 2]}`, true, ` {"a": [1, 2]}`, true)
	f(`{"a":1}`, false, `"{\"a\":1}"`, false) // the extractor's flag is trusted when false
	f(`{"a":`, true, `"{\"a\":"`, false)      // a wrong flag cannot corrupt the record
	f(`[1,2]`, true, `"[1,2]"`, false)        // only objects are arguments objects
	f(`"s"`, true, `"\"s\""`, false)
	f(``, false, `""`, false)
	f(`{} trailing`, true, `"{} trailing"`, false)
}

func TestTimeEncoding(t *testing.T) {
	f := func(in time.Time, want string) {
		t.Helper()
		b, err := json.Marshal(NewTime(in))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != want {
			t.Errorf("%v encodes as %s, want %s", in, b, want)
		}
		var back Time
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !back.Equal(in) {
			t.Errorf("round trip of %v gave %v", in, back.Time)
		}
	}
	f(time.Time{}, "null")
	f(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), `"2026-01-02T03:04:05.000000000Z"`)
	f(time.Date(2026, 1, 2, 3, 4, 5, 7, time.FixedZone("CEST", 2*3600)), `"2026-01-02T01:04:05.000000007Z"`)
}

func TestScoresDetailsAreSanitizedCopies(t *testing.T) {
	inner := map[string]any{"ratio": math.NaN()}
	orig := map[string]any{
		"nan": math.NaN(), "inf": math.Inf(1), "ok": 0.5, "f32": float32(math.Inf(-1)),
		"list": []float64{1, math.NaN()}, "inner": inner, "verdicts": "metric's own",
	}
	ev := &scorer.Evaluation{Results: []scorer.Result{{
		Metric: "m", Score: 1, Details: orig,
		Verdicts: []scorer.Verdict{{Rubric: "r", Pass: true}},
	}}}
	rec := ScoresAt(ev, scoredAt)[0]
	var got map[string]any
	if err := json.Unmarshal(encodeLines(t, rec), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"nan": nil, "inf": nil, "ok": 0.5, "f32": nil, "list": []any{1.0, nil},
		"inner": map[string]any{"ratio": nil}, "verdicts": "metric's own",
	}
	if !reflect.DeepEqual(got["details"], want) {
		t.Errorf("details = %#v\nwant %#v", got["details"], want)
	}
	if !math.IsNaN(orig["nan"].(float64)) || !math.IsNaN(inner["ratio"].(float64)) {
		t.Error("the metric's Details map was modified")
	}
}

func TestScoresVerdicts(t *testing.T) {
	evs := loadEvaluations(t)
	rec := ScoresAt(&evs[0], scoredAt)[5]
	var got map[string]any
	if err := json.Unmarshal(encodeLines(t, rec), &got); err != nil {
		t.Fatal(err)
	}
	want := []any{
		map[string]any{"rubric": "Apologises", "pass": true, "reason": "says sorry"},
		map[string]any{"rubric": "States refund amount", "pass": false, "reason": "amount missing"},
	}
	if d := got["details"].(map[string]any); !reflect.DeepEqual(d[VerdictsKey], want) {
		t.Errorf("verdicts = %#v, want %#v", d[VerdictsKey], want)
	}
}

func TestScoresWithoutTrajectory(t *testing.T) {
	recs := ScoresAt(&scorer.Evaluation{Results: []scorer.Result{{Metric: "a", Score: 2}, {Metric: "b", Score: 3}}}, scoredAt)
	if len(recs) != 2 || recs[0].Metric != "a" || recs[1].Score != 3 || recs[0].TraceID != "" {
		t.Errorf("records = %+v", recs)
	}
	if got := ScoresAt(&scorer.Evaluation{}, scoredAt); got == nil || len(got) != 0 {
		t.Errorf("no results gave %#v, want empty non-nil", got)
	}
}

func TestScoresStampsUTC(t *testing.T) {
	at := time.Date(2024, 5, 1, 12, 0, 0, 0, time.FixedZone("CEST", 2*3600))
	rec := ScoresAt(&scorer.Evaluation{Results: []scorer.Result{{Metric: "a"}}}, at)[0]
	if !rec.Timestamp.Equal(at) || rec.Timestamp.Location() != time.UTC {
		t.Errorf("timestamp %v is not %v in UTC", rec.Timestamp.Time, at)
	}
}

func TestTrajectoryRecordDoesNotAlias(t *testing.T) {
	tr := &agentrun.Trajectory{
		Attributes: map[string]string{"k": "v"},
		LLMCalls:   []agentrun.LLMCall{{FinishReasons: []string{"stop"}}},
	}
	rec := Trajectory(tr)
	tr.Attributes["k"] = "changed"
	tr.LLMCalls[0].FinishReasons[0] = "changed"
	if rec.Attributes["k"] != "v" || rec.LLMCalls[0].FinishReasons[0] != "stop" {
		t.Error("record shares memory with the trajectory")
	}
}

func TestAppendTimeMatchesLayout(t *testing.T) {
	f := func(in time.Time) {
		t.Helper()
		got := string(AppendTime(nil, in))
		if want := in.UTC().Format(TimeLayout); got != want {
			t.Errorf("AppendTime(%v) = %s, want %s", in, got, want)
		}
	}
	f(time.Date(2026, 12, 31, 23, 59, 59, 999999999, time.UTC))
	f(time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC))
	f(time.Date(9999, 6, 7, 8, 9, 10, 123, time.FixedZone("x", -7*3600)))
	f(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)) // falls back
	f(time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC))    // falls back
	f(time.Unix(1772359200, 5))
	f(time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC))
	f(time.Date(0, 3, 1, 0, 0, 0, 0, time.UTC))
	f(time.Date(1600, 2, 29, 12, 0, 0, 0, time.UTC))
	f(time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC))
	f(time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC))
	f(time.Date(2000, 2, 29, 0, 0, 0, 0, time.UTC))
	f(time.Date(2100, 2, 28, 0, 0, 0, 0, time.UTC))
}

func FuzzAppendTime(f *testing.F) {
	f.Add(int64(0), int64(0))
	f.Add(int64(1772359200), int64(123456789))
	f.Add(int64(-62135596800), int64(1))
	f.Fuzz(func(t *testing.T, sec, nsec int64) {
		in := time.Unix(sec, nsec)
		if got, want := string(AppendTime(nil, in)), in.UTC().Format(TimeLayout); got != want {
			t.Fatalf("AppendTime(%d, %d) = %s, want %s", sec, nsec, got, want)
		}
	})
}
