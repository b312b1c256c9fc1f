// Package judgemetric holds what every LLM-judge metric shares: the
// dependencies a judge metric is built with (Deps), the Caller that sends
// one metric evaluation's judge requests through a fresh Sanitizer each
// and sums their usage and flags, and strict helpers to pull JSON out of
// judge answers. The metrics themselves live in the subpackages vertex,
// adk and ragas.
package judgemetric
