package dashboards

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/session"
)

// seedEvaluation is run i of the seeded data: every panel has rows to
// show (judged and unjudged scores, low scores, failed runs, failing and
// repeated tool calls, ledger decisions of each kind).
func seedEvaluation(i int, at time.Time) *scorer.Evaluation {
	start := at.Add(time.Duration(i) * time.Minute)
	tr := &agentrun.Trajectory{
		TraceID:        fmt.Sprintf("%032x", i+1),
		RootSpanID:     fmt.Sprintf("%016x", i+1),
		Service:        "shop-assistant",
		ServiceVersion: []string{"2.0.0", "2.1.0"}[i%2],
		Agent:          []string{"planner", "checkout"}[i%2],
		Start:          start,
		End:            start.Add(time.Duration(1+i%5) * time.Second),
		Failed:         i%7 == 0,
		ErrorType:      map[bool]string{true: "timeout"}[i%7 == 0],
		ToolCalls: []agentrun.ToolCall{
			{Name: "search", Arguments: `{"q":"shoes"}`, ArgumentsValid: true, Start: start, End: start.Add(200 * time.Millisecond)},
			{Name: "search", Arguments: `{"q":"shoes"}`, ArgumentsValid: true, Start: start.Add(time.Second), End: start.Add(1500 * time.Millisecond),
				Error: map[bool]string{true: "rate limited"}[i%3 == 0]},
			{Name: "cart_add", Arguments: `{"sku":1}`, ArgumentsValid: true, Start: start.Add(2 * time.Second), End: start.Add(2100 * time.Millisecond)},
		},
		LLMCalls: []agentrun.LLMCall{{Model: "m", InputTokens: 300, OutputTokens: 40}},
	}
	// Every other judged score has a cost from the judge's prices; the
	// rest come from a judge without prices.
	usage := &scorer.JudgeUsage{Judge: "primary", Provider: "openai", Model: "judge-small", InputTokens: 800, OutputTokens: 60, Latency: time.Second}
	if i%2 == 0 {
		usage.CostUSD = 0.0005
	}
	return &scorer.Evaluation{
		Trajectory: tr,
		Results: []scorer.Result{
			{Metric: "tool_error_rate", Score: float64(i%3) / 3},
			{Metric: "hallucination_v1", Score: float64(i%10) / 10, Label: "graded", Explanation: fmt.Sprintf("claim %d unsupported", i), Judge: usage},
			{Metric: "pairwise_coherence", Score: 1, Label: "CANDIDATE", Details: map[string]any{"position_consistent": true, "baseline_trace_id": "b"}},
		},
		NotApplicable: []string{"trajectory_exact_match"},
		Errors:        []scorer.MetricError{{Metric: "rouge_l_sum", Reason: "error", Err: errors.New("no reference")}},
		Decisions: []scorer.Decision{
			{Metric: "hallucination_v1", Judge: "primary", Outcome: scorer.OutcomeQueued},
			{Metric: "hallucination_v1", Judge: "primary", Outcome: scorer.OutcomeScored},
			seedSkips[i%len(seedSkips)],
		},
	}
}

// seedSkips are the ledger decisions of a second judge metric, one per
// run in turn.
var seedSkips = []scorer.Decision{
	{Metric: "tool_use_quality_v1", Judge: "primary", Outcome: scorer.OutcomeSampledOut},
	{Metric: "tool_use_quality_v1", Judge: "primary", Outcome: scorer.OutcomeOverBudget, Reason: "tool_use_quality_v1:tokens_per_day"},
	{Metric: "tool_use_quality_v1", Judge: "primary", Outcome: scorer.OutcomeJudgeError, Reason: "rate_limited"},
	{Metric: "tool_use_quality_v1", Judge: "primary", Outcome: scorer.OutcomeQueueFull},
	{Metric: "tool_use_quality_v1", Judge: "primary", Outcome: scorer.OutcomeSampledOut},
	{Metric: "tool_use_quality_v1", Judge: "primary", Outcome: scorer.OutcomeQueued},
}

type chTarget struct {
	RefID  string `json:"refId"`
	RawSQL string `json:"rawSql"`
	Format int    `json:"format"`
	Query  string `json:"queryType"`
	DS     struct {
		Type string `json:"type"`
	} `json:"datasource"`
}

// renderedTargets returns every ClickHouse target of the rendered
// dashboard JSON by panel title: the test runs what Grafana receives.
func renderedTargets(t *testing.T, uid string) map[string]chTarget {
	t.Helper()
	for _, d := range All() {
		if d.UID != uid {
			continue
		}
		b, err := Render(d, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Panels []struct {
				Title   string     `json:"title"`
				Targets []chTarget `json:"targets"`
			} `json:"panels"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		out := map[string]chTarget{}
		for _, p := range doc.Panels {
			for _, tg := range p.Targets {
				if tg.DS.Type == ClickHousePluginID {
					out[p.Title] = tg
				}
			}
		}
		return out
	}
	t.Fatalf("no dashboard %s", uid)
	return nil
}

// grafanaEnv is a dashboard state: time range, interval and variables.
type grafanaEnv struct {
	from, to time.Time
	interval time.Duration
	vars     map[string][]string
}

var (
	macroCall = regexp.MustCompile(`\$__(timeFilter|dateFilter)\(([^)]*)\)`)
	varRef    = regexp.MustCompile(`\$\{([A-Za-z0-9_]+)(?::([a-z]+))?\}`)
)

// expand applies Grafana's variable interpolation and then the
// ClickHouse plugin's macros, as they are expanded for a panel query
// (plugin v4: $__timeFilter(c) → c >= toDateTime(from) AND c <=
// toDateTime(to); $__fromTime/$__toTime → toDateTime(…); $__interval_s →
// the interval in seconds).
func (g grafanaEnv) expand(t *testing.T, sql string) string {
	t.Helper()
	sql = varRef.ReplaceAllStringFunc(sql, func(m string) string {
		parts := varRef.FindStringSubmatch(m)
		vals, ok := g.vars[parts[1]]
		if !ok {
			t.Fatalf("query uses unknown variable %s", m)
		}
		switch parts[2] {
		case "":
			return strings.Join(vals, ",")
		case "singlequote":
			q := make([]string, len(vals))
			for i, v := range vals {
				q[i] = "'" + strings.ReplaceAll(v, "'", `\'`) + "'"
			}
			return strings.Join(q, ",")
		}
		t.Fatalf("unsupported variable format %s", m)
		return ""
	})
	from, to := g.from.Unix(), g.to.Unix()
	sql = macroCall.ReplaceAllStringFunc(sql, func(m string) string {
		p := macroCall.FindStringSubmatch(m)
		col := strings.TrimSpace(p[2])
		if p[1] == "dateFilter" {
			return fmt.Sprintf("%s >= toDate(%d) AND %s <= toDate(%d)", col, from, col, to)
		}
		return fmt.Sprintf("%s >= toDateTime(%d) AND %s <= toDateTime(%d)", col, from, col, to)
	})
	sql = strings.NewReplacer(
		"$__fromTime", fmt.Sprintf("toDateTime(%d)", from),
		"$__toTime", fmt.Sprintf("toDateTime(%d)", to),
		"$__interval_s", strconv.FormatInt(int64(g.interval/time.Second), 10),
	).Replace(sql)
	if strings.Contains(sql, "$") {
		t.Fatalf("unexpanded macro or variable left in:\n%s", sql)
	}
	return sql
}

func clickhouseDSN(t *testing.T) string {
	dsn := os.Getenv("EVALSIDECAR_CLICKHOUSE_DSN")
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("EVALSIDECAR_CLICKHOUSE_DSN is not set (scripts/test starts ClickHouse)")
		}
		t.Skip("EVALSIDECAR_CLICKHOUSE_DSN not set")
	}
	return dsn
}

// seed writes n runs through the real exporter into a fresh database and
// returns a connection and the database name.
func seed(t *testing.T, n int, at time.Time) (driver.Conn, string) {
	// The runs are the turns of four sessions, scored once closed.
	var evs []*scorer.Evaluation
	sessions := make([]*agentrun.Session, 4)
	for i := range n {
		ev := seedEvaluation(i, at)
		tr := ev.Trajectory
		tr.SessionID = fmt.Sprintf("s%d", i%len(sessions))
		evs = append(evs, ev)
		s := sessions[i%len(sessions)]
		if s == nil {
			s = &agentrun.Session{ID: tr.SessionID, Service: tr.Service, ServiceVersion: tr.ServiceVersion, Agent: tr.Agent}
			sessions[i%len(sessions)] = s
		}
		s.Turns = append(s.Turns, agentrun.TurnOf(tr))
		// a person grades every third run's hallucination_v1
		if i%3 == 0 {
			fb := scorer.Feedback{Time: tr.Start.Add(time.Hour), TraceID: tr.TraceID, Metric: "hallucination_v1", Label: []string{"graded", "wrong"}[i%2]}
			evs = append(evs, &scorer.Evaluation{Feedback: []scorer.Feedback{fb}})
		}
	}
	for _, s := range sessions {
		evs = append(evs, session.Evaluate(s))
	}
	return seedDB(t, nil, evs)
}

// TestAnalystPanelsRunOnClickHouse executes every panel query of the
// analyst dashboards, as Grafana would send it, against the real server
// over seeded data, and checks the result's shape.
func TestAnalystPanelsRunOnClickHouse(t *testing.T) {
	at := time.Now().UTC().Add(-2 * time.Hour).Truncate(time.Minute)
	const n = 60
	conn, db := seed(t, n, at)
	env := grafanaEnv{
		from: at.Add(-time.Hour), to: time.Now().UTC().Add(time.Hour), interval: 5 * time.Minute,
		vars: map[string][]string{
			"database": {db}, "service": {"shop-assistant"}, "agent": {"planner", "checkout"},
			"metric": {"hallucination_v1"}, "tool": {"search", "cart_add"}, "release": {"2.0.0", "2.1.0"},
			"trace_id": {fmt.Sprintf("%032x", 2)},
			"worst_n":  {"3"}, "usd_per_1k_input": {"0.0025"}, "usd_per_1k_output": {"0.01"},
			"worst_sessions": {"3"}, "session_id": {"s1"},
		},
	}
	for _, a := range analystSpecs() {
		targets := renderedTargets(t, a.uid)
		panels := a.panels(DefaultOptions())
		if len(targets) != len(panels) {
			t.Errorf("%s: %d ClickHouse targets in the JSON, %d panels defined", a.uid, len(targets), len(panels))
		}
		for _, p := range panels {
			t.Run(a.uid+"/"+p.title, func(t *testing.T) {
				tg, ok := targets[p.title]
				if !ok {
					t.Fatalf("panel %q has no ClickHouse target in the JSON", p.title)
				}
				wantFormat := int(FormatTable)
				if p.kind == kindTimeSeries {
					wantFormat = int(FormatTimeSeries)
				}
				if tg.Format != wantFormat || tg.RefID == "" {
					t.Errorf("target format %d refId %q, want format %d", tg.Format, tg.RefID, wantFormat)
				}
				sql := env.expand(t, tg.RawSQL)
				rows, err := conn.Query(context.Background(), sql)
				if err != nil {
					t.Fatalf("%v\n%s", err, sql)
				}
				defer rows.Close()
				var names []string
				types := rows.ColumnTypes()
				for _, c := range types {
					names = append(names, c.Name())
				}
				if strings.Join(names, ",") != strings.Join(p.columns, ",") {
					t.Errorf("columns %v, want %v", names, p.columns)
				}
				if p.kind == kindTimeSeries && len(types) > 0 && !strings.HasPrefix(types[0].DatabaseTypeName(), "DateTime") {
					t.Errorf("first column is %s, a time series needs a DateTime", types[0].DatabaseTypeName())
				}
				count := 0
				for rows.Next() {
					count++
				}
				if err := rows.Err(); err != nil {
					t.Fatal(err)
				}
				if count == 0 {
					t.Errorf("no rows over the seeded data\n%s", sql)
				}
			})
		}
	}
	t.Run("why runs were not judged", func(t *testing.T) {
		tg := renderedTargets(t, "evalsidecar-judge-cost")["Why runs were not judged"]
		rows, err := conn.Query(context.Background(), env.expand(t, tg.RawSQL))
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		got := map[string]uint64{}
		for rows.Next() {
			var (
				decision, reason, metrics string
				decisions, runs           uint64
			)
			if err := rows.Scan(&decision, &reason, &decisions, &runs, &metrics); err != nil {
				t.Fatal(err)
			}
			if metrics != "tool_use_quality_v1" {
				t.Errorf("%s %q lists metrics %q, want the judge metric only", decision, reason, metrics)
			}
			got[decision+" "+reason] = decisions
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		// n runs take the six seedSkips in turn: 10 each.
		want := map[string]uint64{
			"sampled_out ": 20, "over_budget tool_use_quality_v1:tokens_per_day": 10,
			"judge_error rate_limited": 10, "queue_full ": 10,
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("decisions by decision and reason = %v, want %v (no scored, queued or deterministic rows)", got, want)
		}
	})
	t.Run("recorded judge cost wins over token prices", func(t *testing.T) {
		tg := renderedTargets(t, "evalsidecar-judge-cost")["Estimated cost"]
		var cost float64
		if err := conn.QueryRow(context.Background(), env.expand(t, tg.RawSQL)).Scan(&cost); err != nil {
			t.Fatal(err)
		}
		// 30 priced scores at $0.0005, 30 unpriced at 800 input and 60
		// output tokens: 0.8 * 0.0025 + 0.06 * 0.01 = $0.0026 each.
		if want := 30*0.0005 + 30*0.0026; math.Abs(cost-want) > 1e-9 {
			t.Errorf("estimated cost = %v, want %v", cost, want)
		}
	})
	t.Run("worst runs are the lowest scores", func(t *testing.T) {
		tg := renderedTargets(t, "evalsidecar-runs")["Worst runs"]
		rows, err := conn.Query(context.Background(), env.expand(t, tg.RawSQL))
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var worst []float64
		for rows.Next() {
			var (
				label, agent, version, trace, expl, judge string
				score                                     float64
				passed                                    *uint8
				ts                                        time.Time
			)
			if err := rows.Scan(&score, &passed, &label, &agent, &version, &trace, &expl, &judge, &ts); err != nil {
				t.Fatal(err)
			}
			worst = append(worst, score)
		}
		if fmt.Sprint(worst) != "[0 0 0]" {
			t.Errorf("worst hallucination_v1 scores = %v, want three zeros", worst)
		}
	})
}

func TestTraceLinkUsesTemplate(t *testing.T) {
	o := Options{TraceURLTemplate: "https://tempo.example/trace/${trace_id}?org=1"}
	b, err := Render(Dashboard{UID: "x", Build: runsDashboard().build}, o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"url": "https://tempo.example/trace/${__value.raw}?org=1"`) {
		t.Errorf("trace link not rendered from the template:\n%s", b)
	}
}

func TestCHQueryBuilderErrors(t *testing.T) {
	// An empty query must surface as a dashboard build error, not a panic
	// in the panel builder.
	d := analystDashboard{uid: "bad", title: "bad", panels: func(Options) []chPanel {
		return []chPanel{{title: "empty", kind: kindTable}}
	}}
	_, err := d.build(DefaultOptions()).Build()
	if err == nil || !strings.Contains(err.Error(), "rawSql is empty") {
		t.Errorf("err = %v, want rawSql is empty", err)
	}
	a := CHQuery{RefID: "A", RawSQL: "SELECT 1", Datasource: &chDatasourceCopy}
	b := CHQuery{RefID: "A", RawSQL: "SELECT 1", Datasource: &chDatasourceCopy2}
	if !a.Equals(b) {
		t.Error("queries with equal datasources by value are not Equal")
	}
	b.RawSQL = "SELECT 2"
	if a.Equals(b) {
		t.Error("different SQL compares Equal")
	}
}

var chDatasourceCopy, chDatasourceCopy2 = chDatasource(), chDatasource()
