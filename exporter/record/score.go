package record

import (
	"time"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// ScoreRecord is one metric result as written to scores.jsonl.
type ScoreRecord struct {
	// Timestamp is when the score was produced (exported), not when the
	// run happened.
	Timestamp   Time    `json:"timestamp"`
	TraceID     string  `json:"trace_id"`
	SpanID      string  `json:"span_id"`
	Service     string  `json:"service"`
	Agent       string  `json:"agent"`
	SessionID   string  `json:"session_id"`
	Metric      string  `json:"metric"`
	Score       float64 `json:"score"`
	Label       string  `json:"label"`
	Explanation string  `json:"explanation"`
	Confidence  float64 `json:"confidence"`
	// Passed is the metric's pass rule applied to the score; null when
	// the metric has no pass rule.
	Passed  *bool          `json:"passed"`
	Details map[string]any `json:"details"`
	Judge   *JudgeRecord   `json:"judge"`
	// Scope is ScopeSession on the scores of a session (trace_id and
	// span_id empty, session_id the key); absent on a run's scores.
	Scope string `json:"scope,omitempty"`
}

// ScopeSession marks the score records of a session.
const ScopeSession = "session"

// JudgeRecord describes the LLM judge calls behind a score, summed over
// the calls the metric made.
type JudgeRecord struct {
	Judge          string  `json:"judge"`
	Provider       string  `json:"provider"`
	Model          string  `json:"model"`
	InputTokens    int64   `json:"input_tokens"`
	OutputTokens   int64   `json:"output_tokens"`
	CostUSD        float64 `json:"cost_usd"`
	LatencySeconds float64 `json:"latency_seconds"`
	Calls          int     `json:"calls"`
	Attempts       int     `json:"attempts"`
	// Cached: the score was reused from an identical earlier run; no
	// call was made for this one and its tokens and cost are zero.
	Cached bool `json:"cached"`
}

// VerdictsKey is the Details key under which a rubric metric's verdicts
// are recorded, unless the metric already set that key itself.
const VerdictsKey = "verdicts"

// ScoresAt converts every result of e to a record stamped with at. Details
// are copied, with non-finite numbers (which JSON cannot carry) replaced by
// null; rubric verdicts are added to Details under VerdictsKey. A nil
// Trajectory gives records without run identity; a session's records
// carry its id, service and agent and the session scope.
func ScoresAt(e *scorer.Evaluation, at time.Time) []ScoreRecord {
	if len(e.Results) == 0 {
		return []ScoreRecord{}
	}
	id := runOf(e)
	base := ScoreRecord{Timestamp: NewTime(at), TraceID: id.traceID, SpanID: id.spanID,
		Service: id.service, Agent: id.agent, SessionID: id.sessionID}
	if e.Session != nil {
		base.Scope = ScopeSession
	}
	out := make([]ScoreRecord, len(e.Results))
	for i := range e.Results {
		res := &e.Results[i]
		r := base
		r.Metric = res.Metric
		r.Score = res.Score
		r.Label = res.Label
		r.Explanation = res.Explanation
		r.Confidence = res.Confidence
		r.Passed = res.Passed
		r.Details = details(res)
		if j := res.Judge; j != nil {
			r.Judge = &JudgeRecord{
				Judge:          j.Judge,
				Provider:       j.Provider,
				Model:          j.Model,
				InputTokens:    j.InputTokens,
				OutputTokens:   j.OutputTokens,
				CostUSD:        j.CostUSD,
				LatencySeconds: j.Latency.Seconds(),
				Calls:          j.Calls,
				Attempts:       j.Attempts,
				Cached:         j.Cached,
			}
		}
		out[i] = r
	}
	return out
}

// verdictRecord is one rubric verdict in Details. Its fields are in the
// order encoding/json writes a map's sorted keys, so it reads as the
// object {"pass", "reason", "rubric"}.
type verdictRecord struct {
	Pass   bool   `json:"pass"`
	Reason string `json:"reason"`
	Rubric string `json:"rubric"`
}

func details(res *scorer.Result) map[string]any {
	n := len(res.Details)
	if len(res.Verdicts) > 0 {
		n++
	}
	d := make(map[string]any, n)
	for k, v := range res.Details {
		d[k] = sanitize(v)
	}
	if len(res.Verdicts) > 0 {
		if _, taken := d[VerdictsKey]; !taken {
			vs := make([]verdictRecord, len(res.Verdicts))
			for i, v := range res.Verdicts {
				vs[i] = verdictRecord{Pass: v.Pass, Reason: v.Reason, Rubric: v.Rubric}
			}
			d[VerdictsKey] = vs
		}
	}
	return d
}
