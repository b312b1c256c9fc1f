package dashboards

import (
	"encoding/json"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/units"
)

// SREUID is the uid of the SRE dashboard.
const SREUID = "evalsidecar-sre"

// sreDashboards are the dashboards over the sidecar's Prometheus metrics.
func sreDashboards() []Dashboard {
	return []Dashboard{{UID: SREUID, Build: SRE}}
}

// SRE is the dashboard for the people who run the agent and the sidecar:
// the agent's golden signals, quality per metric and release with
// exemplars that open the scored trace, the LLM judge's health and cost,
// the exporters' delivery and the sidecar's own health. It reads the recording rules of
// SRERules(DefaultRuleParams()) and the raw metrics.
func SRE(o Options) *dashboard.DashboardBuilder {
	b := dashboard.NewDashboardBuilder("evalsidecar / SRE").
		Uid(SREUID).
		Description("Agent golden signals, evaluation quality by release, judge health and the evalsidecar's own health.").
		Tags([]string{"evalsidecar", "sre", "llm-agents"}).
		Editable().
		Tooltip(dashboard.DashboardCursorSyncCrosshair).
		Time("now-6h", "now").
		Refresh("1m").
		Link(dashboard.NewDashboardLinkBuilder("Alert runbook").
			Type(dashboard.DashboardLinkTypeLink).
			Url(DefaultRunbookURL).
			TargetBlank(true)).
		WithVariable(dashboard.NewDatasourceVariableBuilder(promVar).Label("Prometheus").Type("prometheus")).
		WithVariable(labelVariable("service", "Service", "label_values("+mTrajectories+", service_name)")).
		WithVariable(labelVariable("agent", "Agent", "label_values("+mTrajectories+`{service_name=~"$service"}, agent)`)).
		WithVariable(labelVariable("instance", "Sidecar", "label_values("+mBuildInfo+", instance)"))

	for _, row := range []struct {
		title  string
		panels []cog.Builder[dashboard.Panel]
	}{
		{"Agent golden signals", goldenSignalPanels()},
		{"Quality by metric and release", qualityPanels(o)},
		{"LLM judge", judgePanels()},
		{"Exporters", exporterPanels()},
		{"Sidecar health", healthPanels()},
	} {
		b = b.WithRow(dashboard.NewRowBuilder(row.title))
		for _, p := range row.panels {
			b = b.WithPanel(p)
		}
	}
	return b
}

// labelVariable is a multi-value query variable over label values with
// an "All" option matching everything.
func labelVariable(name, label, query string) *dashboard.QueryVariableBuilder {
	return dashboard.NewQueryVariableBuilder(name).
		Label(label).
		Datasource(promDS()).
		Query(dashboard.StringOrMap{String: cog.ToPtr(query)}).
		Definition(query).
		Refresh(dashboard.VariableRefreshOnTimeRangeChanged).
		Sort(dashboard.VariableSortAlphabeticalAsc).
		Multi(true).
		IncludeAll(true).
		AllValue(".*")
}

// PanelQuery is one PromQL target of a dashboard.
type PanelQuery struct {
	Panel, RefID, Expr string
	// Exemplar is set on targets that ask for exemplars.
	Exemplar bool
}

// PromQueries builds d and returns every Prometheus target of its panels,
// including panels inside rows.
func PromQueries(d Dashboard, o Options) ([]PanelQuery, error) {
	b, err := Render(d, o)
	if err != nil {
		return nil, err
	}
	type panel struct {
		Title   string `json:"title"`
		Targets []struct {
			RefID    string `json:"refId"`
			Expr     string `json:"expr"`
			Exemplar bool   `json:"exemplar"`
		} `json:"targets"`
		Panels []panel `json:"panels"`
	}
	var top struct {
		Panels []panel `json:"panels"`
	}
	if err := json.Unmarshal(b, &top); err != nil {
		return nil, err
	}
	var out []PanelQuery
	var walk func([]panel)
	walk = func(ps []panel) {
		for _, p := range ps {
			for _, t := range p.Targets {
				if t.Expr != "" {
					out = append(out, PanelQuery{Panel: p.Title, RefID: t.RefID, Expr: t.Expr, Exemplar: t.Exemplar})
				}
			}
			walk(p.Panels)
		}
	}
	walk(top.Panels)
	return out, nil
}

// Units used by the SRE panels.
const (
	unitRatio   = units.PercentUnit
	unitSeconds = units.Seconds
	unitPerSec  = "ops"
	unitBytes   = units.BytesIEC
)
