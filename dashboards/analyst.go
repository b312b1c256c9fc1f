package dashboards

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/stat"
	"github.com/grafana/grafana-foundation-sdk/go/table"
	"github.com/grafana/grafana-foundation-sdk/go/timeseries"

	chexp "github.com/evalsidecar/evalsidecar/exporter/clickhouse"
)

// analystDashboards are the dashboards over the ClickHouse tables.
func analystDashboards() []Dashboard {
	var out []Dashboard
	for _, a := range analystSpecs() {
		out = append(out, Dashboard{UID: a.uid, Build: a.build})
	}
	return out
}

// analystDashboard is one analyst dashboard: its panels are data, so that
// a test can run every panel's SQL against a real ClickHouse.
type analystDashboard struct {
	uid, title, description string
	tags                    []string
	vars                    []string // variable names beyond ch and database, in order
	panels                  func(o Options) []chPanel
}

func analystSpecs() []analystDashboard {
	return []analystDashboard{qualityDashboard(), toolsDashboard(), runsDashboard(), sessionsDashboard(), judgeCostDashboard()}
}

// panelKind is the visualisation of a chPanel.
type panelKind int

const (
	kindTimeSeries panelKind = iota
	kindTable
	kindStat
)

// chPanel is one panel over ClickHouse.
type chPanel struct {
	title, description string
	kind               panelKind
	sql                string
	// columns are the result columns the panel expects, in order; a
	// test checks them against the real server.
	columns []string
	unit    string
	// width and height are the grid size; 0 means 12 and 8.
	width, height uint32
	// traceLink turns the trace_id column into a link to the trace UI.
	traceLink bool
	// drillDown adds a link on the trace_id column that opens the run's
	// trajectory on the Runs dashboard.
	drillDown bool
	// sessionDrillDown adds a link on the session_id column that opens
	// the session's turns on the Sessions dashboard.
	sessionDrillDown bool
}

// Table names as the exporter creates them by default; ${database} is a
// dashboard variable.
var (
	tEvaluations  = "${database}." + chexp.DefaultEvaluationsTable
	tTrajectories = "${database}." + chexp.DefaultTrajectoriesTable
	tToolCalls    = "${database}." + chexp.DefaultToolCallsTable
	tDecisions    = "${database}." + chexp.DefaultEvalDecisionsTable
	tMetrics      = "${database}." + chexp.DefaultMetricsTable
	tFeedback     = "${database}." + chexp.DefaultFeedbackTable
)

// Filters on the dashboards' variables.
const (
	// metricIs selects the one metric of the metric variable.
	metricIs = "metric = ${metric:singlequote}"
	// releaseFilter restricts to the selected releases (service.version).
	releaseFilter = "service_version IN (${release:singlequote})"
)

// worseSign is 1 when a higher score of the selected metric is better (or
// the metric has no direction) and -1 when lower is better, from the
// metrics table: ordering by score * worseSign puts the worst runs first.
var worseSign = "(SELECT if(argMax(direction, updated) = 'lower_is_better', -1, 1) FROM " + tMetrics +
	" WHERE name = ${metric:singlequote})"

// releaseChange compares releases: inner returns one row per key (a
// metric, a tool) and release with the columns key, release, first (the
// release's first run), the sample size n and the values; the result has,
// per key and release in order of first run, the key, release, sample
// size and values, then the release before it, its sample size, and each
// value's change from it (NULL for a key's first release).
func releaseChange(key, n string, values []string, inner string) string {
	tuple := "release, first, n"
	cols := []string{key, "tupleElement(r, 1) AS release", "tupleElement(r, 3) AS " + n}
	var changes []string
	for i, v := range values {
		tuple += ", " + v
		cols = append(cols, fmt.Sprintf("tupleElement(r, %d) AS %s", i+4, v))
		changes = append(changes, fmt.Sprintf("if(i > 1, tupleElement(r, %d) - tupleElement(rows[i - 1], %d), NULL) AS %s_change", i+4, i+4, v))
	}
	cols = append(cols, "if(i > 1, tupleElement(rows[i - 1], 1), '') AS previous_release",
		"if(i > 1, tupleElement(rows[i - 1], 3), 0) AS previous_"+n)
	cols = append(cols, changes...)
	return fmt.Sprintf("SELECT %s\nFROM (\n  SELECT %s, arraySort(x -> tupleElement(x, 2), groupArray((%s))) AS rows\n  FROM (\n%s\n  )\n  GROUP BY %s\n)\nARRAY JOIN rows AS r, arrayEnumerate(rows) AS i\nORDER BY %s, i",
		strings.Join(cols, ",\n  "), key, tuple, inner, key, key)
}

// timeSeries makes p a time series of agg AS value per time bucket of col
// and per series (a column or expression), over the rows of from that
// match cond.
func (p chPanel) timeSeries(col, series, agg, value, from, cond string) chPanel {
	p.kind = kindTimeSeries
	p.sql = fmt.Sprintf("SELECT %s AS time, %s AS series, %s AS %s\nFROM %s\n%s\nGROUP BY time, series\nORDER BY time",
		bucket(col), series, agg, value, from, cond)
	p.columns = []string{"time", "series", value}
	return p
}

// stat makes p a single number: agg AS value over the rows of from that
// match cond.
func (p chPanel) stat(agg, value, from, cond string) chPanel {
	p.kind = kindStat
	p.sql = "SELECT " + agg + " AS " + value + "\nFROM " + from + "\n" + cond
	p.columns = []string{value}
	return p
}

// bucket is the time bucket of a time-series query. The plugin's
// $__timeInterval macro expands to toStartOfInterval, which ClickHouse
// 18.16 lacks; integer division on the epoch works on every release.
func bucket(col string) string {
	return fmt.Sprintf("toDateTime(intDiv(toUInt32(toDateTime(%s)), $__interval_s) * $__interval_s)", col)
}

// where is the common filter: the panel's time range on col, plus the
// dashboard's service and agent selections.
func where(col string, extra ...string) string {
	conds := append([]string{
		"$__timeFilter(" + col + ")",
		"service IN (${service:singlequote})",
		"agent IN (${agent:singlequote})",
	}, extra...)
	return "WHERE " + strings.Join(conds, "\n  AND ")
}

func chDatasource() common.DataSourceRef {
	return common.DataSourceRef{Type: cog.ToPtr(ClickHousePluginID), Uid: cog.ToPtr("${ch}")}
}

func (p chPanel) target() *CHQueryBuilder {
	q := NewCHQueryBuilder().RefID("A").Datasource(chDatasource()).RawSQL(p.sql)
	if p.kind == kindTimeSeries {
		q.TimeSeries()
	}
	return q
}

// drillDownURL opens the Runs dashboard on a run, keeping the time range,
// database and metric.
const drillDownURL = "/d/" + runsUID + "?${__url_time_range}&${database:queryparam}&${metric:queryparam}&var-trace_id=${__value.raw}"

func (p chPanel) add(d *dashboard.DashboardBuilder, o Options) {
	w, h := cmp.Or(p.width, 12), cmp.Or(p.height, 8)
	switch p.kind {
	case kindTimeSeries:
		b := timeseries.NewPanelBuilder().Title(p.title).Description(p.description).
			Datasource(chDatasource()).WithTarget(p.target()).Span(w).Height(h).
			FillOpacity(10).LineWidth(1)
		if p.unit != "" {
			b.Unit(p.unit)
		}
		d.WithPanel(b)
	case kindStat:
		b := stat.NewPanelBuilder().Title(p.title).Description(p.description).
			Datasource(chDatasource()).WithTarget(p.target()).Span(w).Height(h).
			ReduceOptions(common.NewReduceDataOptionsBuilder().Calcs([]string{"lastNotNull"}).Values(false))
		if p.unit != "" {
			b.Unit(p.unit)
		}
		d.WithPanel(b)
	case kindTable:
		b := table.NewPanelBuilder().Title(p.title).Description(p.description).
			Datasource(chDatasource()).WithTarget(p.target()).Span(w).Height(h)
		if p.unit != "" {
			b.Unit(p.unit)
		}
		// An explicit footer: the SDK's default marshals a null reducer.
		b.Footer(common.NewTableFooterOptionsBuilder().Show(false).Reducer([]string{}))
		var links []map[string]any
		if p.drillDown {
			links = append(links, map[string]any{"title": "Show this run's trajectory", "url": drillDownURL})
		}
		if p.traceLink {
			// the configured template, as a data link on the trace_id cell
			url := strings.ReplaceAll(o.TraceURLTemplate, "${trace_id}", "${__value.raw}")
			links = append(links, map[string]any{"title": "Open trace", "url": url, "targetBlank": true})
		}
		if len(links) > 0 {
			b.OverrideByName("trace_id", []dashboard.DynamicConfigValue{{Id: "links", Value: links}})
		}
		if p.sessionDrillDown {
			b.OverrideByName("session_id", []dashboard.DynamicConfigValue{{Id: "links",
				Value: []map[string]any{{"title": "Show this session's turns", "url": sessionDrillDownURL}}}})
		}
		d.WithPanel(b)
	}
}

// defaultMetric is the metric variable's default: every run has a
// failure score.
const defaultMetric = "failure"

// variable builders, by name.
func analystVariable(name string) cog.Builder[dashboard.VariableModel] {
	distinct := func(col, tbl, label string) cog.Builder[dashboard.VariableModel] {
		return dashboard.NewQueryVariableBuilder(name).Label(label).
			Datasource(chDatasource()).
			Query(dashboard.StringOrMap{String: cog.ToPtr(fmt.Sprintf(
				"SELECT DISTINCT %s FROM %s ORDER BY %s LIMIT 1000", col, tbl, col))}).
			Refresh(dashboard.VariableRefreshOnTimeRangeChanged).
			Multi(true).IncludeAll(true).
			Current(dashboard.VariableOption{
				Selected: cog.ToPtr(true),
				Text:     dashboard.StringOrArrayOfString{ArrayOfString: []string{"All"}},
				Value:    dashboard.StringOrArrayOfString{ArrayOfString: []string{"$__all"}},
			})
	}
	textbox := func(label, def string) cog.Builder[dashboard.VariableModel] {
		return dashboard.NewTextBoxVariableBuilder(name).Label(label).
			DefaultValue(dashboard.StringOrMap{String: cog.ToPtr(def)}).
			Current(dashboard.VariableOption{
				Text:  dashboard.StringOrArrayOfString{String: cog.ToPtr(def)},
				Value: dashboard.StringOrArrayOfString{String: cog.ToPtr(def)},
			})
	}
	switch name {
	case "ch":
		return dashboard.NewDatasourceVariableBuilder("ch").Label("ClickHouse").Type(ClickHousePluginID)
	case "database":
		return textbox("Database", chexp.DefaultDatabase)
	case "service":
		return distinct("service", tTrajectories, "Service")
	case "agent":
		return distinct("agent", tTrajectories, "Agent")
	case "metric":
		// One metric at a time: scores of different metrics have
		// different units and directions.
		return dashboard.NewQueryVariableBuilder(name).Label("Metric").
			Datasource(chDatasource()).
			Query(dashboard.StringOrMap{String: cog.ToPtr("SELECT DISTINCT metric FROM " + tEvaluations + " ORDER BY metric LIMIT 1000")}).
			Refresh(dashboard.VariableRefreshOnTimeRangeChanged).
			Current(dashboard.VariableOption{
				Selected: cog.ToPtr(true),
				Text:     dashboard.StringOrArrayOfString{String: cog.ToPtr(defaultMetric)},
				Value:    dashboard.StringOrArrayOfString{String: cog.ToPtr(defaultMetric)},
			})
	case "release":
		return distinct("service_version", tTrajectories, "Release")
	case "trace_id":
		return textbox("Run (trace id)", "")
	case "tool":
		return distinct("tool", tToolCalls, "Tool")
	case "worst_n":
		return textbox("Worst runs per metric", "10")
	case "worst_sessions":
		return textbox("Worst sessions", "20")
	case "session_id":
		return textbox("Session id", "")
	case "usd_per_1k_input":
		return textbox("USD per 1K judge input tokens", "0.0025")
	case "usd_per_1k_output":
		return textbox("USD per 1K judge output tokens", "0.01")
	}
	panic("dashboards: unknown analyst variable " + name)
}

func (a analystDashboard) build(o Options) *dashboard.DashboardBuilder {
	d := dashboard.NewDashboardBuilder(a.title).
		Uid(a.uid).
		Description(a.description).
		Tags(append([]string{"evalsidecar", "clickhouse"}, a.tags...)).
		Timezone(common.TimeZoneBrowser).
		Time("now-7d", "now").
		Refresh("5m").
		Tooltip(dashboard.DashboardCursorSyncCrosshair)
	for _, v := range append([]string{"ch", "database"}, a.vars...) {
		d.WithVariable(analystVariable(v))
	}
	for _, p := range a.panels(o) {
		p.add(d, o)
	}
	return d
}
