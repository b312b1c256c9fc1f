package dashboards

import (
	"reflect"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/cog/variants"
	"github.com/grafana/grafana-foundation-sdk/go/common"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// ClickHousePluginID is the Grafana ClickHouse datasource plugin.
const ClickHousePluginID = "grafana-clickhouse-datasource"

// ClickHouseFormat is the plugin's result format (the sqlds format
// option): how Grafana turns the rows into frames.
type ClickHouseFormat int

// Result formats of the ClickHouse plugin.
const (
	FormatTimeSeries ClickHouseFormat = 0
	FormatTable      ClickHouseFormat = 1
)

// CHQuery is one ClickHouse panel target: raw SQL in the plugin's SQL
// editor. The foundation SDK has no ClickHouse query type, so this
// implements the four methods of variants.Dataquery.
type CHQuery struct {
	RefID      string                `json:"refId"`
	Datasource *common.DataSourceRef `json:"datasource,omitempty"`
	EditorType string                `json:"editorType"`
	QueryType  string                `json:"queryType"`
	Format     ClickHouseFormat      `json:"format"`
	RawSQL     string                `json:"rawSql"`
}

var _ variants.Dataquery = CHQuery{}

// ImplementsDataqueryVariant marks CHQuery as a panel target.
func (CHQuery) ImplementsDataqueryVariant() {}

// DataqueryType is the plugin id.
func (CHQuery) DataqueryType() string { return ClickHousePluginID }

// Validate reports a query Grafana could not run.
func (q CHQuery) Validate() error {
	var v errs.Checks
	v.Check(q.RawSQL == "", "rawSql is empty")
	v.Check(q.RefID == "", "refId is empty")
	return v.Err()
}

// Equals compares field by field (the datasource by value, not pointer).
func (q CHQuery) Equals(other variants.Dataquery) bool {
	o, ok := other.(CHQuery)
	return ok && reflect.DeepEqual(q, o)
}

// CHQueryBuilder builds a CHQuery for a panel's WithTarget.
type CHQueryBuilder struct{ q CHQuery }

var _ cog.Builder[variants.Dataquery] = (*CHQueryBuilder)(nil)

// NewCHQueryBuilder starts a SQL-editor query in table format.
func NewCHQueryBuilder() *CHQueryBuilder {
	return &CHQueryBuilder{q: CHQuery{EditorType: "sql", QueryType: "table", Format: FormatTable}}
}

// RefID sets the target's refId (the SDK does not set one).
func (b *CHQueryBuilder) RefID(id string) *CHQueryBuilder { b.q.RefID = id; return b }

// Datasource sets the datasource, normally the ${ch} variable.
func (b *CHQueryBuilder) Datasource(ds common.DataSourceRef) *CHQueryBuilder {
	b.q.Datasource = &ds
	return b
}

// RawSQL sets the SQL, with the plugin's macros.
func (b *CHQueryBuilder) RawSQL(sql string) *CHQueryBuilder { b.q.RawSQL = sql; return b }

// TimeSeries makes the result a time series (first column the time).
func (b *CHQueryBuilder) TimeSeries() *CHQueryBuilder {
	b.q.QueryType, b.q.Format = "timeseries", FormatTimeSeries
	return b
}

// Build returns the query. Errors are cog.BuildErrors: the panel builders
// type-assert them, and a plain error would panic there.
func (b *CHQueryBuilder) Build() (variants.Dataquery, error) {
	if err := b.q.Validate(); err != nil {
		return nil, cog.MakeBuildErrors("clickhouse", err)
	}
	return b.q, nil
}
