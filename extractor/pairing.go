package extractor

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/jsonobj"
)

// Tool calls rebuilt from both sides of a run. Some instrumentations record
// tool spans without the model's call id (OpenInference, Traceloop), some
// record only a bare value as the arguments of a single-parameter tool
// (LangChain), and some never export a tool span that failed (Traceloop's
// withTool). The model's side always has the calls it requested
// (tool_call parts of its output) and, in the next call's input, what each
// call returned (tool_call_response parts). pairTools joins the two.

// toolRequest is a tool call a model requested.
type toolRequest struct {
	p     part
	llm   int // index into the run's model calls, in start order
	agent string
	pos   int // position among all requests of the run
	used  bool
}

// handoffPrefixes name the tools that transfer control to another agent:
// the OpenAI Agents SDK and ADK transfer_to_*, OpenInference's
// handoff_to_* tool spans.
var handoffPrefixes = [...]string{"transfer_to_", "handoff_to_"}

// handoffTarget returns the agent a handoff tool hands to, and whether name
// is a handoff tool.
func handoffTarget(name string) (string, bool) {
	for _, p := range handoffPrefixes {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" {
			return rest, true
		}
	}
	if rest, ok := strings.CutPrefix(name, "handoff to "); ok && rest != "" {
		return rest, true
	}
	return "", false
}

// looksLikeToolError reports whether a tool result sent back to the model
// is an error report: frameworks that catch a tool's exception send its
// message ("Error: …") or a fixed notice instead of a result.
func looksLikeToolError(s string) bool {
	t := strings.TrimSpace(s)
	if len(t) >= 6 && strings.EqualFold(t[:5], "error") && (t[5] == ':' || t[5] == ' ') {
		return true
	}
	return strings.Contains(t, "An error occurred while running the tool")
}

// collectRequests lists the tool calls the run's models requested, in
// request order; a call id seen twice (the same request echoed) counts
// once.
func (x *extraction) collectRequests(llms []member) []toolRequest {
	var out []toolRequest
	for k, m := range llms {
		for _, msg := range x.facts[m.i].output.messages() {
			for _, p := range msg.Parts {
				if p.Type != partToolCall || p.Name == "" {
					continue
				}
				if p.ID != "" && slices.ContainsFunc(out, func(r toolRequest) bool { return r.p.ID == p.ID }) {
					continue
				}
				out = append(out, toolRequest{p: p, llm: k, agent: m.agent, pos: len(out)})
			}
		}
	}
	return out
}

// matchRequest finds the request a tool call answers: by call id, else the
// earliest unused request of the same name made before the tool started,
// preferring one whose arguments equal the call's.
func matchRequest(reqs []toolRequest, tc *agentrun.ToolCall, llmStart func(int) int64) int {
	if tc.ID != "" {
		for i := range reqs {
			if reqs[i].p.ID == tc.ID {
				return i
			}
		}
		return -1
	}
	start := tc.Start.UnixNano()
	best := -1
	for i := range reqs {
		r := &reqs[i]
		if r.used || r.p.Name != tc.Name || llmStart(r.llm) > start {
			continue
		}
		if tc.ArgumentsValid && jsonEqualText(r.p.Arguments, tc.Arguments) {
			return i
		}
		if best < 0 {
			best = i
		}
	}
	return best
}

// jsonEqualText compares two argument texts, ignoring insignificant
// whitespace.
func jsonEqualText(a, b string) bool {
	if a == b {
		return true
	}
	var ca, cb bytes.Buffer
	return json.Compact(&ca, []byte(a)) == nil && json.Compact(&cb, []byte(b)) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// responseFor returns the result sent back to the model for call id, from
// the input of the first model call after request k, and the index of that
// model call.
func (x *extraction) responseFor(llms []member, k int, id string) (string, int, bool) {
	for j := k + 1; j < len(llms); j++ {
		for _, msg := range x.facts[llms[j].i].input.messages() {
			for _, p := range msg.Parts {
				if p.Type == partToolCallResponse && p.ID == id {
					return p.Response, j, true
				}
			}
		}
	}
	return "", 0, false
}

// pairTools joins the run's tool calls with the model's requests: it fills
// missing call ids and incomplete arguments, orders calls that started in
// the same instant by request order, moves handoff tools to tr.Handoffs,
// and rebuilds requested calls that have a result in a later model input
// but no tool span (marking those whose result is an error report as
// failed). x.toolSpans stays parallel to tr.ToolCalls (-1 for a call with
// no span).
func (x *extraction) pairTools(tr *agentrun.Trajectory, llms []member) {
	x.requestOrdered = false
	// Tool spans that carry call ids are joined by id already; the
	// model's requests are decoded only for runs whose instrumentation
	// records no ids (which is also the one that may drop a failed span),
	// so OTel GenAI runs keep their fast path.
	need := len(tr.ToolCalls) == 0 && tr.Convention != "genai"
	for i := range tr.ToolCalls {
		need = need || tr.ToolCalls[i].ID == ""
	}
	var reqs []toolRequest
	if need && len(llms) > 0 {
		reqs = x.collectRequests(llms)
	}
	if len(reqs) == 0 && len(tr.ToolCalls) == 0 {
		return
	}
	llmStart := func(k int) int64 { return x.t.spans[llms[k].i].start }
	pos := make([]int, len(tr.ToolCalls))
	paired := false
	for i := range tr.ToolCalls {
		tc := &tr.ToolCalls[i]
		pos[i] = -1
		k := matchRequest(reqs, tc, llmStart)
		if k < 0 {
			continue
		}
		r := &reqs[k]
		r.used = true
		pos[i] = r.pos
		if tc.ID != "" {
			continue // joined by id: the span's own record stands
		}
		tc.ID = r.p.ID
		paired = true
		// a single-parameter tool may record only the bare value
		if !tc.ArgumentsValid && jsonobj.Valid(r.p.Arguments) {
			tc.Arguments, tc.ArgumentsValid = r.p.Arguments, true
		}
	}
	x.requestOrdered = paired
	if paired {
		x.orderByRequest(tr, pos)
	}

	// requested calls that ran without a span
	var reqHandoffs []agentrun.Handoff
	for k := range reqs {
		r := &reqs[k]
		if r.used || r.p.ID == "" {
			continue
		}
		res, j, ok := x.responseFor(llms, r.llm, r.p.ID)
		if !ok {
			continue
		}
		if to, ok := handoffTarget(r.p.Name); ok {
			reqHandoffs = append(reqHandoffs, agentrun.Handoff{From: r.agent, To: to, CallID: r.p.ID, Start: unixTime(x.t.spans[llms[r.llm].i].end)})
			continue
		}
		tc := agentrun.ToolCall{
			ID:             r.p.ID,
			Name:           r.p.Name,
			Agent:          r.agent,
			Arguments:      r.p.Arguments,
			ArgumentsValid: jsonobj.Valid(r.p.Arguments),
			Start:          unixTime(x.t.spans[llms[r.llm].i].end),
			End:            unixTime(x.t.spans[llms[j].i].start),
		}
		if looksLikeToolError(res) {
			tc.Error = res
		} else {
			tc.Result = res
		}
		at := len(tr.ToolCalls)
		for at > 0 && tr.ToolCalls[at-1].Start.After(tc.Start) {
			at--
		}
		tr.ToolCalls = slices.Insert(tr.ToolCalls, at, tc)
		x.toolSpans = slices.Insert(x.toolSpans, at, -1)
	}

	// handoffs
	kept := 0
	for i := range tr.ToolCalls {
		tc := tr.ToolCalls[i]
		if to, ok := handoffTarget(tc.Name); ok {
			to = argsHandoffTarget(tc.Name, tc.Arguments, to)
			tr.Handoffs = append(tr.Handoffs, agentrun.Handoff{From: tc.Agent, To: to, CallID: tc.ID, SpanID: tc.SpanID, Start: tc.Start})
			continue
		}
		tr.ToolCalls[kept] = tc
		x.toolSpans[kept] = x.toolSpans[i]
		kept++
	}
	// a handoff the model requested, unless a span recorded it
	for _, h := range reqHandoffs {
		if !slices.ContainsFunc(tr.Handoffs, func(o agentrun.Handoff) bool { return o.To == h.To }) {
			tr.Handoffs = append(tr.Handoffs, h)
		}
	}
	clear(tr.ToolCalls[kept:])
	tr.ToolCalls = tr.ToolCalls[:kept]
	x.toolSpans = x.toolSpans[:kept]
	if len(tr.ToolCalls) == 0 {
		tr.ToolCalls = nil
	}
}

// orderByRequest reorders calls that started in the same instant by the
// order in which the model requested them.
func (x *extraction) orderByRequest(tr *agentrun.Trajectory, pos []int) {
	type item struct {
		tc   agentrun.ToolCall
		span int32
		pos  int
	}
	items := make([]item, len(tr.ToolCalls))
	for i := range items {
		items[i] = item{tr.ToolCalls[i], x.toolSpans[i], pos[i]}
	}
	slices.SortStableFunc(items, func(a, b item) int {
		if c := a.tc.Start.Compare(b.tc.Start); c != 0 {
			return c
		}
		if a.pos < 0 || b.pos < 0 {
			return 0
		}
		return a.pos - b.pos
	})
	for i := range items {
		tr.ToolCalls[i], x.toolSpans[i] = items[i].tc, items[i].span
	}
}

// firstSubAgent returns the name of the earliest sub-agent of a run, for a
// run whose top span names no agent (an SDK workflow span).
func (x *extraction) firstSubAgent(agents []member) string {
	best, name := int64(0), ""
	for _, m := range agents {
		a := x.facts[m.i].agent
		if a == "" {
			continue
		}
		if s := x.t.spans[m.i].start; name == "" || s < best {
			best, name = s, a
		}
	}
	return name
}

// stepTime is the start of a step without a span.
func stepTime(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// earlierTurns returns the conversation before the user message input in
// a model call's input messages: the history of a multi-turn session when
// the run's own input holds only the new message.
func earlierTurns(msgs []message, input string) []agentrun.Message {
	u := lastUser(msgs)
	if u <= 0 || msgs[u].text() != input {
		return nil
	}
	var out []agentrun.Message
	for _, m := range msgs[:u] {
		if m.Role == "system" || m.Role == "developer" {
			continue
		}
		if txt := m.text(); txt != "" {
			out = append(out, agentrun.Message{Role: m.Role, Content: txt})
		}
	}
	return out
}
