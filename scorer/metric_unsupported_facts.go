package scorer

import (
	"context"
	"fmt"
	"strings"

	"github.com/evalsidecar/evalsidecar/extractor"
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
type unsupportedFacts struct{}

// Name returns "unsupported_facts".
func (unsupportedFacts) Name() string { return MetricUnsupportedFacts }

// Needs requires the response.
func (unsupportedFacts) Needs() Inputs { return InResponse }

func (unsupportedFacts) inline() {}

// responseFact is one distinct fact of the response.
type responseFact struct {
	surface   string // as written in the response
	norm      string
	kind      factKind
	supported bool
}

// factSet holds a response's distinct facts, keyed by normal form and
// alternative reading.
type factSet struct {
	facts []responseFact
	index map[string]int
}

// add records a response fact unless its normal form is already known.
func (fs *factSet) add(kind factKind, norm, alt []byte, surface string) {
	if len(fs.facts) >= unsupportedFactsMax {
		return
	}
	if _, ok := fs.index[string(norm)]; ok {
		return
	}
	i := len(fs.facts)
	n := string(norm)
	fs.facts = append(fs.facts, responseFact{surface: surface, norm: n, kind: kind})
	fs.index[n] = i
	if len(alt) > 0 {
		if _, ok := fs.index[string(alt)]; !ok {
			fs.index[string(alt)] = i
		}
	}
}

// support marks the response facts a source fact matches.
func (fs *factSet) support(_ factKind, norm, alt []byte, _ string) {
	if i, ok := fs.index[string(norm)]; ok {
		fs.facts[i].supported = true
	}
	if len(alt) > 0 {
		if i, ok := fs.index[string(alt)]; ok {
			fs.facts[i].supported = true
		}
	}
}

// pending counts the facts not yet supported; with bySubstring, only those
// a substring of a source can still support.
func (fs *factSet) pending(bySubstring bool) int {
	n := 0
	for i := range fs.facts {
		if !fs.facts[i].supported && (!bySubstring || fs.facts[i].kind.bySubstring()) {
			n++
		}
	}
	return n
}

// Score returns unsupported / checkable facts of the response.
func (unsupportedFacts) Score(_ context.Context, in *Instance) (Result, error) {
	hint := min(len(in.Response)/24+1, 256) // about one fact per 24 bytes
	fs := factSet{index: make(map[string]int, hint), facts: make([]responseFact, 0, hint)}
	sc := factScanner{emit: fs.add}
	sc.scan(in.Response)
	if len(fs.facts) == 0 {
		return Result{}, ErrNotApplicable
	}
	sc.emit, sc.source = fs.support, true
	eachFactSource(in, func(s string) bool {
		sc.scan(s)
		return fs.pending(false) > 0
	})
	if fs.pending(true) > 0 {
		budget := unsupportedFactsScanBytes
		eachFactSource(in, func(s string) bool {
			for i := range fs.facts {
				f := &fs.facts[i]
				if f.supported || !f.kind.bySubstring() {
					continue
				}
				if budget -= len(s); budget < 0 {
					return false
				}
				f.supported = containsFold(s, f.norm)
			}
			return fs.pending(true) > 0
		})
	}

	var unsupported []string
	k := 0
	for _, f := range fs.facts {
		if f.supported {
			continue
		}
		k++
		if len(unsupported) < unsupportedFactsDetailed {
			unsupported = append(unsupported, f.surface)
		}
	}
	r := Result{
		Metric: MetricUnsupportedFacts,
		Score:  float64(k) / float64(len(fs.facts)),
		Label:  "supported",
		Details: map[string]any{
			"facts":             len(fs.facts),
			"unsupported":       k,
			"unsupported_facts": unsupported,
		},
	}
	if k == 0 {
		r.Details["unsupported_facts"] = []string{}
		r.Explanation = fmt.Sprintf("all %d facts of the response appear in the run's inputs or tool results", len(fs.facts))
		return r, nil
	}
	r.Label = "unsupported"
	r.Explanation = explainUnsupported(unsupported, k, len(fs.facts))
	return r, nil
}

// explainUnsupported names the first unsupported facts and counts the rest.
func explainUnsupported(listed []string, k, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d facts of the response appear nowhere in the run's inputs or tool results: ", k, n)
	shown := min(len(listed), unsupportedFactsExplained)
	for i, s := range listed[:shown] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", s)
	}
	if k > shown {
		fmt.Fprintf(&b, " and %d more", k-shown)
	}
	return b.String()
}

// eachFactSource calls fn with every text a response fact may come from,
// until fn returns false. A conversation message equal to the response
// itself is skipped.
func eachFactSource(in *Instance, fn func(string) bool) {
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
func eachToolText(calls []extractor.ToolCall, fn func(string) bool) bool {
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
