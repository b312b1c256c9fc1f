package dashboards

import (
	"fmt"
	"strings"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/prometheus"
	"github.com/grafana/grafana-foundation-sdk/go/stat"
	"github.com/grafana/grafana-foundation-sdk/go/timeseries"
)

// promVar is the datasource variable of the SRE dashboard.
const promVar = "datasource"

// promDS refers to the Prometheus datasource chosen in the variable.
func promDS() common.DataSourceRef {
	return common.DataSourceRef{Type: cog.ToPtr("prometheus"), Uid: cog.ToPtr("${" + promVar + "}")}
}

// promQuery is one PromQL target with its refId ("A", "B", ...).
type promQuery struct {
	expr, legend string
	exemplar     bool
}

func (q promQuery) builder(i int) *prometheus.DataqueryBuilder {
	b := prometheus.NewDataqueryBuilder().
		Datasource(promDS()).
		RefId(string(rune('A' + i))).
		Expr(q.expr).
		LegendFormat(q.legend).
		Range()
	if q.exemplar {
		b = b.Exemplar(true)
	}
	return b
}

// timeseriesPanel is a line chart over the queries.
func timeseriesPanel(title, description, unit string, qs ...promQuery) *timeseries.PanelBuilder {
	p := timeseries.NewPanelBuilder().
		Title(title).
		Description(description).
		Datasource(promDS()).
		Unit(unit).
		Height(8).
		Span(8).
		LineWidth(1).
		FillOpacity(10).
		Legend(common.NewVizLegendOptionsBuilder().
			DisplayMode(common.LegendDisplayModeList).
			Placement(common.LegendPlacementBottom).
			ShowLegend(true)).
		Tooltip(common.NewVizTooltipOptionsBuilder().Mode(common.TooltipDisplayModeMulti).Sort(common.SortOrderDescending))
	for i, q := range qs {
		p = p.WithTarget(q.builder(i))
	}
	return p
}

// statPanel is a single number over the queries.
func statPanel(title, description, unit string, qs ...promQuery) *stat.PanelBuilder {
	p := stat.NewPanelBuilder().
		Title(title).
		Description(description).
		Datasource(promDS()).
		Unit(unit).
		Height(4).
		Span(4).
		GraphMode(common.BigValueGraphModeArea)
	for i, q := range qs {
		p = p.WithTarget(q.builder(i).Instant())
	}
	return p
}

// traceLink links an exemplar's or series' trace_id to the trace UI.
func traceLink(o Options) cog.Builder[dashboard.DashboardLink] {
	url := strings.ReplaceAll(o.TraceURLTemplate, "${trace_id}", "${__data.fields.trace_id}")
	return dashboard.NewDashboardLinkBuilder("Open trace ${__data.fields.trace_id}").Url(url).TargetBlank(true)
}

// sel renders a selector of the dashboard's filter variables plus extra
// matchers, e.g. sel(svcAgent, `outcome="failed"`).
func sel(matchers ...string) string { return "{" + strings.Join(matchers, ",") + "}" }

// Filter matchers of the dashboard variables.
const (
	svcAgent = `service_name=~"$service",agent=~"$agent"`
	inst     = `instance=~"$instance"`
)

// rateOf is rate(metric{matchers}[$__rate_interval]).
func rateOf(metric string, matchers ...string) string {
	return fmt.Sprintf("rate(%s%s[$__rate_interval])", metric, sel(matchers...))
}
