package dashboards

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/evalsidecar/evalsidecar/agentrun"
	chexp "github.com/evalsidecar/evalsidecar/exporter/clickhouse"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/catalog"
)

// answerRun is one run of the answers dataset, as the test knows it.
type answerRun struct {
	id, release, agent string
	start              time.Time
	latency            float64 // seconds
	failed             bool
	calls              []answerCall
	hallucination      float64 // a judge's 0–1 score
	coherence          float64 // a judge's 1–5 rating
}

type answerCall struct{ tool, args, result, err string }

// The special run: the only one with two failing tool calls out of two.
const worstToolRun = 50

// answerRuns is the dataset: releases 1.0 (runs 0–39) and 2.0 (runs 40–79,
// after every 1.0 run), one run a minute from at. update_budget fails in
// 2 of 40 runs (5 %) in 1.0 and 16 of 40 (40 %) in 2.0; search fails in
// one run in ten, and in the special run.
func answerRuns(at time.Time) []answerRun {
	var runs []answerRun
	for i := range 80 {
		k, release := i, "1.0"
		if i >= 40 {
			k, release = i-40, "2.0"
		}
		r := answerRun{
			id: fmt.Sprintf("%032x", i+1), release: release, agent: []string{"planner", "checkout"}[i%2],
			start:   at.Add(time.Duration(i) * time.Minute),
			latency: float64(1 + k%7),
			failed:  k%8 == 0,
		}
		budgetErr := k == 3 || k == 23
		if release == "2.0" {
			r.latency += 2
			r.failed = k%4 == 0
			budgetErr = k%5 == 0 || k%5 == 3
		}
		searchErr := k%10 == 7 || i == worstToolRun
		r.calls = []answerCall{
			{tool: "search", args: fmt.Sprintf(`{"q":"budget %d"}`, k), result: "3 hits"},
			{tool: "update_budget", args: fmt.Sprintf(`{"amount":%d}`, 100+k), result: "ok"},
		}
		if searchErr {
			r.calls[0].result, r.calls[0].err = "", "search backend timeout"
		}
		if budgetErr {
			r.calls[1].result, r.calls[1].err = "", "budget locked"
		}
		r.hallucination = float64(k%10) / 10
		r.coherence = float64(1 + k%5)
		if release == "2.0" {
			r.hallucination = float64(k%5) / 10
		}
		runs = append(runs, r)
	}
	return runs
}

// trajectory is the run as the sidecar receives it.
func (r answerRun) trajectory() *agentrun.Trajectory {
	tr := &agentrun.Trajectory{
		TraceID: r.id, RootSpanID: r.id[16:], Service: "budget-bot", ServiceVersion: r.release, Agent: r.agent,
		Start: r.start, End: r.start.Add(time.Duration(r.latency * float64(time.Second))),
		Input: "raise the budget", Output: "done", Failed: r.failed,
		Attributes: map[string]string{
			"hallucination": strconv.FormatFloat(r.hallucination, 'g', -1, 64),
			"coherence":     strconv.FormatFloat(r.coherence, 'g', -1, 64),
		},
	}
	if r.failed {
		tr.ErrorType = "budget_error"
	}
	for j, c := range r.calls {
		s := r.start.Add(time.Duration(j) * 100 * time.Millisecond)
		tr.ToolCalls = append(tr.ToolCalls, agentrun.ToolCall{Name: c.tool, Arguments: c.args, ArgumentsValid: true,
			Result: c.result, Error: c.err, Start: s, End: s.Add(50 * time.Millisecond)})
	}
	return tr
}

// attrScore stands in for a judge metric: it reports the score the
// dataset gave the run.
type attrScore struct{ name, key string }

func (m attrScore) Name() string         { return m.name }
func (m attrScore) Needs() scorer.Inputs { return 0 }
func (m attrScore) Score(_ context.Context, in *scorer.Instance) (scorer.Result, error) {
	v, err := strconv.ParseFloat(in.Trajectory.Attributes[m.key], 64)
	return scorer.Result{Score: v}, err
}

// seedAnswers scores every run with the real engine (latency, failure,
// tool_error_rate from the catalog; a judge ratio and a 1–5 rating with
// the pass rules a user would configure) and writes them through the
// real exporter, metrics table included.
func seedAnswers(t *testing.T, runs []answerRun) (driver.Conn, string) {
	t.Helper()
	clickhouseDSN(t) // skips before building anything without a server
	reg := catalog.NewRegistry()
	if err := reg.RegisterAll(
		scorer.Entry{Name: "hallucination_v1", New: scorer.NoParams(attrScore{"hallucination_v1", "hallucination"}),
			Semantics: scorer.Ratio(scorer.HigherIsBetter, "share of supported claims")},
		scorer.Entry{Name: "coherence", New: scorer.NoParams(attrScore{"coherence", "coherence"}),
			Semantics: scorer.Rating(scorer.HigherIsBetter, 1, 5, "the judge's rating")},
	); err != nil {
		t.Fatal(err)
	}
	ms, err := reg.Build([]scorer.MetricConfig{
		{Name: "latency"}, {Name: "failure"}, {Name: "tool_error_rate"},
		{Name: "hallucination_v1", SemanticsConfig: scorer.SemanticsConfig{Pass: &scorer.PassRule{Threshold: 0.7, Op: ">="}}},
		{Name: "coherence", SemanticsConfig: scorer.SemanticsConfig{Pass: &scorer.PassRule{Threshold: 4, Op: ">="}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	engine, err := scorer.NewEngine(scorer.DefaultConfig(), telemetry.Settings{}, ms, nil, scorer.EngineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	evs := make([]*scorer.Evaluation, 0, len(runs))
	for _, r := range runs {
		ev := engine.Evaluate(ctx, scorer.FromTrajectory(r.trajectory()))
		if len(ev.Errors) > 0 || len(ev.Results) != len(ms) {
			t.Fatalf("run %s: results %d, errors %v", r.id, len(ev.Results), ev.Errors)
		}
		evs = append(evs, ev)
	}
	return seedDB(t, ms, evs)
}

// seedDB writes evs through the real exporter, told the metrics ms, into
// a fresh database and returns a connection and the database name.
func seedDB(t *testing.T, ms []scorer.Metric, evs []*scorer.Evaluation) (driver.Conn, string) {
	t.Helper()
	dsn := clickhouseDSN(t)
	var id [4]byte
	_, _ = rand.Read(id[:])
	db := "t_answers_" + hex.EncodeToString(id[:])
	cfg := chexp.DefaultConfig()
	cfg.Enabled, cfg.Endpoint, cfg.Database = true, dsn, db
	cfg.Spool.Directory = ""
	cfg.FlushInterval = 50 * time.Millisecond
	x, err := chexp.New(cfg, telemetry.Settings{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	x.DescribeMetrics(ms)
	ctx := context.Background()
	if err := x.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if err := x.Export(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	sctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := x.Shutdown(sctx); err != nil {
		t.Fatal(err)
	}
	opts, err := ch.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	opts.Settings = ch.Settings{"allow_experimental_low_cardinality_type": 1}
	conn, err := ch.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+db)
		_ = conn.Close()
	})
	return conn, db
}

// score is metric m's score of run r, computed from the dataset, and its
// pass verdict by the documented rule (nil without one).
func (r answerRun) score(m string) (float64, *bool) {
	verdict := func(b bool) *bool { return &b }
	switch m {
	case "latency":
		return r.latency, nil
	case "failure":
		if r.failed {
			return 1, verdict(false)
		}
		return 0, verdict(true)
	case "tool_error_rate":
		errs := 0
		for _, c := range r.calls {
			if c.err != "" {
				errs++
			}
		}
		return float64(errs) / float64(len(r.calls)), verdict(errs == 0)
	case "hallucination_v1":
		return r.hallucination, verdict(r.hallucination >= 0.7)
	case "coherence":
		return r.coherence, verdict(r.coherence >= 4)
	}
	panic("no metric " + m)
}

// queryRows runs a panel's SQL and returns its rows as Go values (NULL as nil).
func queryRows(t *testing.T, conn driver.Conn, sql string) [][]any {
	t.Helper()
	rows, err := conn.Query(context.Background(), sql)
	if err != nil {
		t.Fatalf("%v\n%s", err, sql)
	}
	defer rows.Close()
	var out [][]any
	for rows.Next() {
		types := rows.ColumnTypes()
		ptrs := make([]any, len(types))
		for i, ct := range types {
			ptrs[i] = reflect.New(ct.ScanType()).Interface()
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]any, len(ptrs))
		for i, p := range ptrs {
			v := reflect.ValueOf(p).Elem()
			for v.Kind() == reflect.Pointer {
				if v.IsNil() {
					break
				}
				v = v.Elem()
			}
			if v.Kind() == reflect.Pointer {
				row[i] = nil
			} else {
				row[i] = v.Interface()
			}
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// num reads a numeric cell; nil stays NaN.
func num(v any) float64 {
	switch x := v.(type) {
	case nil:
		return math.NaN()
	case float64:
		return x
	case uint64:
		return float64(x)
	case uint32:
		return float64(x)
	case uint8:
		return float64(x)
	case int64:
		return float64(x)
	}
	panic(fmt.Sprintf("not a number: %T %v", v, v))
}

func near(got, want float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return math.Abs(got-want) < 1e-9
}

// TestAnalystPanelAnswers seeds the real ClickHouse with a known dataset
// and checks the number or row order each analyst panel shows, computed
// here from the dataset. The time range covers the runs' starts but ends
// before they were scored: panels must place runs by their start.
func TestAnalystPanelAnswers(t *testing.T) {
	at := time.Now().UTC().Add(-4 * time.Hour).Truncate(time.Minute)
	runs := answerRuns(at)
	conn, db := seedAnswers(t, runs)
	env := func(metric string, traceID string) grafanaEnv {
		return grafanaEnv{
			from: at.Add(-10 * time.Minute), to: at.Add(90 * time.Minute), interval: 10 * time.Minute,
			vars: map[string][]string{
				"database": {db}, "service": {"budget-bot"}, "agent": {"planner", "checkout"},
				"release": {"1.0", "2.0"}, "metric": {metric}, "tool": {"search", "update_budget"},
				"worst_n": {"5"}, "trace_id": {traceID},
			},
		}
	}
	panel := func(t *testing.T, uid, title, metric, traceID string) [][]any {
		t.Helper()
		tg, ok := renderedTargets(t, uid)[title]
		if !ok {
			t.Fatalf("%s has no panel %q", uid, title)
		}
		e := env(metric, traceID)
		return queryRows(t, conn, e.expand(t, tg.RawSQL))
	}
	single := func(t *testing.T, uid, title, metric string) float64 {
		t.Helper()
		rows := panel(t, uid, title, metric, "")
		if len(rows) != 1 || len(rows[0]) != 1 {
			t.Fatalf("%s: %v, want one value", title, rows)
		}
		return num(rows[0][0])
	}
	metrics := []string{"latency", "failure", "tool_error_rate", "hallucination_v1", "coherence"}
	// mean and pass rate of a metric over runs; NaN pass rate without a rule.
	stats := func(m string, rs []answerRun) (mean, passRate float64) {
		var sum, passed, ruled float64
		for _, r := range rs {
			s, v := r.score(m)
			sum += s
			if v != nil {
				ruled++
				if *v {
					passed++
				}
			}
		}
		passRate = math.NaN()
		if ruled > 0 {
			passRate = passed / ruled
		}
		return sum / float64(len(rs)), passRate
	}
	byRelease := map[string][]answerRun{}
	for _, r := range runs {
		byRelease[r.release] = append(byRelease[r.release], r)
	}

	t.Run("quality stats", func(t *testing.T) {
		const q = "evalsidecar-agent-quality"
		if got := single(t, q, "Runs", "failure"); got != float64(len(runs)) {
			t.Errorf("Runs = %v, want %d", got, len(runs))
		}
		failed := 0
		for _, r := range runs {
			if r.failed {
				failed++
			}
		}
		if got, want := single(t, q, "Failed runs", "failure"), float64(failed)/float64(len(runs)); !near(got, want) {
			t.Errorf("Failed runs = %v, want %v", got, want)
		}
		for _, m := range metrics {
			mean, pass := stats(m, runs)
			if got := single(t, q, "Mean ${metric}", m); !near(got, mean) {
				t.Errorf("Mean %s = %v, want %v", m, got, mean)
			}
			if got := single(t, q, "Pass rate of ${metric}", m); !near(got, pass) {
				t.Errorf("Pass rate of %s = %v, want %v", m, got, pass)
			}
		}
		// The pass rate of failure is the share of runs that did not fail.
		if got := single(t, q, "Pass rate of ${metric}", "failure"); !near(got, 1-float64(failed)/float64(len(runs))) {
			t.Errorf("pass rate of failure %v is not the share of runs that did not fail", got)
		}
	})

	t.Run("release comparison", func(t *testing.T) {
		rows := panel(t, "evalsidecar-agent-quality", "Release comparison", "failure", "")
		got := map[string][]any{}
		for _, r := range rows {
			got[r[0].(string)+"@"+r[1].(string)] = r
		}
		if len(got) != len(metrics)*2 {
			t.Fatalf("%d rows, want %d: %v", len(rows), len(metrics)*2, rows)
		}
		for _, m := range metrics {
			m1, p1 := stats(m, byRelease["1.0"])
			m2, p2 := stats(m, byRelease["2.0"])
			first, second := got[m+"@1.0"], got[m+"@2.0"]
			want1 := []float64{40, m1, p1, 0, math.NaN(), math.NaN()}
			want2 := []float64{40, m2, p2, 40, m2 - m1, p2 - p1}
			for i, w := range want1 {
				if g := num(first[2+boolIndex(i >= 3)+i]); !near(g, w) {
					t.Errorf("%s 1.0 column %d = %v, want %v (%v)", m, i, g, w, first)
				}
			}
			for i, w := range want2 {
				if g := num(second[2+boolIndex(i >= 3)+i]); !near(g, w) {
					t.Errorf("%s 2.0 column %d = %v, want %v (%v)", m, i, g, w, second)
				}
			}
			if first[5] != "" || second[5] != "1.0" {
				t.Errorf("%s: previous releases %q, %q, want none and 1.0", m, first[5], second[5])
			}
		}
	})

	t.Run("tool error rate by release", func(t *testing.T) {
		rows := panel(t, "evalsidecar-tools", "Tool error rate by release", "failure", "")
		want := map[string][]float64{}
		for _, tool := range []string{"search", "update_budget"} {
			rate := map[string]float64{}
			for rel, rs := range byRelease {
				errs := 0
				for _, r := range rs {
					for _, c := range r.calls {
						if c.tool == tool && c.err != "" {
							errs++
						}
					}
				}
				rate[rel] = float64(errs) / float64(len(rs))
			}
			want[tool+"@1.0"] = []float64{40, rate["1.0"], 0, math.NaN()}
			want[tool+"@2.0"] = []float64{40, rate["2.0"], 40, rate["2.0"] - rate["1.0"]}
		}
		if len(rows) != len(want) {
			t.Fatalf("rows %v, want %d", rows, len(want))
		}
		for _, r := range rows {
			key := r[0].(string) + "@" + r[1].(string)
			w := want[key]
			got := []float64{num(r[2]), num(r[3]), num(r[5]), num(r[6])}
			for i := range w {
				if !near(got[i], w[i]) {
					t.Errorf("%s: calls, error rate, previous calls, change = %v, want %v", key, got, w)
					break
				}
			}
		}
		// The question the panel answers: update_budget rose from 5 % to 40 %.
		if w := want["update_budget@2.0"]; !near(w[1], 0.40) || !near(want["update_budget@1.0"][1], 0.05) {
			t.Errorf("dataset: update_budget error rates %v → %v", want["update_budget@1.0"][1], w[1])
		}
	})

	t.Run("time series by release", func(t *testing.T) {
		// Buckets of the interval (10 minutes) on the epoch, by run start.
		type key struct {
			bucket  int64
			release string
		}
		sum, pass, n := map[key]float64{}, map[key]float64{}, map[key]float64{}
		for _, r := range runs {
			k := key{r.start.Unix() / 600 * 600, r.release}
			s, v := r.score("coherence")
			sum[k] += s
			n[k]++
			if *v {
				pass[k]++
			}
		}
		for title, want := range map[string]map[key]float64{"${metric} by release": sum, "Pass rate of ${metric} by release": pass} {
			rows := panel(t, "evalsidecar-agent-quality", title, "coherence", "")
			if len(rows) != len(n) {
				t.Errorf("%s: %d points, want %d", title, len(rows), len(n))
			}
			for _, row := range rows {
				k := key{row[0].(time.Time).Unix(), row[1].(string)}
				if w := want[k] / n[k]; !near(num(row[2]), w) {
					t.Errorf("%s at %v %s = %v, want %v", title, row[0], k.release, row[2], w)
				}
			}
		}
	})

	t.Run("tool tables", func(t *testing.T) {
		type tally struct{ calls, errs int }
		byToolAgent, byError := map[string]*tally{}, map[string]int{}
		for _, r := range runs {
			for _, c := range r.calls {
				k := c.tool + "/" + r.agent
				if byToolAgent[k] == nil {
					byToolAgent[k] = &tally{}
				}
				byToolAgent[k].calls++
				if c.err != "" {
					byToolAgent[k].errs++
					byError[c.tool+"/"+c.err]++
				}
			}
		}
		rows := panel(t, "evalsidecar-tools", "Tools by agent", "failure", "")
		if len(rows) != len(byToolAgent) {
			t.Errorf("Tools by agent: %d rows, want %d", len(rows), len(byToolAgent))
		}
		for _, row := range rows {
			w := byToolAgent[row[0].(string)+"/"+row[1].(string)]
			if w == nil || num(row[2]) != float64(w.calls) || num(row[3]) != float64(w.errs) || !near(num(row[4]), float64(w.errs)/float64(w.calls)) {
				t.Errorf("Tools by agent row %v, want %+v", row[:5], w)
			}
		}
		rows = panel(t, "evalsidecar-tools", "Top tool errors", "failure", "")
		if len(rows) != len(byError) {
			t.Fatalf("Top tool errors: %d rows, want %d", len(rows), len(byError))
		}
		for i, row := range rows {
			k := row[0].(string) + "/" + row[1].(string)
			if num(row[2]) != float64(byError[k]) || i > 0 && num(row[2]) > num(rows[i-1][2]) {
				t.Errorf("Top tool errors row %d %v: want %d calls, most first", i, row[:3], byError[k])
			}
		}
		if rows[0][0] != "update_budget" {
			t.Errorf("the most frequent tool error is %v, want update_budget's", rows[0][:2])
		}
	})

	t.Run("runs", func(t *testing.T) {
		const r = "evalsidecar-runs"
		if got := single(t, r, "Runs scored", "failure"); got != float64(len(runs)) {
			t.Errorf("Runs scored = %v, want %d (the Runs panel's count)", got, len(runs))
		}
		failing := 0
		for _, run := range runs {
			if _, v := run.score("tool_error_rate"); !*v {
				failing++
			}
		}
		if got := single(t, r, "Runs failing ${metric}", "tool_error_rate"); got != float64(failing) {
			t.Errorf("Runs failing tool_error_rate = %v, want %d", got, failing)
		}
	})

	t.Run("worst runs by direction", func(t *testing.T) {
		for _, m := range metrics {
			lowerIsBetter := m == "latency" || m == "failure" || m == "tool_error_rate"
			all := slices.Clone(runs)
			// The worst five by the metric's direction; ties keep any order.
			sort.SliceStable(all, func(i, j int) bool {
				a, _ := all[i].score(m)
				b, _ := all[j].score(m)
				if lowerIsBetter {
					return a > b
				}
				return a < b
			})
			rows := panel(t, "evalsidecar-runs", "Worst runs", m, "")
			if len(rows) != 5 {
				t.Fatalf("%s: %d rows, want 5", m, len(rows))
			}
			for i, row := range rows {
				want, _ := all[i].score(m)
				if got := num(row[0]); got != want {
					t.Errorf("%s: worst run %d scores %v, want %v", m, i, got, want)
				}
			}
			if m == "tool_error_rate" && rows[0][5] != runs[worstToolRun].id {
				t.Errorf("the worst tool_error_rate run is %v, want %s (the only one whose every call failed)", rows[0][5], runs[worstToolRun].id)
			}
		}
	})

	t.Run("drill-down", func(t *testing.T) {
		run := runs[worstToolRun]
		rows := panel(t, "evalsidecar-runs", "Run trajectory", "tool_error_rate", run.id)
		if len(rows) != len(run.calls) {
			t.Fatalf("%d calls, want %d", len(rows), len(run.calls))
		}
		for i, c := range run.calls {
			got := answerCall{tool: rows[i][1].(string), args: rows[i][3].(string), result: rows[i][4].(string), err: rows[i][5].(string)}
			if num(rows[i][0]) != float64(i) || got != c {
				t.Errorf("call %d: %v, want %+v", i, rows[i], c)
			}
		}
		head := panel(t, "evalsidecar-runs", "Run", "tool_error_rate", run.id)
		if len(head) != 1 || head[0][1] != run.agent || head[0][2] != run.release || !near(num(head[0][3]), run.latency) {
			t.Errorf("Run: %v, want agent %s release %s latency %v", head, run.agent, run.release, run.latency)
		}
	})
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestAgreementPanelAnswers seeds judge scores and people's feedback
// through the real exporter and checks the Judge cost dashboard's
// agreement table:
//   - approval, labels: the 2×2 example of Wikipedia's "Cohen's kappa"
//     (50 items; both yes 20, both no 15, judge yes and person no 5,
//     judge no and person yes 10): agreement 0.7, kappa 0.4. One record is
//     sent twice (counted once); a run started outside the time range and
//     feedback on a run no judge scored are left out.
//   - rating, 1–5 numbers: kappa, Spearman's correlation (with ties) and
//     mean absolute error computed here from the confusion counts, the
//     ranks and the differences.
func TestAgreementPanelAnswers(t *testing.T) {
	at := time.Now().UTC().Add(-4 * time.Hour).Truncate(time.Minute)
	judged := func(i int, start time.Time, metric string, score float64, label string) *scorer.Evaluation {
		id := fmt.Sprintf("%032x", i+1)
		return &scorer.Evaluation{FollowUp: true,
			Trajectory: &agentrun.Trajectory{TraceID: id, RootSpanID: id[16:], Service: "budget-bot", Agent: "planner", Start: start},
			Results: []scorer.Result{{Metric: metric, Score: score, Label: label,
				Judge: &scorer.JudgeUsage{Provider: "openai", Model: "judge-1", InputTokens: 100}}}}
	}
	person := func(i int, metric string, f scorer.Feedback) scorer.Feedback {
		f.TraceID, f.Metric, f.Time, f.Annotator = fmt.Sprintf("%032x", i+1), metric, at.Add(2*time.Hour), "ann"
		return f
	}
	var evs []*scorer.Evaluation
	var fbs []scorer.Feedback
	// approval: runs 0–49
	cells := []struct {
		n            int
		judge, human string
	}{{20, "yes", "yes"}, {5, "yes", "no"}, {10, "no", "yes"}, {15, "no", "no"}}
	i := 0
	for _, c := range cells {
		for range c.n {
			evs = append(evs, judged(i, at.Add(time.Duration(i)*time.Minute), "approval", map[string]float64{"yes": 1}[c.judge], c.judge))
			fbs = append(fbs, person(i, "approval", scorer.Feedback{Label: c.human}))
			i++
		}
	}
	fbs = append(fbs, fbs[0]) // sent twice
	// outside the time range: a run a day earlier, disagreeing
	evs = append(evs, judged(100, at.Add(-24*time.Hour), "approval", 1, "yes"))
	fbs = append(fbs, person(100, "approval", scorer.Feedback{Label: "no"}))
	// feedback on a run with no judge score
	fbs = append(fbs, person(101, "approval", scorer.Feedback{Label: "no"}))
	// rating: runs 200–229, judge and person on a 1–5 scale
	var judge, human []float64
	for k := range 30 {
		j, h := float64(1+k%5), float64(1+(k*3)%5)
		if k%4 == 0 {
			h = j
		}
		judge, human = append(judge, j), append(human, h)
		evs = append(evs, judged(200+k, at.Add(time.Duration(k)*time.Minute), "rating", j, ""))
		fbs = append(fbs, person(200+k, "rating", scorer.Feedback{Value: h, HasValue: true}))
	}
	evs = append(evs, &scorer.Evaluation{Feedback: fbs})
	conn, db := seedDB(t, nil, evs)

	tg, ok := renderedTargets(t, "evalsidecar-judge-cost")["Agreement with people"]
	if !ok {
		t.Fatal("the Judge cost dashboard has no agreement panel")
	}
	e := grafanaEnv{from: at.Add(-10 * time.Minute), to: at.Add(90 * time.Minute), interval: 10 * time.Minute,
		vars: map[string][]string{"database": {db}, "service": {"budget-bot"}, "agent": {"planner", "checkout"}}}
	rows := queryRows(t, conn, e.expand(t, tg.RawSQL))
	if len(rows) != 2 || rows[0][0] != "approval" || rows[1][0] != "rating" {
		t.Fatalf("rows %v, want approval and rating", rows)
	}

	// approval: published values
	if got := []float64{num(rows[0][1]), num(rows[0][2]), num(rows[0][3])}; !near(got[0], 50) || !near(got[1], 0.7) || !near(got[2], 0.4) {
		t.Errorf("approval: labelled runs, agreement, kappa = %v, want 50, 0.7, 0.4", got)
	}
	if rows[0][4] != nil || rows[0][5] != nil {
		t.Errorf("approval: spearman %v, mae %v for labels, want empty", rows[0][4], rows[0][5])
	}

	// rating: kappa from the confusion counts, mean absolute error
	n := float64(len(judge))
	var agree, abs float64
	jc, hc := map[float64]float64{}, map[float64]float64{}
	for k := range judge {
		if judge[k] == human[k] {
			agree++
		}
		abs += math.Abs(judge[k] - human[k])
		jc[judge[k]]++
		hc[human[k]]++
	}
	var pe float64
	for v := 1.0; v <= 5; v++ {
		pe += jc[v] / n * hc[v] / n
	}
	po := agree / n
	wantKappa, wantMAE := (po-pe)/(1-pe), abs/n
	// Spearman: Pearson's correlation of the ranks, a tied value ranked
	// the values below it plus (its count + 1) / 2.
	rank := func(xs []float64, x float64) float64 {
		var below, same float64
		for _, y := range xs {
			if y < x {
				below++
			} else if y == x {
				same++
			}
		}
		return below + (same+1)/2
	}
	var sx, sy, sxy, sxx, syy float64
	for k := range judge {
		x, y := rank(judge, judge[k]), rank(human, human[k])
		sx, sy, sxy, sxx, syy = sx+x, sy+y, sxy+x*y, sxx+x*x, syy+y*y
	}
	wantRho := (n*sxy - sx*sy) / math.Sqrt((n*sxx-sx*sx)*(n*syy-sy*sy))
	if got := []float64{num(rows[1][1]), num(rows[1][2]), num(rows[1][3]), num(rows[1][4]), num(rows[1][5])}; !near(got[0], n) || !near(got[1], po) ||
		!near(got[2], wantKappa) || !near(got[3], wantRho) || !near(got[4], wantMAE) {
		t.Errorf("rating: labelled runs, agreement, kappa, spearman, mae = %v, want %v %v %v %v %v", got, n, po, wantKappa, wantRho, wantMAE)
	}
	if wantKappa <= 0 || wantKappa >= 1 || wantMAE == 0 || !(wantRho > 0 && wantRho < 1) {
		t.Errorf("dataset: rating kappa %v, spearman %v, mae %v should be strictly between perfect and chance", wantKappa, wantRho, wantMAE)
	}

	// The confusion matrix: approval's four cells, by the person's value
	// then the judge's.
	tg, ok = renderedTargets(t, "evalsidecar-judge-cost")["Judge against people"]
	if !ok {
		t.Fatal("the Judge cost dashboard has no confusion matrix panel")
	}
	cellsGot := map[string]float64{}
	for _, r := range queryRows(t, conn, e.expand(t, tg.RawSQL)) {
		if r[0] == "approval" {
			cellsGot[r[1].(string)+"/"+r[2].(string)] = num(r[3])
		}
	}
	wantCells := map[string]float64{"yes/yes": 20, "no/yes": 5, "yes/no": 10, "no/no": 15}
	if fmt.Sprint(cellsGot) != fmt.Sprint(wantCells) {
		t.Errorf("approval confusion (person/judge) %v, want %v", cellsGot, wantCells)
	}
}

// pairwiseRun is one canary run of the pairwise dataset: its release and
// each pairwise metric's choice, "" where the metric did not compare it.
type pairwiseRun struct {
	release               string
	coherence, fluency    string
	coherenceInconsistent bool
}

// pairwiseRuns: baseline release 1.0 (never compared) and candidates 2.0
// and 2.1, alternating. pairwise_coherence compares every candidate run:
// by i%5, CANDIDATE, CANDIDATE, TIE from disagreeing orders, TIE, BASELINE.
// pairwise_fluency compares every third: by i%4, BASELINE, CANDIDATE,
// TIE, BASELINE.
func pairwiseRuns() []pairwiseRun {
	var out []pairwiseRun
	for i := range 90 {
		r := pairwiseRun{release: []string{"1.0", "2.0", "2.1"}[i%3]}
		if r.release != "1.0" {
			r.coherence = []string{"CANDIDATE", "CANDIDATE", "TIE", "TIE", "BASELINE"}[i%5]
			r.coherenceInconsistent = i%5 == 2
			if i%3 == 0 || i%4 < 3 && i%2 == 0 {
				r.fluency = []string{"BASELINE", "CANDIDATE", "TIE", "BASELINE"}[i%4]
			}
		}
		out = append(out, r)
	}
	return out
}

// TestCandidateVsBaselinePanel seeds pairwise results through the real
// exporter and checks the "Candidate vs baseline" panel's rates against
// counts made here from the dataset.
func TestCandidateVsBaselinePanel(t *testing.T) {
	at := time.Now().UTC().Add(-3 * time.Hour).Truncate(time.Minute)
	runs := pairwiseRuns()
	var evs []*scorer.Evaluation
	type tally struct{ n, win, tie, loss, inconsistent float64 }
	want := map[string]*tally{} // metric@release
	count := func(metric, release, choice string, inconsistent bool) {
		k := metric + "@" + release
		if want[k] == nil {
			want[k] = &tally{}
		}
		w := want[k]
		w.n++
		switch choice {
		case "CANDIDATE":
			w.win++
		case "TIE":
			w.tie++
		case "BASELINE":
			w.loss++
		}
		if inconsistent {
			w.inconsistent++
		}
	}
	for i, r := range runs {
		start := at.Add(time.Duration(i) * time.Minute)
		tr := &agentrun.Trajectory{TraceID: fmt.Sprintf("%032x", i+1), Service: "shop", ServiceVersion: r.release, Agent: "planner",
			Start: start, End: start.Add(time.Second), Input: "q", Output: "a"}
		ev := &scorer.Evaluation{Trajectory: tr, Results: []scorer.Result{{Metric: "failure", Score: 0}}}
		for _, m := range []struct {
			name, choice string
			inconsistent bool
		}{{"pairwise_coherence", r.coherence, r.coherenceInconsistent}, {"pairwise_fluency", r.fluency, false}} {
			if m.choice == "" {
				continue
			}
			score := map[string]float64{"CANDIDATE": 1, "TIE": 0.5, "BASELINE": 0}[m.choice]
			ev.Results = append(ev.Results, scorer.Result{Metric: m.name, Score: score, Label: m.choice,
				Details: map[string]any{"pairwise_choice": m.choice, "position_consistent": !m.inconsistent, "baseline_trace_id": "b"}})
			count(m.name, r.release, m.choice, m.inconsistent)
		}
		evs = append(evs, ev)
	}
	conn, db := seedDB(t, nil, evs)
	tg, ok := renderedTargets(t, "evalsidecar-agent-quality")["Candidate vs baseline"]
	if !ok {
		t.Fatal("no Candidate vs baseline panel")
	}
	env := grafanaEnv{from: at.Add(-10 * time.Minute), to: at.Add(2 * time.Hour), interval: 10 * time.Minute,
		vars: map[string][]string{"database": {db}, "service": {"shop"}, "agent": {"planner"}, "release": {"1.0", "2.0", "2.1"}}}
	rows := queryRows(t, conn, env.expand(t, tg.RawSQL))
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d (a row per pairwise metric and candidate release): %v", len(rows), len(want), rows)
	}
	for _, r := range rows {
		k := r[0].(string) + "@" + r[1].(string)
		w := want[k]
		if w == nil {
			t.Errorf("unexpected row %v", r)
			continue
		}
		for i, v := range []float64{w.n, w.win / w.n, w.tie / w.n, w.loss / w.n, w.inconsistent / w.n} {
			if g := num(r[2+i]); !near(g, v) {
				t.Errorf("%s column %d = %v, want %v", k, 2+i, g, v)
			}
		}
	}
}
