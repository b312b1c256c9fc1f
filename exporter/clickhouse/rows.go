package clickhouse

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// Times outside what DateTime can hold are clamped; a zero (unknown) time
// is replaced by the row's export time by the callers.
var (
	minTime = time.Unix(0, 0).UTC()
	maxTime = time.Date(2105, 12, 31, 23, 59, 59, 0, time.UTC)
)

func clampTime(t, unknown time.Time) time.Time {
	if t.IsZero() {
		t = unknown
	}
	switch {
	case t.Before(minTime):
		return minTime
	case t.After(maxTime):
		return maxTime
	}
	return t.UTC()
}

// rowKey hashes the fields that identify a row. Fields are separated by a
// byte no identifier contains, so ("ab","c") and ("a","bc") differ.
func rowKey(fields ...string) uint64 {
	var buf [192]byte
	b := buf[:0]
	for _, f := range fields {
		b = append(b, f...)
		b = append(b, 0)
	}
	return xxhash.Sum64(b)
}

// metricVersion is the version suffix of a versioned metric id
// ("hallucination_v1" → "1"), or "".
func metricVersion(id string) string {
	i := strings.LastIndex(id, "_v")
	if i < 0 || i+2 == len(id) {
		return ""
	}
	v := id[i+2:]
	if _, err := strconv.ParseUint(v, 10, 32); err != nil {
		return ""
	}
	return v
}

// repliesJSON is the replies column of a run: its model replies as JSON
// when it belongs to a conversation and records model text, else ”.
func repliesJSON(tr *agentrun.Trajectory) string {
	if tr.SessionID == "" {
		return ""
	}
	r := agentrun.Replies(tr)
	if r == nil {
		return ""
	}
	return jsonString(r)
}

func jsonString(v any) string {
	if m, ok := v.(map[string]any); ok && len(m) == 0 {
		return "{}"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// runIdent is the identity of the run (or session) rows belong to.
type runIdent struct{ traceID, spanID, service, version, env, agent, session string }

// rowBuilder turns evaluations into rows of the four tables.
type rowBuilder struct {
	sidecarVersion string
}

// rowsOf returns how many rows e adds to each table.
func rowsOf(e *scorer.Evaluation) [numTables]int {
	var n [numTables]int
	n[tFeedback] = len(e.Feedback)
	n[tEvaluations] = len(e.Results)
	n[tDecisions] = len(e.Results) + len(e.NotApplicable) + len(e.Errors) + ledgerRows(e)
	if e.Trajectory != nil && !e.FollowUp {
		n[tTrajectories] = 1
		n[tToolCalls] = len(e.Trajectory.ToolCalls)
	}
	return n
}

// append writes e's rows into the batches, stamped with now.
func (rb rowBuilder) append(bs *[numTables]*batch, e *scorer.Evaluation, now time.Time) {
	now = now.UTC()
	for i := range e.Feedback {
		rb.feedback(bs[tFeedback], &e.Feedback[i], now)
	}
	var run runIdent
	runStart := now
	tr := e.Trajectory
	if tr != nil {
		run.traceID, run.spanID, run.service = tr.TraceID, tr.RootSpanID, tr.Service
		run.version, run.env, run.agent, run.session = tr.ServiceVersion, tr.Environment, tr.Agent, tr.SessionID
		runStart = clampTime(tr.Start, now)
	}
	ts := clampTime(now, now)
	// Runs without a trace id (offline, synthetic) get a key from the time
	// so that distinct runs never collapse.
	identity := run.traceID
	if identity == "" {
		identity = "t" + strconv.FormatInt(now.UnixNano(), 10)
	}
	if s := e.Session; s != nil {
		// A session's rows have no trace id; they are keyed by the session
		// id and its first turn's start, which no trace id (hex) or
		// time key ("t…") can equal, so a session closed again after
		// max_age keys apart and a re-exported one collapses.
		run.service, run.version, run.env, run.agent, run.session = s.Service, s.ServiceVersion, s.Environment, s.Agent, s.ID
		start := s.Start()
		runStart = clampTime(start, now)
		identity = "s:" + s.ID + ":" + strconv.FormatInt(start.UnixNano(), 10)
		if s.Revision > 1 { // a rescoring keeps apart from the earlier revisions
			identity += ":r" + strconv.Itoa(s.Revision)
		}
	}

	// The record package is the row contract; its sanitised details are
	// needed only when a metric's details cannot be encoded as they are
	// (non-finite numbers) or when rubric verdicts are added.
	var scores []record.ScoreRecord
	for i := range e.Results {
		res := &e.Results[i]
		details, ok := "{}", true
		if len(res.Verdicts) > 0 {
			ok = false
		} else if len(res.Details) > 0 {
			b, err := json.Marshal(res.Details)
			details, ok = string(b), err == nil
		}
		if !ok {
			if scores == nil {
				scores = record.ScoresAt(e, now)
			}
			details = jsonString(scores[i].Details)
		}
		u := res.Judge
		if u == nil {
			u = &scorer.JudgeUsage{}
		}
		w := bs[tEvaluations].row()
		w.time(ts)
		w.time(runStart)
		w.run(&run)
		w.str(res.Metric)
		w.str(metricVersion(res.Metric))
		w.f64(res.Score)
		w.str(res.Label)
		w.str(res.Explanation)
		w.f64(res.Confidence)
		w.verdict(res.Passed)
		w.str(details)
		w.str(u.Provider)
		w.str(u.Model)
		w.u64(nonNegative(u.InputTokens))
		w.u64(nonNegative(u.OutputTokens))
		w.f64(u.Latency.Seconds())
		w.f64(u.CostUSD)
		w.bool(u.Cached)
		rb.end(&w, rowKey(identity, run.spanID, res.Metric, strconv.Itoa(i)))
		rb.decision(bs[tDecisions], ts, &run, res.Metric, DecisionScored, "", u,
			rowKey(identity, run.spanID, res.Metric, DecisionScored, strconv.Itoa(i)))
	}
	for i, m := range e.NotApplicable {
		rb.decision(bs[tDecisions], ts, &run, m, DecisionNotApplicable, "inputs missing", nil,
			rowKey(identity, run.spanID, m, DecisionNotApplicable, strconv.Itoa(i)))
	}
	for i, me := range e.Errors {
		reason := me.Reason
		if me.Err != nil {
			reason += ": " + me.Err.Error()
		}
		rb.decision(bs[tDecisions], ts, &run, me.Metric, DecisionError, reason, nil,
			rowKey(identity, run.spanID, me.Metric, DecisionError, strconv.Itoa(i)))
	}
	for i, ld := range e.Decisions {
		if ledgerOnly(ld.Outcome) {
			rb.decision(bs[tDecisions], ts, &run, ld.Metric, ld.Outcome, ld.Reason, nil,
				rowKey(identity, run.spanID, ld.Metric, ld.Outcome, "ledger", strconv.Itoa(i)))
		}
	}
	if tr == nil || e.FollowUp {
		return
	}

	rec := record.Trajectory(tr)
	toolNames := make([]string, len(tr.ToolCalls))
	toolErrors := make([]string, len(tr.ToolCalls))
	for i := range tr.ToolCalls {
		toolNames[i] = tr.ToolCalls[i].Name
		toolErrors[i] = tr.ToolCalls[i].Error
	}
	models := make([]string, 0, len(tr.LLMCalls))
	var inTok, outTok int64
	for i := range tr.LLMCalls {
		lc := &tr.LLMCalls[i]
		inTok += lc.InputTokens
		outTok += lc.OutputTokens
		if lc.Model != "" && !slices.Contains(models, lc.Model) {
			models = append(models, lc.Model)
		}
	}
	w := bs[tTrajectories].row()
	w.time(runStart)
	w.time(clampTime(tr.End, runStart))
	w.run(&run)
	w.str(tr.Convention)
	w.f64(rec.LatencySeconds)
	w.bool(tr.Failed)
	w.str(tr.ErrorType)
	w.str(tr.Input)
	w.str(tr.Output)
	w.str(tr.Instructions)
	w.strs(toolNames)
	w.strs(toolErrors)
	w.u32(uint32(min(len(tr.LLMCalls), 1<<31)))
	w.strs(models)
	w.u64(nonNegative(inTok))
	w.u64(nonNegative(outTok))
	w.str(jsonString(rec.ToolCalls))
	w.str(repliesJSON(tr))
	w.str(jsonString(rec.Attributes))
	w.bool(tr.Truncated)
	rb.end(&w, rowKey(identity, run.spanID))

	seen := make(map[[2]string]bool, len(tr.ToolCalls))
	for i := range tr.ToolCalls {
		tc := &tr.ToolCalls[i]
		sig := [2]string{tc.Name, tc.Arguments}
		repeated := seen[sig]
		seen[sig] = true
		var dur float64
		if !tc.Start.IsZero() && tc.End.After(tc.Start) {
			dur = tc.End.Sub(tc.Start).Seconds()
		}
		agent := tc.Agent
		if agent == "" {
			agent = run.agent
		}
		w := bs[tToolCalls].row()
		w.time(clampTime(tc.Start, runStart))
		w.str(run.traceID)
		w.str(run.spanID)
		w.str(tc.SpanID)
		w.u32(uint32(i))
		w.str(tc.Name)
		w.str(tc.ID)
		w.str(run.service)
		w.str(run.version)
		w.str(agent)
		w.str(run.agent)
		w.u32(uint32(min(len(tc.Arguments), 1<<31)))
		w.bool(tc.ArgumentsValid)
		w.u32(uint32(min(len(tc.Result), 1<<31)))
		w.str(tc.Error)
		w.str(tc.Arguments)
		w.str(tc.Result)
		w.bool(tc.Error != "")
		w.bool(repeated)
		w.f64(dur)
		rb.end(&w, rowKey(identity, run.spanID, strconv.Itoa(i)))
	}
}

// feedback writes one feedback row; a record without a time gets now.
func (rb rowBuilder) feedback(b *batch, f *scorer.Feedback, now time.Time) {
	ts := clampTime(f.Time, now)
	w := b.row()
	w.time(ts)
	w.str(f.TraceID)
	w.str(f.SpanID)
	w.str(f.Service)
	w.str(f.Metric)
	w.bool(f.HasValue)
	w.f64(f.Value)
	w.str(f.Label)
	w.str(f.Explanation)
	w.str(f.Annotator)
	rb.end(&w, rowKey(f.TraceID, f.Metric, f.Annotator, strconv.FormatInt(ts.UnixNano(), 10)))
}

// run writes the runColumns.
func (w *rowWriter) run(r *runIdent) {
	w.str(r.traceID)
	w.str(r.spanID)
	w.str(r.service)
	w.str(r.version)
	w.str(r.env)
	w.str(r.agent)
	w.str(r.session)
}

// end writes the trailer columns and ends the row.
func (rb rowBuilder) end(w *rowWriter, key uint64) {
	w.str(rb.sidecarVersion)
	w.u64(key)
	w.done()
}

// decision writes one eval_decisions row; u is the judge's usage, nil
// without a judge.
func (rb rowBuilder) decision(b *batch, ts time.Time, run *runIdent, metric, decision, reason string, u *scorer.JudgeUsage, key uint64) {
	if u == nil {
		u = &scorer.JudgeUsage{}
	}
	d := b.row()
	d.time(ts)
	d.str(run.traceID)
	d.str(run.spanID)
	d.str(run.service)
	d.str(run.version)
	d.str(run.agent)
	d.str(metric)
	d.str(decision)
	d.str(reason)
	d.str(u.Provider)
	d.str(u.Model)
	d.u64(nonNegative(u.InputTokens))
	d.u64(nonNegative(u.OutputTokens))
	d.f64(u.CostUSD)
	rb.end(&d, key)
}

// ledgerRows counts the judge-ledger decisions that add a row of their
// own (a scored result already has its decision row).
func ledgerRows(e *scorer.Evaluation) int {
	n := 0
	for _, d := range e.Decisions {
		if ledgerOnly(d.Outcome) {
			n++
		}
	}
	return n
}

// ledgerOnly reports whether a judge-ledger outcome has no result row.
func ledgerOnly(outcome string) bool {
	return outcome != scorer.OutcomeScored && outcome != scorer.OutcomeCached
}

func nonNegative(v int64) uint64 {
	if v < 0 {
		return 0
	}
	return uint64(v)
}
