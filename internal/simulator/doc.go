// Package simulator is a built-in LLM agent that sends its runs to the
// sidecar over OTLP, using the real OpenTelemetry Go SDK and exporters.
//
// It drives `sidecar demo`, the end-to-end tests and the alerting tests: each
// run follows one of three scenarios (on-device, customer-support,
// content-creation), is recorded as OpenTelemetry GenAI spans
// (invoke_agent → chat → execute_tool → chat …), and is returned as a Run
// that states what the agent really did, so tests can compare what the
// sidecar rebuilt with the truth. A Degraded release fails tools more often,
// repeats calls, sends invalid arguments and sometimes ends without an answer.
//
// The simulator is a client: it does not import the receiver, extractor,
// scorer or exporter packages.
package simulator
