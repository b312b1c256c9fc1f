package otelevents

import (
	"maps"
	"strings"
	"testing"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
	otellog "go.opentelemetry.io/otel/log"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/catalog"
)

// recordAttrs returns a record's attributes as a map.
func recordAttrs(rec otellog.Record) map[string]any {
	out := map[string]any{}
	rec.WalkAttributes(func(kv attribute.KeyValue) bool {
		out[string(kv.Key)] = kv.Value.AsInterface()
		return true
	})
	return out
}

func TestSelectorEvents(t *testing.T) {
	det := catalog.DefaultNames()
	long := strings.Repeat("é", 10) // 20 bytes
	e := &scorer.Evaluation{
		Results: []scorer.Result{
			{Metric: "j1", Score: 1, Explanation: long, Judge: &scorer.JudgeUsage{}},
			{Metric: "j2", Score: 0, Judge: &scorer.JudgeUsage{}},
			{Metric: "latency", Score: 2.5},
		},
		Errors: []scorer.MetricError{{Metric: "j3"}, {Metric: "latency", Reason: "timeout"}},
	}
	cases := []struct {
		name string
		sel  selector
		want []map[string]any
	}{
		{"defaults", selector{errors: true, explainMax: 7, deterministic: det}, []map[string]any{
			{"gen_ai.evaluation.name": "j1", "gen_ai.evaluation.score.value": 1.0, "gen_ai.evaluation.explanation": "ééé"},
			{"gen_ai.evaluation.name": "j2", "gen_ai.evaluation.score.value": 0.0},
			{"gen_ai.evaluation.name": "j3", "error.type": "_OTHER"},
		}},
		{"no explanations, no errors", selector{deterministic: det}, []map[string]any{
			{"gen_ai.evaluation.name": "j1", "gen_ai.evaluation.score.value": 1.0},
			{"gen_ai.evaluation.name": "j2", "gen_ai.evaluation.score.value": 0.0},
		}},
		{"all metrics", selector{allMetrics: true, errors: true, explainMax: 100, deterministic: det}, []map[string]any{
			{"gen_ai.evaluation.name": "j1", "gen_ai.evaluation.score.value": 1.0, "gen_ai.evaluation.explanation": long},
			{"gen_ai.evaluation.name": "j2", "gen_ai.evaluation.score.value": 0.0},
			{"gen_ai.evaluation.name": "latency", "gen_ai.evaluation.score.value": 2.5},
			{"gen_ai.evaluation.name": "j3", "error.type": "_OTHER"},
			{"gen_ai.evaluation.name": "latency", "error.type": "timeout"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			evs := tc.sel.events(e, testNow)
			if len(evs) != len(tc.want) {
				t.Fatalf("%d events, want %d", len(evs), len(tc.want))
			}
			for i, ev := range evs {
				if got := recordAttrs(ev.record); !maps.Equal(got, tc.want[i]) {
					t.Errorf("event %d: %v, want %v", i, got, tc.want[i])
				}
				if ev.record.EventName() != EventName || !ev.record.Timestamp().Equal(testNow) {
					t.Errorf("event %d: name %q at %v", i, ev.record.EventName(), ev.record.Timestamp())
				}
			}
		})
	}
}

func TestTruncateUTF8(t *testing.T) {
	cases := []struct {
		in   string
		max  int
		want string
	}{
		{"hello", 10, "hello"},
		{"hello", 5, "hello"},
		{"hello", 3, "hel"},
		{"hello", 0, ""},
		{"héllo", 2, "h"},
		{"héllo", 3, "hé"},
		{"日本語", 5, "日"},
		{"", 3, ""},
	}
	for _, c := range cases {
		if got := truncateUTF8(c.in, c.max); got != c.want {
			t.Errorf("truncateUTF8(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

func FuzzTruncateUTF8(f *testing.F) {
	f.Add("héllo 日本語", 4)
	f.Add("\xff\xfe", 1)
	f.Fuzz(func(t *testing.T, s string, max int) {
		max = (max%64 + 64) % 64
		got := truncateUTF8(s, max)
		if len(got) > max && len(s) > max || !strings.HasPrefix(s, got) {
			t.Fatalf("truncateUTF8(%q, %d) = %q", s, max, got)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("truncateUTF8(%q, %d) = %q splits a character", s, max, got)
		}
	})
}
