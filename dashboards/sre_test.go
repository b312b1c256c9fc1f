package dashboards

import (
	"regexp"
	"strings"
	"testing"
)

var recordingRef = regexp.MustCompile(`[a-z_]+:[a-z0-9_]+:[a-z0-9_]+`)

// TestSREQueriesUseExistingRecordings checks that every recording rule the
// SRE dashboard reads is defined by the committed rules, that every query
// filters by the dashboard's variables or reads a sidecar-wide series, and
// that the exemplar panels ask for exemplars.
func TestSREQueriesUseExistingRecordings(t *testing.T) {
	f, err := SRERules(DefaultRuleParams())
	if err != nil {
		t.Fatal(err)
	}
	records := map[string]bool{}
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			if r.Record != "" {
				records[r.Record] = true
			}
		}
	}
	qs, err := PromQueries(Dashboard{UID: SREUID, Build: SRE}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 20 {
		t.Fatalf("%d queries, want the SRE panels", len(qs))
	}
	exemplars := 0
	for _, q := range qs {
		for _, name := range recordingRef.FindAllString(q.Expr, -1) {
			if !records[name] {
				t.Errorf("panel %q reads %s, which no rule records", q.Panel, name)
			}
		}
		if !strings.Contains(q.Expr, `$service`) && !strings.Contains(q.Expr, `$instance`) {
			t.Errorf("panel %q ignores the service and instance variables: %s", q.Panel, q.Expr)
		}
		if q.Exemplar {
			exemplars++
		}
	}
	if exemplars == 0 {
		t.Error("no target asks for exemplars")
	}
}

func TestSREDatasourceVariable(t *testing.T) {
	b, err := Render(Dashboard{UID: SREUID, Build: SRE}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{`"type": "datasource"`, `"query": "prometheus"`, `"uid": "${datasource}"`, `${__data.fields.trace_id}`} {
		if !strings.Contains(s, want) {
			t.Errorf("SRE dashboard JSON lacks %s", want)
		}
	}
}
