// Package stage runs the LLM-judge metrics of live runs off the
// ingestion path. The scorer engine offers it every evaluated run; the
// stage decides per judge metric (inputs present, filter, sampling rate,
// always-judge rules, result cache), queues the runs to judge on a bounded
// queue per judge, and its workers call the metrics under their budgets
// and export the results as follow-up evaluations. Every decision is
// recorded in the judge ledger (Evaluation.Decisions) and counted.
package stage
