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

func render(name string, data any) (string, error) {
	var buf bytes.Buffer
	if err := sqlTemplates.ExecuteTemplate(&buf, name, data); err != nil {
		return "", fmt.Errorf("render %s: %w", name, err)
	}
	return strings.TrimSpace(buf.String()), nil
}

func (s schema) onCluster() string {
	if s.cfg.Cluster != "" && s.cfg.ClusterDDL {
		return " ON CLUSTER " + s.cfg.Cluster
	}
	return ""
}

// insertTable is the table rows are inserted into: the Distributed table
// in cluster mode, else the table itself.
func (s schema) insertTable(t tableID) string { return s.cfg.Tables.name(t) }

// storageTable is the MergeTree table that stores t's rows.
func (s schema) storageTable(t tableID) string {
	if s.cfg.Cluster != "" {
		return s.cfg.Tables.name(t) + localSuffix
	}
	return s.cfg.Tables.name(t)
}

func (s schema) engine(table string) string {
	name := "MergeTree"
	if s.cfg.Engine == EngineReplacingMergeTree {
		name = "ReplacingMergeTree"
	}
	if s.cfg.Cluster != "" && s.cfg.ClusterReplicated {
		path := strings.NewReplacer("{database}", s.cfg.Database, "{table}", table).Replace(s.cfg.ReplicaPath)
		return fmt.Sprintf("Replicated%s('%s', '%s')", name, path, s.cfg.ReplicaName)
	}
	return name + "()"
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

// createTable renders the CREATE TABLE of t's storage table.
func (s schema) createTable(t tableID) (string, error) {
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
		e := c.name + " " + c.kind.chType(s.f)
		if s.f.Codecs && c.codec != "" {
			e += " CODEC(" + c.codec + ")"
		}
		d.Elements = append(d.Elements, e)
	}
	if s.f.SkipIndexes {
		for _, col := range def.bloom {
			d.Elements = append(d.Elements, fmt.Sprintf("INDEX idx_%s %s TYPE bloom_filter(0.001) GRANULARITY 1", col, col))
		}
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
func (s schema) createDistributed(t tableID) (string, error) {
	if s.cfg.Cluster == "" {
		return "", nil
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

// createDatabase renders CREATE DATABASE.
func (s schema) createDatabase() (string, error) {
	return render("database.sql.tmpl", tableData{Database: s.cfg.Database, OnCluster: s.onCluster()})
}

// createMigrations renders the schema_migrations table.
func (s schema) createMigrations() (string, error) {
	return render("migrations.sql.tmpl", tableData{Database: s.cfg.Database, Table: migrationsTable, OnCluster: s.onCluster()})
}

// insertSQL is the INSERT with its explicit column list (18.16 needs it
// for PrepareBatch, and it makes a missing column an error rather than a
// silently defaulted value).
func (s schema) insertSQL(t tableID, columns []column) string {
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s.%s (", s.cfg.Database, s.insertTable(t))
	for i, c := range columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.name)
	}
	b.WriteString(")")
	return b.String()
}

// migration is one step of the schema's history. Statements must be
// idempotent (IF NOT EXISTS) so that two sidecars starting together, or a
// start interrupted half way, converge.
type migration struct {
	version    uint32
	name       string
	statements func(s schema) ([]string, error)
}

// migrations is the schema's history, oldest first. A later version adds
// columns with a new entry (ALTER TABLE … ADD COLUMN IF NOT EXISTS on the
// storage table and, in cluster mode, the Distributed table).
var migrations = []migration{
	{version: 1, name: "create tables", statements: func(s schema) ([]string, error) {
		var out []string
		for t := range numTables {
			ct, err := s.createTable(t)
			if err != nil {
				return nil, err
			}
			out = append(out, ct)
			dt, err := s.createDistributed(t)
			if err != nil {
				return nil, err
			}
			if dt != "" {
				out = append(out, dt)
			}
		}
		return out, nil
	}},
}

// ddl returns every statement a fresh install runs, in order: database,
// migrations table, then each migration.
func (s schema) ddl() ([]string, error) {
	db, err := s.createDatabase()
	if err != nil {
		return nil, err
	}
	mt, err := s.createMigrations()
	if err != nil {
		return nil, err
	}
	out := []string{db, mt}
	for _, m := range migrations {
		st, err := m.statements(s)
		if err != nil {
			return nil, err
		}
		out = append(out, st...)
	}
	return out, nil
}
