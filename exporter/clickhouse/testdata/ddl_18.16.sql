-- server 18.16.1, features: low_cardinality_setting
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
    timestamp DateTime('UTC'),
    run_start DateTime('UTC'),
    trace_id String,
    span_id String,
    service LowCardinality(String),
    service_version LowCardinality(String),
    environment LowCardinality(String),
    agent LowCardinality(String),
    session_id String,
    metric LowCardinality(String),
    metric_version LowCardinality(String),
    score Float64,
    label String,
    explanation String,
    confidence Float64,
    passed Nullable(UInt8),
    details String,
    judge_provider LowCardinality(String),
    judge_model LowCardinality(String),
    judge_input_tokens UInt64,
    judge_output_tokens UInt64,
    judge_latency_seconds Float64,
    judge_cost_usd Float64,
    judge_cached UInt8,
    sidecar_version LowCardinality(String),
    row_key UInt64
)
ENGINE = ReplacingMergeTree()
PARTITION BY toDate(timestamp)
ORDER BY (metric, service, agent, toStartOfHour(timestamp), row_key)
SETTINGS index_granularity = 8192;

CREATE TABLE IF NOT EXISTS evalsidecar.trajectories
(
    start DateTime('UTC'),
    end DateTime('UTC'),
    trace_id String,
    span_id String,
    service LowCardinality(String),
    service_version LowCardinality(String),
    environment LowCardinality(String),
    agent LowCardinality(String),
    session_id String,
    convention LowCardinality(String),
    latency_seconds Float64,
    failed UInt8,
    error_type String,
    input String,
    output String,
    instructions String,
    tool_names Array(String),
    tool_errors Array(String),
    llm_calls UInt32,
    models Array(String),
    input_tokens UInt64,
    output_tokens UInt64,
    tool_calls_json String,
    replies String,
    attributes String,
    truncated UInt8,
    sidecar_version LowCardinality(String),
    row_key UInt64
)
ENGINE = ReplacingMergeTree()
PARTITION BY toDate(start)
ORDER BY (service, agent, toStartOfHour(start), row_key)
SETTINGS index_granularity = 8192;

CREATE TABLE IF NOT EXISTS evalsidecar.tool_calls
(
    start DateTime('UTC'),
    trace_id String,
    run_span_id String,
    span_id String,
    position UInt32,
    tool LowCardinality(String),
    call_id String,
    service LowCardinality(String),
    service_version LowCardinality(String),
    agent LowCardinality(String),
    run_agent LowCardinality(String),
    arguments_bytes UInt32,
    arguments_valid UInt8,
    result_bytes UInt32,
    error String,
    arguments String,
    result String,
    failed UInt8,
    repeated UInt8,
    duration_seconds Float64,
    sidecar_version LowCardinality(String),
    row_key UInt64
)
ENGINE = ReplacingMergeTree()
PARTITION BY toDate(start)
ORDER BY (tool, agent, toStartOfHour(start), row_key)
SETTINGS index_granularity = 8192;

CREATE TABLE IF NOT EXISTS evalsidecar.eval_decisions
(
    timestamp DateTime('UTC'),
    trace_id String,
    span_id String,
    service LowCardinality(String),
    service_version LowCardinality(String),
    agent LowCardinality(String),
    metric LowCardinality(String),
    decision LowCardinality(String),
    reason String,
    judge_provider LowCardinality(String),
    judge_model LowCardinality(String),
    judge_input_tokens UInt64,
    judge_output_tokens UInt64,
    judge_cost_usd Float64,
    sidecar_version LowCardinality(String),
    row_key UInt64
)
ENGINE = ReplacingMergeTree()
PARTITION BY toDate(timestamp)
ORDER BY (decision, metric, agent, toStartOfHour(timestamp), row_key)
SETTINGS index_granularity = 8192;

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
    timestamp DateTime('UTC'),
    trace_id String,
    span_id String,
    service LowCardinality(String),
    metric LowCardinality(String),
    has_value UInt8,
    value Float64,
    label String,
    explanation String,
    annotator String,
    sidecar_version LowCardinality(String),
    row_key UInt64
)
ENGINE = ReplacingMergeTree()
PARTITION BY toDate(timestamp)
ORDER BY (metric, toStartOfHour(timestamp), row_key)
SETTINGS index_granularity = 8192;

