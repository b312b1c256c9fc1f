// Package extractor turns OTLP spans and log records into agent trajectories.
//
// The Assembler buffers spans by trace id until a trace is complete, then
// convention decoders (one file per instrumentation convention) rebuild each
// top-level agent run as an agentrun.Trajectory and hand it to a Sink.
package extractor
