// Package sampling decides which runs an LLM-judge metric judges, and
// says why ([Decision]).
//
// It holds pure logic, no I/O:
//
//   - [Sampled]: deterministic sampling by trace id. Every metric with the
//     same rate judges the same runs, and a metric at a lower rate judges a
//     subset of the runs a metric at a higher rate judges.
//   - [Filter]: which runs a judge metric applies to (service, agent,
//     environment, service version, attributes; exact values or globs).
//   - [RuleConfig]: always-judge rules (failed runs, tool errors, a high
//     unsupported_facts score, a low deterministic score) that override
//     sampling, each capped per minute.
//   - [Policy]: one judge metric's filter, rate and rules, built from a
//     [Config]; [Policy.Decide] returns a [Decision] for a [Run].
//   - [Cache]: a bounded LRU cache with a TTL for judge results, keyed by
//     metric, judge and a hash of the judged content ([NewKey]), with
//     single-flight so identical concurrent requests are computed once.
//
// A Policy and a Cache are safe for concurrent use.
package sampling
