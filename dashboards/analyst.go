package dashboards

import (
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
	return []analystDashboard{qualityDashboard(), toolsDashboard(), runsDashboard(), judgeCostDashboard()}
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
	width   uint32
	height  uint32
	// traceLink turns the trace_id column into a link to the trace UI.
	traceLink bool
}

// Table names as the exporter creates them by default; ${database} is a
// dashboard variable.
var (
	tEvaluations  = "${database}." + chexp.DefaultEvaluationsTable
	tTrajectories = "${database}." + chexp.DefaultTrajectoriesTable
	tToolCalls    = "${database}." + chexp.DefaultToolCallsTable
	tDecisions    = "${database}." + chexp.DefaultEvalDecisionsTable
)

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

// metricFilter restricts to the selected metrics.
const metricFilter = "metric IN (${metric:singlequote})"

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

func (p chPanel) size() (uint32, uint32) {
	w, h := p.width, p.height
	if w == 0 {
		w = 12
	}
	if h == 0 {
		h = 8
	}
	return w, h
}

// traceLinkURL turns the configured template into a Grafana data link on
// the trace_id cell.
func traceLinkURL(o Options) string {
	return strings.ReplaceAll(o.TraceURLTemplate, "${trace_id}", "${__value.raw}")
}

func (p chPanel) add(d *dashboard.DashboardBuilder, o Options) {
	w, h := p.size()
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
		if p.traceLink {
			b.OverrideByName("trace_id", []dashboard.DynamicConfigValue{{
				Id: "links",
				Value: []map[string]any{{
					"title": "Open trace", "url": traceLinkURL(o), "targetBlank": true,
				}},
			}})
		}
		d.WithPanel(b)
	}
}

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
		return distinct("metric", tEvaluations, "Metric")
	case "tool":
		return distinct("tool", tToolCalls, "Tool")
	case "threshold":
		return textbox("Pass threshold", "0.5")
	case "worst_n":
		return textbox("Worst runs per metric", "10")
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
