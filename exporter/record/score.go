package record

import (
	"time"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// ScoreRecord is one metric result as written to scores.jsonl.
type ScoreRecord struct {
	// Timestamp is when the score was produced (exported), not when the
	// run happened.
	Timestamp   Time           `json:"timestamp"`
	TraceID     string         `json:"trace_id"`
	SpanID      string         `json:"span_id"`
	Service     string         `json:"service"`
	Agent       string         `json:"agent"`
	SessionID   string         `json:"session_id"`
	Metric      string         `json:"metric"`
	Score       float64        `json:"score"`
	Label       string         `json:"label"`
	Explanation string         `json:"explanation"`
	Confidence  float64        `json:"confidence"`
	Details     map[string]any `json:"details"`
	Judge       *JudgeRecord   `json:"judge"`
}

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

// Scores converts every result of e to a record stamped with the current
// time. See ScoresAt.
func Scores(e *scorer.Evaluation) []ScoreRecord {
	return ScoresAt(e, time.Now())
}

// ScoresAt converts every result of e to a record stamped with at. Details
// are copied, with non-finite numbers (which JSON cannot carry) replaced by
// null; rubric verdicts are added to Details under VerdictsKey. A nil
// Trajectory gives records without run identity.
func ScoresAt(e *scorer.Evaluation, at time.Time) []ScoreRecord {
	if len(e.Results) == 0 {
		return []ScoreRecord{}
	}
	id := runOf(e)
	base := ScoreRecord{Timestamp: NewTime(at), TraceID: id.traceID, SpanID: id.spanID,
		Service: id.service, Agent: id.agent, SessionID: id.sessionID}
	out := make([]ScoreRecord, len(e.Results))
	for i := range e.Results {
		res := &e.Results[i]
		r := base
		r.Metric = res.Metric
		r.Score = res.Score
		r.Label = res.Label
		r.Explanation = res.Explanation
		r.Confidence = res.Confidence
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

func details(res *scorer.Result) map[string]any {
	d := make(map[string]any, len(res.Details)+1)
	for k, v := range res.Details {
		d[k] = sanitize(v)
	}
	if len(res.Verdicts) > 0 {
		if _, taken := d[VerdictsKey]; !taken {
			vs := make([]map[string]any, len(res.Verdicts))
			for i, v := range res.Verdicts {
				vs[i] = map[string]any{"rubric": v.Rubric, "pass": v.Pass, "reason": v.Reason}
			}
			d[VerdictsKey] = vs
		}
	}
	return d
}
