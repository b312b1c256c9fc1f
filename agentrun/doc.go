// Package agentrun is the data model of one agent run: the Trajectory the
// extractor rebuilds from spans, with its tool calls, model calls, messages
// and steps. Every stage (extractor, scorer, judge, exporters, offline
// evaluation) speaks these types; the package imports nothing else of the
// project, as pdata does for the OpenTelemetry Collector.
package agentrun
