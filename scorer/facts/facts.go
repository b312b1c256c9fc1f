package facts

import (
	"strconv"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// MetricUnsupportedFacts is the id of the unsupported-facts metric.
const MetricUnsupportedFacts = "unsupported_facts"

// Limits of unsupported_facts: what a result lists, and the work one
// response may cost.
const (
	unsupportedFactsExplained = 10      // facts named in the explanation
	unsupportedFactsDetailed  = 50      // facts listed in Details
	unsupportedFactsMax       = 1000    // distinct response facts checked
	unsupportedFactsScanBytes = 1 << 24 // source bytes read by substring lookups
)

// unsupportedFacts scores the share of checkable facts in the final
// response that appear nowhere in what the agent was given or found.
//
// Checkable facts are numbers and amounts, dates, identifiers, e-mail
// addresses and URLs, normalised as factScanner documents. The sources
// are the prompt, the context, the instruction, the descriptions of the
// declared tools, the conversation history, the user turns of the
// invocations, and the arguments, results and errors of every tool call.
// The reference answer is not a source: the metric is reference-free. A fact is supported when its normal form is
// among the sources' facts; an identifier, e-mail address or URL is also
// supported when its normal form occurs in a source's text, ignoring case.
//
// Bounds: only the first 1000 distinct facts of a response are checked,
// and substring lookups stop after reading 16 MiB of source text in all
// (the facts left then count as unsupported), so a huge response or
// source costs milliseconds, not minutes.
//
// Formula: unsupported distinct facts / distinct facts. Label "supported"
// when the score is 0, else "unsupported". A response without a
// checkable fact is not applicable. Details: "facts", "unsupported",
// "unsupported_facts" (the facts as written, first 50).
//
// The response is tokenised first; without a fact the metric does not
// apply. Each source is then tokenised in turn, its facts looked up among
// the response's, until every response fact is supported; identifiers,
// e-mail addresses and URLs still unsupported are then looked for as
// substrings of the sources.
func unsupportedFacts(in *scorer.Instance) (scorer.Result, error) {
	fs := responseFacts(in.Response)
	if len(fs.facts) == 0 {
		return scorer.Result{}, scorer.ErrNotApplicable
	}
	sc := factScanner{emit: fs.support, source: true}
	eachFactSource(in, func(s string) bool {
		sc.scan(s)
		return fs.left > 0
	})
	if fs.leftBySubstring > 0 {
		fs.supportBySubstring(in)
	}
	return fs.result(), nil
}

// result reports the facts of fs as the metric's Result.
func (fs *factSet) result() scorer.Result {
	n, k := len(fs.facts), fs.left
	r := scorer.Result{
		Score: float64(k) / float64(n),
		Label: "supported",
	}
	if k == 0 {
		r.Details = map[string]any{"facts": n, "unsupported": 0, "unsupported_facts": []string{}}
		r.Explanation = "all " + strconv.Itoa(n) + " facts of the response appear in the run's inputs or tool results"
		return r
	}
	unsupported := make([]string, 0, min(k, unsupportedFactsDetailed))
	for i := range fs.facts {
		if f := &fs.facts[i]; !f.supported && len(unsupported) < unsupportedFactsDetailed {
			unsupported = append(unsupported, f.surface)
		}
	}
	r.Label = "unsupported"
	r.Details = map[string]any{"facts": n, "unsupported": k, "unsupported_facts": unsupported}
	r.Explanation = explainUnsupported(unsupported, k, n)
	return r
}

// explainUnsupported names the first unsupported facts and counts the rest.
func explainUnsupported(listed []string, k, n int) string {
	shown := min(len(listed), unsupportedFactsExplained)
	b := make([]byte, 0, 96+24*shown)
	b = strconv.AppendInt(b, int64(k), 10)
	b = append(b, " of "...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, " facts of the response appear nowhere in the run's inputs or tool results: "...)
	for i, s := range listed[:shown] {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendQuote(b, s)
	}
	if k > shown {
		b = append(b, " and "...)
		b = strconv.AppendInt(b, int64(k-shown), 10)
		b = append(b, " more"...)
	}
	return string(b)
}

// eachFactSource calls fn with every text a response fact may come from,
// until fn returns false. A conversation message equal to the response
// itself is skipped.
func eachFactSource(in *scorer.Instance, fn func(string) bool) {
	for _, s := range [...]string{in.Prompt, in.Context, in.Instruction} {
		if s != "" && !fn(s) {
			return
		}
	}
	for _, d := range in.ToolDeclarations {
		if d.Description != "" && !fn(d.Description) {
			return
		}
	}
	for _, m := range in.Conversation {
		if m.Content != "" && m.Content != in.Response && !fn(m.Content) {
			return
		}
	}
	for _, inv := range in.Invocations {
		if inv.UserContent != "" && !fn(inv.UserContent) {
			return
		}
		if !eachToolText(inv.PredictedToolCalls, fn) {
			return
		}
	}
	eachToolText(in.PredictedTrajectory, fn)
}

// eachToolText calls fn with the arguments, result and error of every call
// until fn returns false, and reports whether it never did.
func eachToolText(calls []agentrun.ToolCall, fn func(string) bool) bool {
	for i := range calls {
		c := &calls[i]
		for _, s := range [...]string{c.Arguments, c.Result, c.Error} {
			if s != "" && !fn(s) {
				return false
			}
		}
	}
	return true
}
