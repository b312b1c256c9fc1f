package dataset

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
)

// A CSV written by pandas (DataFrame.to_csv) holds list and dict cells as
// Python literals: they read as the JSON values they were.
func TestPandasCSV(t *testing.T) {
	rows, err := Load(filepath.Join("testdata", "pandas.csv"), FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	in := rows[0].Instance
	if len(in.PredictedTrajectory) != 1 || in.PredictedTrajectory[0].Name != "get_weather" {
		t.Fatalf("trajectory %+v", in.PredictedTrajectory)
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(in.PredictedTrajectory[0].Arguments), &args); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"city": "Paris", "days": 2.0, "metric": true, "note": "it's", "x": nil}
	if !reflect.DeepEqual(args, want) {
		t.Errorf("arguments %v, want %v", args, want)
	}
	if !reflect.DeepEqual(in.ReferenceTopics, []string{"weather", "travel"}) {
		t.Errorf("topics %v", in.ReferenceTopics)
	}
	if len(rows[1].Instance.PredictedTrajectory) != 0 {
		t.Errorf("empty list: %+v", rows[1].Instance.PredictedTrajectory)
	}
}

func TestPyLiteral(t *testing.T) {
	for in, want := range map[string]string{
		`[1, 2.5, -3e-05, True, False, None, nan]`: `[1,2.5,-0.00003,true,false,null,null]`,
		`{'a': 'it\'s', "b": 'x\ny', 'c': (1, 2)}`: `{"a":"it's","b":"x\ny","c":[1,2]}`,
		`{'u': '\xe9\u00e9'}`:                      `{"u":"éé"}`,
		`[[], {}, [1,]]`:                           `[[],{},[1]]`,
	} {
		got, err := pyLiteral(in)
		if err != nil || string(got) != want {
			t.Errorf("pyLiteral(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{`[1, 2`, `{1: 2}`, `[foo]`, `['a' 'b']`, `"open`} {
		if _, err := pyLiteral(bad); err == nil {
			t.Errorf("pyLiteral(%s): no error", bad)
		}
	}
}

// A bad row is reported with its row and line; the rows around it read.
func TestParseRowsGoesOn(t *testing.T) {
	data := "{\"prompt\": \"a\", \"response\": \"x\"}\n{\"prompt\": \n{\"prompt\": \"c\", \"latency_in_seconds\": -1}\n{\"prompt\": \"d\"}\n"
	rows, bad, err := ParseRows([]byte(data), FormatJSONL)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Index != 0 || rows[1].Index != 3 {
		t.Fatalf("rows %+v", rows)
	}
	if len(bad) != 2 || bad[0].Row != 1 || bad[0].Line != 2 || bad[1].Row != 2 || bad[1].Line != 3 || bad[1].Column != ColLatency {
		t.Fatalf("bad %v", bad)
	}
}
