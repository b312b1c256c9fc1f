// Package clickhouse writes evaluations, trajectories, tool calls and
// ledger decisions to ClickHouse with batched native inserts. Sealed batches
// pass through a bounded spool (on disk when a directory is set) so that an
// unreachable or restarted server, or a restart of the sidecar, loses no
// acknowledged row; each batch carries a deterministic deduplication token
// and each row a deterministic key.
package clickhouse

import (
	"regexp"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/configretry"
	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/internal/queue"
)

// Config configures the ClickHouse exporter.
type Config struct {
	// Enabled turns the exporter on.
	Enabled bool `yaml:"enabled"`
	// Endpoint is the server as a clickhouse-go DSN, e.g.
	// clickhouse://user:pass@host:9000/db. The database of the DSN is used
	// for the connection only; tables live in Database.
	Endpoint string `yaml:"endpoint"`
	// Database holds the tables.
	Database string `yaml:"database"`
	// Tables names the tables.
	Tables TableNames `yaml:"tables"`
	// CreateSchema creates the database, tables and schema_migrations at
	// start (and applies pending migrations).
	CreateSchema bool `yaml:"create_schema"`
	// TTL is how long rows are kept (servers from 19.6); 0 keeps them.
	TTL time.Duration `yaml:"ttl"`
	// Engine is the table engine family: "replacing_merge_tree" collapses
	// rows with the same key on merges (read with FINAL), "merge_tree"
	// keeps every row.
	Engine string `yaml:"engine"`
	// Cluster, when set, creates local tables (<table>_local) and
	// Distributed tables over them on this cluster.
	Cluster string `yaml:"cluster"`
	// ClusterReplicated uses the Replicated* engine family for the local
	// tables (needs ZooKeeper/Keeper and the {shard}/{replica} macros).
	ClusterReplicated bool `yaml:"cluster_replicated"`
	// ClusterDDL runs the DDL ON CLUSTER (needs distributed DDL); when
	// false, run it on every node yourself or let each sidecar create it.
	ClusterDDL bool `yaml:"cluster_ddl"`
	// ReplicaPath is the ZooKeeper path of replicated tables.
	ReplicaPath string `yaml:"replica_path"`
	// ReplicaName is the replica name of replicated tables.
	ReplicaName string `yaml:"replica_name"`
	// ShardingKey is the Distributed tables' sharding expression. It must
	// be deterministic so that a replayed batch reaches the same shard.
	ShardingKey string `yaml:"sharding_key"`

	// BatchRows seals a table's batch when it holds this many rows.
	BatchRows int `yaml:"batch_rows"`
	// FlushInterval seals every non-empty batch this often.
	FlushInterval time.Duration `yaml:"flush_interval"`
	// SendingQueue holds sealed batches until they are written to the
	// spool. Its queue_size is in rows: the rows accepted but not yet
	// spooled, over all tables (open batches included); beyond it
	// evaluations are dropped and counted.
	SendingQueue queue.Config `yaml:"sending_queue"`
	// Timeout bounds one insert (and each schema statement).
	Timeout time.Duration `yaml:"timeout"`
	// DialTimeout bounds connecting to the server.
	DialTimeout time.Duration `yaml:"dial_timeout"`
	// RetryOnFailure is the backoff for retryable errors. A batch given
	// up (retrying off, or max_elapsed_time passed) is dropped and
	// counted (retries_exhausted).
	RetryOnFailure configretry.BackOffConfig `yaml:"retry_on_failure"`
	// ParkInterval is how often a parked batch (one the server refused
	// for its schema) is tried again.
	ParkInterval time.Duration `yaml:"park_interval"`
	// MaxParkDuration drops a batch that stayed parked this long (counted
	// as permanent_error); 0 keeps it until the schema is repaired.
	MaxParkDuration time.Duration `yaml:"max_park_duration"`
	// Spool holds sealed batches until ClickHouse has them.
	Spool SpoolConfig `yaml:"spool"`
}

// TableNames are the table names.
type TableNames struct {
	Evaluations   string `yaml:"evaluations"`
	Trajectories  string `yaml:"trajectories"`
	ToolCalls     string `yaml:"tool_calls"`
	EvalDecisions string `yaml:"eval_decisions"`
	// Metrics is the metrics dimension table: each configured metric's
	// direction, unit, bounds and pass rule, written at start.
	Metrics string `yaml:"metrics"`
	// Feedback holds people's judgements of runs, keyed like evaluations
	// by trace id and metric.
	Feedback string `yaml:"feedback"`
}

// SpoolConfig configures the spool of sealed batches.
type SpoolConfig struct {
	// Directory holds one file per batch; empty keeps batches in memory
	// only (lost on a crash).
	Directory string `yaml:"directory"`
	// MaxBytes caps the spool (encoded batch bytes over all tables).
	MaxBytes int64 `yaml:"max_bytes"`
	// Fsync syncs every batch file (and its directory) before the batch
	// counts as accepted; without it a machine crash can lose the last
	// batches.
	Fsync bool `yaml:"fsync"`
	// DropPolicy chooses what a full spool drops, a whole seal (every
	// table's batch sealed together) at a time: "drop_oldest" deletes the
	// oldest waiting seal, "drop_newest" refuses the new one.
	DropPolicy string `yaml:"drop_policy"`
}

// Engine names.
const (
	EngineMergeTree          = "merge_tree"
	EngineReplacingMergeTree = "replacing_merge_tree"
)

// Spool drop policies.
const (
	DropOldest = "drop_oldest"
	DropNewest = "drop_newest"
)

// Default table names.
const (
	DefaultEvaluationsTable   = "evaluations"
	DefaultTrajectoriesTable  = "trajectories"
	DefaultToolCallsTable     = "tool_calls"
	DefaultEvalDecisionsTable = "eval_decisions"
	DefaultMetricsTable       = "metrics"
	DefaultFeedbackTable      = "feedback"
	DefaultDatabase           = "evalsidecar"
)

func defaultTableNames() TableNames {
	return TableNames{Evaluations: DefaultEvaluationsTable, Trajectories: DefaultTrajectoriesTable, ToolCalls: DefaultToolCallsTable,
		EvalDecisions: DefaultEvalDecisionsTable, Metrics: DefaultMetricsTable, Feedback: DefaultFeedbackTable}
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		Enabled:           false,
		Endpoint:          "clickhouse://127.0.0.1:9000",
		Database:          DefaultDatabase,
		Tables:            defaultTableNames(),
		CreateSchema:      true,
		TTL:               30 * 24 * time.Hour,
		Engine:            EngineReplacingMergeTree,
		ClusterReplicated: true,
		ClusterDDL:        true,
		ReplicaPath:       "/clickhouse/tables/{shard}/{database}/{table}",
		ReplicaName:       "{replica}",
		ShardingKey:       "cityHash64(trace_id)",
		BatchRows:         10000,
		FlushInterval:     time.Second,
		SendingQueue:      queue.Config{Enabled: true, NumConsumers: 1, QueueSize: 200000},
		Timeout:           30 * time.Second,
		DialTimeout:       5 * time.Second,
		RetryOnFailure: configretry.BackOffConfig{
			Enabled:             true,
			InitialInterval:     time.Second,
			RandomizationFactor: 0.2,
			Multiplier:          1.5,
			MaxInterval:         30 * time.Second,
			MaxElapsedTime:      0,
		},
		ParkInterval:    30 * time.Second,
		MaxParkDuration: 0,
		Spool: SpoolConfig{
			Directory:  "./evalsidecar-data/clickhouse-spool",
			MaxBytes:   1 << 30,
			Fsync:      true,
			DropPolicy: DropOldest,
		},
	}
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Validate reports every invalid key.
func (c Config) Validate() error {
	var v errs.Checks
	v.Check(c.Enabled && c.Endpoint == "", "endpoint: must not be empty")
	ident := func(key, s string) {
		v.Check(!identRE.MatchString(s), "%s: %q is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*)", key, s)
	}
	ident("database", c.Database)
	seen := map[string]string{}
	for _, kv := range [][2]string{
		{"tables.evaluations", c.Tables.Evaluations}, {"tables.trajectories", c.Tables.Trajectories},
		{"tables.tool_calls", c.Tables.ToolCalls}, {"tables.eval_decisions", c.Tables.EvalDecisions},
		{"tables.metrics", c.Tables.Metrics}, {"tables.feedback", c.Tables.Feedback},
	} {
		ident(kv[0], kv[1])
		other, dup := seen[kv[1]]
		v.Check(dup, "%s: same table name %q as %s", kv[0], kv[1], other)
		seen[kv[1]] = kv[0]
		v.Check(kv[1] == migrationsTable, "%s: %q is reserved", kv[0], kv[1])
	}
	if c.Cluster != "" {
		ident("cluster", c.Cluster)
		v.Check(c.ShardingKey == "", "sharding_key: must not be empty in cluster mode")
		v.Check(c.ClusterReplicated && (c.ReplicaPath == "" || c.ReplicaName == ""), "replica_path, replica_name: must not be empty with cluster_replicated")
	}
	v.Check(c.TTL < 0 || c.TTL%time.Second != 0, "ttl: must be >= 0 and whole seconds, got %s", c.TTL)
	v.Check(c.Engine != EngineMergeTree && c.Engine != EngineReplacingMergeTree, "engine: must be %q or %q, got %q", EngineMergeTree, EngineReplacingMergeTree, c.Engine)
	v.Check(c.BatchRows <= 0, "batch_rows: must be > 0, got %d", c.BatchRows)
	v.Check(c.FlushInterval <= 0, "flush_interval: must be > 0, got %s", c.FlushInterval)
	v.Check(c.Timeout <= 0, "timeout: must be > 0, got %s", c.Timeout)
	v.Check(c.DialTimeout <= 0, "dial_timeout: must be > 0, got %s", c.DialTimeout)
	v.Check(c.ParkInterval <= 0, "park_interval: must be > 0, got %s", c.ParkInterval)
	v.Check(c.SendingQueue.Enabled && c.SendingQueue.QueueSize < c.BatchRows, "sending_queue.queue_size: must be >= batch_rows (%d), got %d", c.BatchRows, c.SendingQueue.QueueSize)
	v.Check(c.MaxParkDuration < 0, "max_park_duration: must be >= 0, got %s", c.MaxParkDuration)
	v.Check(c.Spool.MaxBytes <= 0, "spool.max_bytes: must be > 0, got %d", c.Spool.MaxBytes)
	v.Check(c.Spool.DropPolicy != DropOldest && c.Spool.DropPolicy != DropNewest, "spool.drop_policy: must be %q or %q, got %q", DropOldest, DropNewest, c.Spool.DropPolicy)
	v.Add(errs.Prefix("sending_queue.", c.SendingQueue.Validate()), errs.Prefix("retry_on_failure.", c.RetryOnFailure.Validate()))
	return v.Err()
}
