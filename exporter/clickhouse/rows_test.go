package clickhouse

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/scorer"
)

func TestMetricVersion(t *testing.T) {
	for id, want := range map[string]string{
		"hallucination_v1": "1", "adk_final_response_match_v2": "2", "tool_error_rate": "",
		"x_v": "", "x_vbeta": "", "v1": "", "_v10": "10",
	} {
		if got := metricVersion(id); got != want {
			t.Errorf("metricVersion(%q) = %q, want %q", id, got, want)
		}
	}
}

// Row keys depend on the run and metric, not on when the row was built,
// so a replayed or re-exported run collapses under ReplacingMergeTree.
func TestRowKeysAreDeterministic(t *testing.T) {
	build := func(at time.Time) [numTables]*batch {
		var bs [numTables]*batch
		for tb := range numTables {
			bs[tb] = newBatch(tb, tableDefs[tb].columns, 0)
		}
		rowBuilder{}.append(&bs, testEvaluation(3), at)
		rowBuilder{}.append(&bs, testEvaluation(4), at)
		return bs
	}
	a, b := build(baseTime), build(baseTime.Add(time.Minute))
	for tb := range numTables {
		last := len(a[tb].columns) - 1
		ka, kb := a[tb].cols[last].u64, b[tb].cols[last].u64
		seen := map[uint64]bool{}
		for i := range ka {
			if ka[i] != kb[i] {
				t.Errorf("%s row %d: key changed with the export time", tb, i)
			}
			if seen[ka[i]] {
				t.Errorf("%s row %d: key collides", tb, i)
			}
			seen[ka[i]] = true
		}
	}
}

func TestRowsWithoutTrajectory(t *testing.T) {
	var bs [numTables]*batch
	for tb := range numTables {
		bs[tb] = newBatch(tb, tableDefs[tb].columns, 0)
	}
	e := &scorer.Evaluation{Results: []scorer.Result{{Metric: "m", Score: 1}}, NotApplicable: []string{"n"}}
	rowBuilder{}.append(&bs, e, time.Unix(0, 0).Add(-time.Hour)) // before 1970: clamped
	want := rowsOf(e)
	for tb := range numTables {
		if err := bs[tb].check(); err != nil || bs[tb].rows != want[tb] {
			t.Errorf("%s: %d rows (want %d), %v", tb, bs[tb].rows, want[tb], err)
		}
	}
	if ts := bs[tEvaluations].cols[0].t[0]; !ts.Equal(minTime) {
		t.Errorf("time %v was not clamped to %v", ts, minTime)
	}
}

// The details column carries the same JSON as the JSON lines record,
// on the fast path and on the sanitising one (NaN, verdicts).
func TestDetailsMatchRecordContract(t *testing.T) {
	e := &scorer.Evaluation{Results: []scorer.Result{
		{Metric: "plain", Details: map[string]any{"n": 2, "ratio": 0.5}},
		{Metric: "nan", Details: map[string]any{"bad": math.NaN(), "ok": 1}},
		{Metric: "rubric", Verdicts: []scorer.Verdict{{Rubric: "polite", Pass: true, Reason: "says please"}}},
		{Metric: "empty"},
	}}
	var bs [numTables]*batch
	for tb := range numTables {
		bs[tb] = newBatch(tb, tableDefs[tb].columns, 0)
	}
	rowBuilder{}.append(&bs, e, baseTime)
	col := -1
	for i, c := range evaluationsDef.columns {
		if c.name == "details" {
			col = i
		}
	}
	recs := record.ScoresAt(e, baseTime)
	for i, got := range bs[tEvaluations].cols[col].str {
		want, err := json.Marshal(recs[i].Details)
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		if err := json.Unmarshal([]byte(got), &g); err != nil {
			t.Fatalf("%s: details %q is not JSON", e.Results[i].Metric, got)
		}
		_ = json.Unmarshal(want, &w)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: details %s, record has %s", e.Results[i].Metric, got, want)
		}
	}
}
