// Package offline runs the online metrics offline: `sidecar eval` scores a
// Vertex/Ragas-style dataset, or an ADK eval set joined with the runs
// rebuilt from captured OTLP files, with the same engine and metric
// registry as `sidecar serve`, and checks the scores against criteria.
package offline
