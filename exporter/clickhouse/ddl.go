package clickhouse

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
	"text/template"
	"time"
)

//go:embed sql/*.tmpl
var sqlFS embed.FS

var sqlTemplates = template.Must(template.New("").Funcs(template.FuncMap{
	"join": strings.Join,
}).ParseFS(sqlFS, "sql/*.tmpl"))

// migrationsTable records applied schema migrations.
const migrationsTable = "schema_migrations"

// localSuffix names the local tables under Distributed ones in cluster
// mode.
const localSuffix = "_local"

// schema renders DDL for one configuration and server.
type schema struct {
	cfg Config
	f   features
}

type tableData struct {
	Database, Table, OnCluster string
	Elements                   []string
	Engine                     string
	TimeColumn                 string
	OrderBy                    []string
	TTL                        string
	Settings                   []string
}

type distributedData struct {
	Database, Table, Local, OnCluster, Cluster, ShardingKey string
}

// render executes a template. The templates and the shapes of their data
// are fixed, so an error is a programming error that every DDL test
// catches: it panics.
func render(name string, data any) string {
	var buf bytes.Buffer
	if err := sqlTemplates.ExecuteTemplate(&buf, name, data); err != nil {
		panic(fmt.Sprintf("clickhouse: render %s: %v", name, err))
	}
	return strings.TrimSpace(buf.String())
}

func (s schema) onCluster() string {
	if s.cfg.Cluster != "" && s.cfg.ClusterDDL {
		return " ON CLUSTER " + s.cfg.Cluster
	}
	return ""
}

// storageTable is the MergeTree table that stores t's rows.
func (s schema) storageTable(t tableID) string { return s.local(s.cfg.Tables.name(t)) }

// local is the MergeTree table that stores the rows of table: its local
// table in cluster mode, else table itself.
func (s schema) local(table string) string {
	if s.cfg.Cluster != "" {
		return table + localSuffix
	}
	return table
}

func (s schema) engine(table string) string {
	name := "MergeTree"
	if s.cfg.Engine == EngineReplacingMergeTree {
		name = "ReplacingMergeTree"
	}
	return s.engineOf(name, table, "")
}

// engineOf is the engine name with its arguments (version, a version
// column or ""), replicated in a replicated cluster.
func (s schema) engineOf(name, table, version string) string {
	var args []string
	if s.cfg.Cluster != "" && s.cfg.ClusterReplicated {
		path := strings.NewReplacer("{database}", s.cfg.Database, "{table}", table).Replace(s.cfg.ReplicaPath)
		name = "Replicated" + name
		args = append(args, "'"+path+"'", "'"+s.cfg.ReplicaName+"'")
	}
	if version != "" {
		args = append(args, version)
	}
	return name + "(" + strings.Join(args, ", ") + ")"
}

// ttlExpr is the TTL clause for the time column, or "" when TTL is off.
func (s schema) ttlExpr(timeColumn string) string {
	if !s.f.TTL || s.cfg.TTL <= 0 {
		return ""
	}
	col := timeColumn
	if s.f.DateTime64 {
		col = "toDateTime(" + timeColumn + ")"
	}
	if s.cfg.TTL%(24*time.Hour) == 0 {
		return fmt.Sprintf("%s + toIntervalDay(%d)", col, s.cfg.TTL/(24*time.Hour))
	}
	return fmt.Sprintf("%s + toIntervalSecond(%d)", col, s.cfg.TTL/time.Second)
}

// columnDef is c's definition, with its codec when codec is set and the
// server has codecs.
func (s schema) columnDef(c column, codec bool) string {
	if codec && s.f.Codecs && c.codec != "" {
		return c.name + " " + c.kind.chType(s.f) + " CODEC(" + c.codec + ")"
	}
	return c.name + " " + c.kind.chType(s.f)
}

// createTable renders the CREATE TABLE of t's storage table.
func (s schema) createTable(t tableID) string {
	def := tableDefs[t]
	d := tableData{
		Database:   s.cfg.Database,
		Table:      s.storageTable(t),
		OnCluster:  s.onCluster(),
		Engine:     s.engine(s.storageTable(t)),
		TimeColumn: def.timeColumn,
		OrderBy:    def.orderBy,
		TTL:        s.ttlExpr(def.timeColumn),
		Settings:   []string{"index_granularity = 8192"},
	}
	for _, c := range def.columns {
		d.Elements = append(d.Elements, s.columnDef(c, true))
	}
	if s.f.SkipIndexes { // every table is looked up by trace id
		d.Elements = append(d.Elements, "INDEX idx_trace_id trace_id TYPE bloom_filter(0.001) GRANULARITY 1")
	}
	if d.TTL != "" && s.f.TTLOnlyDropParts {
		d.Settings = append(d.Settings, "ttl_only_drop_parts = 1")
	}
	replicated := s.cfg.Cluster != "" && s.cfg.ClusterReplicated
	if !replicated && s.f.NonReplicatedDedup {
		d.Settings = append(d.Settings, "non_replicated_deduplication_window = 1000")
	}
	return render("table.sql.tmpl", d)
}

// createDistributed renders the Distributed table over t's local table;
// "" outside cluster mode.
func (s schema) createDistributed(t tableID) string {
	if s.cfg.Cluster == "" {
		return ""
	}
	return render("distributed.sql.tmpl", distributedData{
		Database:    s.cfg.Database,
		Table:       s.cfg.Tables.name(t),
		Local:       s.storageTable(t),
		OnCluster:   s.onCluster(),
		Cluster:     s.cfg.Cluster,
		ShardingKey: s.cfg.ShardingKey,
	})
}

// createMetrics renders the metrics dimension table (and its Distributed
// table in cluster mode). It is a ReplacingMergeTree on the update time:
// the latest row of a metric wins.
func (s schema) createMetrics() []string {
	local := s.local(s.cfg.Tables.Metrics)
	ct := render("metrics.sql.tmpl", tableData{Database: s.cfg.Database, Table: local,
		OnCluster: s.onCluster(), Engine: s.engineOf("ReplacingMergeTree", local, "updated")})
	if s.cfg.Cluster == "" {
		return []string{ct}
	}
	return []string{ct, render("distributed.sql.tmpl", distributedData{Database: s.cfg.Database, Table: s.cfg.Tables.Metrics,
		Local: local, OnCluster: s.onCluster(), Cluster: s.cfg.Cluster, ShardingKey: "cityHash64(name)"})}
}

// addColumn renders the ALTER TABLE that adds column name of t to table
// (its storage or Distributed table) after the column before it.
func (s schema) addColumn(t tableID, table, name string) (string, error) {
	cols := tableDefs[t].columns
	for i, c := range cols {
		if c.name != name {
			continue
		}
		e := s.columnDef(c, table == s.storageTable(t))
		if i > 0 {
			e += " AFTER " + cols[i-1].name
		}
		return fmt.Sprintf("ALTER TABLE %s.%s%s ADD COLUMN %s", s.cfg.Database, table, s.onCluster(), e), nil
	}
	return "", fmt.Errorf("add column: %s has no column %s", t, name)
}

// createDatabase renders CREATE DATABASE.
func (s schema) createDatabase() string {
	return render("database.sql.tmpl", tableData{Database: s.cfg.Database, OnCluster: s.onCluster()})
}

// createMigrations renders the schema_migrations table.
func (s schema) createMigrations() string {
	return render("migrations.sql.tmpl", tableData{Database: s.cfg.Database, Table: migrationsTable, OnCluster: s.onCluster()})
}

// insertSQL is the INSERT with its explicit column list (18.16 needs it
// for PrepareBatch, and it makes a missing column an error rather than a
// silently defaulted value).
// Rows go into the Distributed table in cluster mode, else the table itself.
func (s schema) insertSQL(t tableID, columns []column) string {
	names := make([]string, len(columns))
	for i, c := range columns {
		names[i] = c.name
	}
	return fmt.Sprintf("INSERT INTO %s.%s (%s)", s.cfg.Database, s.cfg.Tables.name(t), strings.Join(names, ", "))
}

// migration is one step of the schema's history. Statements must be
// idempotent (IF NOT EXISTS) so that two sidecars starting together, or a
// start interrupted half way, converge.
type migration struct {
	version    uint32
	name       string
	statements func(s schema) []string
	// columns are columns a later version added to a table created by
	// an earlier one: migrate adds each one its tables lack (storage
	// and, in cluster mode, Distributed), checking system.columns first
	// since 18.16 has no ADD COLUMN IF NOT EXISTS. A fresh install
	// creates them with the table.
	columns []addedColumn
}

// addedColumn names a column a migration adds.
type addedColumn struct {
	table tableID
	name  string
}

// migrations is the schema's history, oldest first. A later version adds
// columns with a new entry listing them in columns, and tables with
// CREATE TABLE IF NOT EXISTS statements.
var migrations = []migration{
	{version: 1, name: "create tables", statements: func(s schema) []string {
		return s.createTables(tEvaluations, tTrajectories, tToolCalls, tDecisions)
	}},
	{version: 2, name: "pass verdicts, tool call texts and metrics table", statements: schema.createMetrics,
		columns: []addedColumn{{tEvaluations, "passed"}, {tToolCalls, "arguments"}, {tToolCalls, "result"}}},
	{version: 3, name: "judge cached flag", statements: noStatements,
		columns: []addedColumn{{tEvaluations, "judge_cached"}}},
	{version: 4, name: "feedback table", statements: func(s schema) []string {
		return s.createTables(tFeedback)
	}},
	{version: 5, name: "model replies of conversation runs", statements: noStatements,
		columns: []addedColumn{{tTrajectories, "replies"}}},
}

// createTables renders the CREATE TABLE of each table's storage table
// and, in cluster mode, its Distributed table.
func (s schema) createTables(ts ...tableID) []string {
	var out []string
	for _, t := range ts {
		out = append(out, s.createTable(t))
		if dt := s.createDistributed(t); dt != "" {
			out = append(out, dt)
		}
	}
	return out
}

// noStatements is a migration that only adds columns.
func noStatements(schema) []string { return nil }
