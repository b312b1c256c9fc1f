-- server 24.8.1, features: ttl,ttl_only_drop_parts,codecs,datetime64,skip_indexes,non_replicated_dedup,dedup_token
CREATE DATABASE IF NOT EXISTS evalsidecar;

CREATE TABLE IF NOT EXISTS evalsidecar.schema_migrations
(
    version UInt32,
    name String,
    applied_at DateTime('UTC'),
    sidecar_version String
)
ENGINE = MergeTree()
ORDER BY version;

CREATE TABLE IF NOT EXISTS evalsidecar.evaluations
(
    timestamp DateTime64(9, 'UTC') CODEC(Delta, ZSTD(1)),
    run_start DateTime64(9, 'UTC') CODEC(Delta, ZSTD(1)),
    trace_id String CODEC(ZSTD(1)),
    span_id String CODEC(ZSTD(1)),
    service LowCardinality(String) CODEC(ZSTD(1)),
    service_version LowCardinality(String) CODEC(ZSTD(1)),
    environment LowCardinality(String) CODEC(ZSTD(1)),
    agent LowCardinality(String) CODEC(ZSTD(1)),
    session_id String CODEC(ZSTD(1)),
    metric LowCardinality(String) CODEC(ZSTD(1)),
    metric_version LowCardinality(String) CODEC(ZSTD(1)),
    score Float64 CODEC(ZSTD(1)),
    label String CODEC(ZSTD(1)),
    explanation String CODEC(ZSTD(1)),
    confidence Float64 CODEC(ZSTD(1)),
    passed Nullable(UInt8) CODEC(ZSTD(1)),
    details String CODEC(ZSTD(1)),
    judge_provider LowCardinality(String) CODEC(ZSTD(1)),
    judge_model LowCardinality(String) CODEC(ZSTD(1)),
    judge_input_tokens UInt64 CODEC(ZSTD(1)),
    judge_output_tokens UInt64 CODEC(ZSTD(1)),
    judge_latency_seconds Float64 CODEC(ZSTD(1)),
    judge_cost_usd Float64 CODEC(ZSTD(1)),
    judge_cached UInt8 CODEC(ZSTD(1)),
    sidecar_version LowCardinality(String) CODEC(ZSTD(1)),
    row_key UInt64,
    INDEX idx_trace_id trace_id TYPE bloom_filter(0.001) GRANULARITY 1
)
ENGINE = ReplacingMergeTree()
PARTITION BY toDate(timestamp)
ORDER BY (metric, service, agent, toStartOfHour(timestamp), row_key)
TTL toDateTime(timestamp) + toIntervalDay(30)
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS evalsidecar.trajectories
(
    start DateTime64(9, 'UTC') CODEC(Delta, ZSTD(1)),
    end DateTime64(9, 'UTC') CODEC(Delta, ZSTD(1)),
    trace_id String CODEC(ZSTD(1)),
    span_id String CODEC(ZSTD(1)),
    service LowCardinality(String) CODEC(ZSTD(1)),
    service_version LowCardinality(String) CODEC(ZSTD(1)),
    environment LowCardinality(String) CODEC(ZSTD(1)),
    agent LowCardinality(String) CODEC(ZSTD(1)),
    session_id String CODEC(ZSTD(1)),
    convention LowCardinality(String) CODEC(ZSTD(1)),
    latency_seconds Float64 CODEC(ZSTD(1)),
    failed UInt8 CODEC(ZSTD(1)),
    error_type String CODEC(ZSTD(1)),
    input String CODEC(ZSTD(1)),
    output String CODEC(ZSTD(1)),
    instructions String CODEC(ZSTD(1)),
    tool_names Array(String) CODEC(ZSTD(1)),
    tool_errors Array(String) CODEC(ZSTD(1)),
    llm_calls UInt32 CODEC(ZSTD(1)),
    models Array(String) CODEC(ZSTD(1)),
    input_tokens UInt64 CODEC(ZSTD(1)),
    output_tokens UInt64 CODEC(ZSTD(1)),
    tool_calls_json String CODEC(ZSTD(1)),
    replies String CODEC(ZSTD(1)),
    attributes String CODEC(ZSTD(1)),
    truncated UInt8 CODEC(ZSTD(1)),
    sidecar_version LowCardinality(String) CODEC(ZSTD(1)),
    row_key UInt64,
    INDEX idx_trace_id trace_id TYPE bloom_filter(0.001) GRANULARITY 1
)
ENGINE = ReplacingMergeTree()
PARTITION BY toDate(start)
ORDER BY (service, agent, toStartOfHour(start), row_key)
TTL toDateTime(start) + toIntervalDay(30)
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS evalsidecar.tool_calls
(
    start DateTime64(9, 'UTC') CODEC(Delta, ZSTD(1)),
    trace_id String CODEC(ZSTD(1)),
    run_span_id String CODEC(ZSTD(1)),
    span_id String CODEC(ZSTD(1)),
    position UInt32 CODEC(ZSTD(1)),
    tool LowCardinality(String) CODEC(ZSTD(1)),
    call_id String CODEC(ZSTD(1)),
    service LowCardinality(String) CODEC(ZSTD(1)),
    service_version LowCardinality(String) CODEC(ZSTD(1)),
    agent LowCardinality(String) CODEC(ZSTD(1)),
    run_agent LowCardinality(String) CODEC(ZSTD(1)),
    arguments_bytes UInt32 CODEC(ZSTD(1)),
    arguments_valid UInt8 CODEC(ZSTD(1)),
    result_bytes UInt32 CODEC(ZSTD(1)),
    error String CODEC(ZSTD(1)),
    arguments String CODEC(ZSTD(1)),
    result String CODEC(ZSTD(1)),
    failed UInt8 CODEC(ZSTD(1)),
    repeated UInt8 CODEC(ZSTD(1)),
    duration_seconds Float64 CODEC(ZSTD(1)),
    sidecar_version LowCardinality(String) CODEC(ZSTD(1)),
    row_key UInt64,
    INDEX idx_trace_id trace_id TYPE bloom_filter(0.001) GRANULARITY 1
)
ENGINE = ReplacingMergeTree()
PARTITION BY toDate(start)
ORDER BY (tool, agent, toStartOfHour(start), row_key)
TTL toDateTime(start) + toIntervalDay(30)
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS evalsidecar.eval_decisions
(
    timestamp DateTime64(9, 'UTC') CODEC(Delta, ZSTD(1)),
    trace_id String CODEC(ZSTD(1)),
    span_id String CODEC(ZSTD(1)),
    service LowCardinality(String) CODEC(ZSTD(1)),
    service_version LowCardinality(String) CODEC(ZSTD(1)),
    agent LowCardinality(String) CODEC(ZSTD(1)),
    metric LowCardinality(String) CODEC(ZSTD(1)),
    decision LowCardinality(String) CODEC(ZSTD(1)),
    reason String CODEC(ZSTD(1)),
    judge_provider LowCardinality(String) CODEC(ZSTD(1)),
    judge_model LowCardinality(String) CODEC(ZSTD(1)),
    judge_input_tokens UInt64 CODEC(ZSTD(1)),
    judge_output_tokens UInt64 CODEC(ZSTD(1)),
    judge_cost_usd Float64 CODEC(ZSTD(1)),
    sidecar_version LowCardinality(String) CODEC(ZSTD(1)),
    row_key UInt64,
    INDEX idx_trace_id trace_id TYPE bloom_filter(0.001) GRANULARITY 1
)
ENGINE = ReplacingMergeTree()
PARTITION BY toDate(timestamp)
ORDER BY (decision, metric, agent, toStartOfHour(timestamp), row_key)
TTL toDateTime(timestamp) + toIntervalDay(30)
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS evalsidecar.metrics
(
    name String,
    direction String,
    unit String,
    min Nullable(Float64),
    max Nullable(Float64),
    threshold Nullable(Float64),
    comparison String,
    description String,
    updated DateTime('UTC')
)
ENGINE = ReplacingMergeTree(updated)
ORDER BY name;

CREATE TABLE IF NOT EXISTS evalsidecar.feedback
(
    timestamp DateTime64(9, 'UTC') CODEC(Delta, ZSTD(1)),
    trace_id String CODEC(ZSTD(1)),
    span_id String CODEC(ZSTD(1)),
    service LowCardinality(String) CODEC(ZSTD(1)),
    metric LowCardinality(String) CODEC(ZSTD(1)),
    has_value UInt8 CODEC(ZSTD(1)),
    value Float64 CODEC(ZSTD(1)),
    label String CODEC(ZSTD(1)),
    explanation String CODEC(ZSTD(1)),
    annotator String CODEC(ZSTD(1)),
    sidecar_version LowCardinality(String) CODEC(ZSTD(1)),
    row_key UInt64,
    INDEX idx_trace_id trace_id TYPE bloom_filter(0.001) GRANULARITY 1
)
ENGINE = ReplacingMergeTree()
PARTITION BY toDate(timestamp)
ORDER BY (metric, toStartOfHour(timestamp), row_key)
TTL toDateTime(timestamp) + toIntervalDay(30)
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;

