package aggregate

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// vector is a shared test vector.
type vector struct {
	Metric string `json:"metric"`
	Input  struct {
		Scores []float64 `json:"scores"`
	} `json:"input"`
	Expected  *float64 `json:"expected"`
	Tolerance float64  `json:"tolerance"`
	Note      string   `json:"note"`
}

func TestVertexSummaryStdVectors(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "metric_vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range vs {
		if v.Metric != "vertex_summary_std" {
			continue
		}
		n++
		got, ok := Std(v.Input.Scores)
		switch {
		case v.Expected == nil && ok:
			t.Errorf("%v: std %v, want none (NaN in Vertex)", v.Input.Scores, got)
		case v.Expected != nil && (!ok || math.Abs(got-*v.Expected) > v.Tolerance):
			t.Errorf("%v: std %v (ok %v), want %v", v.Input.Scores, got, ok, *v.Expected)
		}
	}
	if n == 0 {
		t.Fatal("no vertex_summary_std vectors")
	}
}

func ev(results map[string]float64, na ...string) *scorer.Evaluation {
	e := &scorer.Evaluation{NotApplicable: na}
	for _, name := range []string{"a", "b"} {
		if v, ok := results[name]; ok {
			e.Results = append(e.Results, scorer.Result{Metric: name, Score: v})
		}
	}
	return e
}

func TestSummarizeAndCriteria(t *testing.T) {
	evals := []*scorer.Evaluation{
		ev(map[string]float64{"a": 1, "b": 0.9}),
		ev(map[string]float64{"a": 0}, "b"),
		ev(map[string]float64{"a": 0.5, "b": 0.8}),
	}
	s := Summarize([]string{"a", "b"}, evals, []Criterion{{"a", 0.5}, {"b", 0.8}})
	if s.RowCount != 3 || s.Metrics[0].Mean != 0.5 || s.Metrics[0].Std != 0.5 || s.Metrics[1].Scored != 2 || s.Metrics[1].NotApplicable != 1 {
		t.Fatalf("%+v", s)
	}
	if s.Criteria[0].Passed || len(s.Criteria[0].FailedRows) != 1 || s.Criteria[0].FailedRows[0] != 1 {
		t.Errorf("criterion a: %+v", s.Criteria[0])
	}
	if s.Criteria[1].Passed || s.Criteria[1].FailedRows[0] != 1 {
		t.Errorf("a not-applicable row must fail criterion b: %+v", s.Criteria[1])
	}
	if s.Passed() {
		t.Error("summary passed with failing criteria")
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"row_count":3,"a/mean":0.5,"a/std":0.5,"a/scored":3,"a/not_applicable":0,"a/errors":0,"b/mean":0.8500000000000001,"b/std":0.07071067811865474,"b/scored":2,"b/not_applicable":1,"b/errors":0,"criteria":{"a":{"threshold":0.5,"passed":false,"failed_rows":[1]},"b":{"threshold":0.8,"passed":false,"failed_rows":[1]}},"passed":false}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}

	one := Summarize([]string{"a"}, evals[:1], []Criterion{{"a", 1}})
	b, _ = json.Marshal(one)
	if string(b) != `{"row_count":1,"a/mean":1,"a/scored":1,"a/not_applicable":0,"a/errors":0,"criteria":{"a":{"threshold":1,"passed":true,"failed_rows":[]}},"passed":true}` {
		t.Errorf("one row: %s", b)
	}
}
