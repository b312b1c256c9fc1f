package offline

import (
	"reflect"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/aggregate"
)

func TestSelectMetrics(t *testing.T) {
	withRouge := config.Default()
	withRouge.Scorer.Metrics = []scorer.MetricConfig{{Name: "my_rouge", Type: "rouge", Params: map[string]any{"rouge_type": "rougeL"}}}
	tests := []struct {
		name     string
		o        Options
		criteria []aggregate.Criterion
		params   map[string]map[string]any
		want     []string // metric names, in order
		wantCrit int
		errPart  string
	}{
		{name: "ids then criteria, each once", o: Options{Metrics: []string{"bleu", "", "exact_match"}},
			criteria: []aggregate.Criterion{{Metric: "exact_match"}, {Metric: "rouge_l"}}, want: []string{"bleu", "exact_match", "rouge_l"}, wantCrit: 2},
		{name: "eval set defaults to ADK's criteria", o: Options{EvalSet: "x.evalset.json"},
			want: []string{"tool_trajectory_avg_score", "response_match_score"}, wantCrit: 2},
		{name: "config metrics when only a config is given", o: Options{Config: withRouge, ConfigGiven: true}, want: []string{"my_rouge"}},
		{name: "nothing to run", o: Options{Config: config.Default()}, errPart: "no metrics"},
		{name: "id given twice", o: Options{Metrics: []string{"bleu", "bleu"}}, errPart: `"bleu" given twice`},
		{name: "criterion params on a configured metric", o: Options{Config: withRouge, Metrics: []string{"my_rouge"}},
			params: map[string]map[string]any{"my_rouge": {"use_stemmer": true}}, errPart: "defines that metric already"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, crit, err := selectMetrics(tt.o, tt.criteria, tt.params)
			if tt.errPart != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errPart) {
					t.Fatalf("error %v, want one containing %q", err, tt.errPart)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, m := range got {
				names = append(names, m.Name)
			}
			if !reflect.DeepEqual(names, tt.want) {
				t.Errorf("metrics %v, want %v", names, tt.want)
			}
			if len(crit) != tt.wantCrit {
				t.Errorf("%d criteria, want %d", len(crit), tt.wantCrit)
			}
		})
	}
}
