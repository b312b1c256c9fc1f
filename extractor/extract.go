package extractor

import (
	"encoding/hex"
	"time"
)

// extraction is the per-trace working state of Extract.
type extraction struct {
	t        *Trace
	idx      map[[8]byte]int
	facts    []spanFacts
	children [][]int
	// unjoinedLogs counts log records whose span is not in the trace.
	unjoinedLogs int
}

// Extract rebuilds the agent runs of a trace: one Trajectory per top-level
// invoke_agent span (an agent span with no agent ancestor), or one for the
// whole trace when it has GenAI spans but no agent span. It returns nil for
// a trace without GenAI spans. Extract does not modify t.
func Extract(t *Trace) []*Trajectory {
	trajs, _ := extract(t)
	return trajs
}

func extract(t *Trace) ([]*Trajectory, *extraction) {
	n := len(t.spans)
	x := &extraction{t: t, idx: make(map[[8]byte]int, n), facts: make([]spanFacts, n), children: make([][]int, n)}
	for i := range t.spans {
		x.idx[t.spans[i].id] = i
	}
	evs := make([][]*event, n)
	for i := range t.spans {
		for j := range t.spans[i].events {
			evs[i] = append(evs[i], &t.spans[i].events[j])
		}
	}
	for i := range t.logs {
		l := &t.logs[i]
		si, ok := x.idx[l.spanID]
		if !ok {
			x.unjoinedLogs++
			continue
		}
		// span events win when a span carries the same messages both ways
		if !hasMessageEvents(t.spans[si].events) || !isMessageEvent(l.ev.name) {
			evs[si] = append(evs[si], &l.ev)
		}
	}
	ds := decoders()
	anyGenAI := false
	for i := range t.spans {
		decodeSpan(ds, &t.spans[i], evs[i], &x.facts[i])
		anyGenAI = anyGenAI || x.facts[i].genai
	}
	if !anyGenAI {
		return nil, x
	}
	for i := range t.spans {
		if p, ok := x.idx[t.spans[i].parent]; ok && t.spans[i].hasParent() && p != i {
			x.children[p] = append(x.children[p], i)
		}
	}

	var runs []int
	for i := range t.spans {
		if x.facts[i].class == classRun && !x.hasRunAncestor(i) {
			runs = append(runs, i)
		}
	}
	if len(runs) == 0 {
		return []*Trajectory{x.build(x.traceRoot(), true)}, x
	}
	sortByStart(t.spans, runs)
	out := make([]*Trajectory, 0, len(runs))
	for _, r := range runs {
		out = append(out, x.build(r, false))
	}
	return out, x
}

func hasMessageEvents(evs []event) bool {
	for i := range evs {
		if isMessageEvent(evs[i].name) {
			return true
		}
	}
	return false
}

// hasRunAncestor walks up the parent chain (bounded, so cycles end).
func (x *extraction) hasRunAncestor(i int) bool {
	cur := i
	for steps := 0; steps < len(x.t.spans); steps++ {
		s := &x.t.spans[cur]
		if !s.hasParent() {
			return false
		}
		p, ok := x.idx[s.parent]
		if !ok || p == i {
			return false
		}
		if x.facts[p].class == classRun {
			return true
		}
		cur = p
	}
	return false
}

// traceRoot returns the earliest span without a parent in the trace, else
// the earliest span.
func (x *extraction) traceRoot() int {
	best := -1
	for i := range x.t.spans {
		s := &x.t.spans[i]
		_, parentHere := x.idx[s.parent]
		if s.hasParent() && parentHere {
			continue
		}
		if best < 0 || s.start < x.t.spans[best].start {
			best = i
		}
	}
	if best < 0 {
		best = 0
		for i := range x.t.spans {
			if x.t.spans[i].start < x.t.spans[best].start {
				best = i
			}
		}
	}
	return best
}

// member is a span of a run with the agent it runs under.
type member struct {
	i     int
	agent string
	depth int
}

// members lists the spans of a run: root and its descendants, or every
// span of the trace for a run without agent span.
func (x *extraction) members(root int, whole bool) []member {
	seen := make([]bool, len(x.t.spans))
	var out []member
	type item struct {
		i     int
		agent string
		depth int
	}
	if whole {
		out = make([]member, len(x.t.spans))
		for i := range x.t.spans {
			out[i] = member{i: i}
		}
		return out
	}
	stack := []item{{i: root, agent: x.facts[root].agent}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[it.i] {
			continue
		}
		seen[it.i] = true
		out = append(out, member(it))
		for _, c := range x.children[it.i] {
			agent := it.agent
			if x.facts[c].class == classRun && x.facts[c].agent != "" {
				agent = x.facts[c].agent
			}
			stack = append(stack, item{i: c, agent: agent, depth: it.depth + 1})
		}
	}
	return out
}

func spanIDHex(id [8]byte) string { return hex.EncodeToString(id[:]) }

func unixTime(ns int64) time.Time {
	if ns <= 0 {
		return time.Time{}
	}
	return time.Unix(0, ns).UTC()
}

// build makes the trajectory of the run rooted at span r.
func (x *extraction) build(r int, whole bool) *Trajectory {
	t := x.t
	rs := &t.spans[r]
	rf := &x.facts[r]
	tr := &Trajectory{
		TraceID:    t.TraceID(),
		RootSpanID: spanIDHex(rs.id),
		Agent:      rf.agent,
		Start:      unixTime(rs.start),
		End:        unixTime(rs.end),
		Truncated:  t.truncated || t.tooLarge,
	}
	if rs.res != nil {
		ra := rs.res.attrs
		tr.Service = ra.str("service.name")
		tr.ServiceVersion = ra.str("service.version")
		tr.Environment = ra.str("deployment.environment.name")
		setStr(&tr.Environment, ra.str("deployment.environment"))
		for _, a := range ra {
			if tr.Attributes == nil {
				tr.Attributes = make(map[string]string, len(ra)+2)
			}
			tr.Attributes[a.key] = a.value
		}
	}
	for _, k := range []string{keyAgentID, "gen_ai.agent.version"} {
		if v := rs.attrs.str(k); v != "" {
			if tr.Attributes == nil {
				tr.Attributes = make(map[string]string, 2)
			}
			tr.Attributes[k] = v
		}
	}

	ms := x.members(r, whole)
	var llms, tools, agents []member
	for _, m := range ms {
		switch x.facts[m.i].class {
		case classLLM:
			llms = append(llms, m)
		case classTool:
			tools = append(tools, m)
		case classRun:
			if m.i != r {
				agents = append(agents, m)
			}
		}
		setStr(&tr.Convention, x.facts[m.i].convention)
	}
	if rf.convention != "" {
		tr.Convention = rf.convention
	}
	tr.SessionID = rf.session
	for _, m := range ms {
		setStr(&tr.SessionID, x.facts[m.i].session)
	}
	for i := range x.facts {
		setStr(&tr.SessionID, x.facts[i].session)
	}

	sortMembers(t.spans, llms)
	x.fillLLMCalls(tr, llms)
	x.fillToolCalls(tr, tools, llms)
	x.fillContent(tr, r, llms)
	x.fillSteps(tr, agents)

	switch {
	case rs.statusCode == statusError || rf.errorType != "":
		tr.Failed = true
		tr.ErrorType = rf.errorType
		setStr(&tr.ErrorType, rs.statusMsg)
		setStr(&tr.ErrorType, "error")
	case tr.Output == "":
		tr.Failed = true
		tr.ErrorType = "no_output"
	}
	return tr
}

// fillLLMCalls records leaf model calls: an LLM span with an LLM span
// below it is a wrapper and would count tokens twice.
func (x *extraction) fillLLMCalls(tr *Trajectory, llms []member) {
	nonLeaf := make(map[int]bool)
	for _, m := range llms {
		cur := m.i
		for steps := 0; steps < len(x.t.spans); steps++ {
			p, ok := x.idx[x.t.spans[cur].parent]
			if !ok || !x.t.spans[cur].hasParent() || p == m.i {
				break
			}
			if x.facts[p].class == classLLM {
				nonLeaf[p] = true
				break
			}
			cur = p
		}
	}
	for _, m := range llms {
		if nonLeaf[m.i] {
			continue
		}
		s, f := &x.t.spans[m.i], &x.facts[m.i]
		reasons := f.finishReasons
		if reasons == nil && f.output != nil && f.output.events != nil {
			// per-message events carry finish reasons on gen_ai.choice
			for _, msg := range f.output.messages() {
				if msg.FinishReason != "" {
					reasons = append(reasons, msg.FinishReason)
				}
			}
		}
		tr.LLMCalls = append(tr.LLMCalls, LLMCall{
			Model:         f.model,
			Provider:      f.provider,
			InputTokens:   f.inputTokens,
			OutputTokens:  f.outputTokens,
			Start:         unixTime(s.start),
			End:           unixTime(s.end),
			FinishReasons: reasons,
			SpanID:        spanIDHex(s.id),
		})
	}
}

// fillToolCalls records the run's tool executions in causal order.
func (x *extraction) fillToolCalls(tr *Trajectory, tools, llms []member) {
	if len(tools) == 0 {
		return
	}
	req := &requested{x: x, llms: llms}
	x.orderTools(tools, req)
	tr.ToolCalls = make([]ToolCall, 0, len(tools))
	for _, m := range tools {
		s, f := &x.t.spans[m.i], &x.facts[m.i]
		tc := ToolCall{
			ID:     f.toolCallID,
			Name:   f.toolName,
			Agent:  m.agent,
			Result: f.result,
			Start:  unixTime(s.start),
			End:    unixTime(s.end),
			SpanID: spanIDHex(s.id),
		}
		if f.hasArgs {
			tc.Arguments = f.args
		} else if p, ok := req.find(s.start, tc.ID, tc.Name); ok {
			tc.Arguments = p.Arguments
		}
		tc.ArgumentsValid = isJSONObject(tc.Arguments)
		if tc.Result == "" && tc.ID != "" && s.statusCode != statusError && f.errorType == "" {
			tc.Result = req.response(s.start, tc.ID)
		}
		switch {
		case s.statusCode == statusError && s.statusMsg != "":
			tc.Error = s.statusMsg
		case f.errorType != "":
			tc.Error = f.errorType
		case s.statusCode == statusError:
			tc.Error = "error"
		}
		tr.ToolCalls = append(tr.ToolCalls, tc)
	}
}

// fillContent sets the run's input, history, output, instructions and tool
// definitions, decoding only the message attributes it needs.
func (x *extraction) fillContent(tr *Trajectory, r int, llms []member) {
	rf := &x.facts[r]
	var first, last *spanFacts
	if len(llms) > 0 {
		first = &x.facts[llms[0].i]
		last = &x.facts[llms[len(llms)-1].i]
		// the last call to finish holds the final answer
		for _, m := range llms {
			if x.t.spans[m.i].end >= x.t.spans[llms[len(llms)-1].i].end {
				last = &x.facts[m.i]
			}
		}
	}

	in := rf.input.messages()
	if lastUser(in) < 0 && first != nil {
		in = first.input.messages()
	}
	if u := lastUser(in); u >= 0 {
		tr.Input = in[u].text()
		for _, m := range in[:u] {
			if m.Role == "system" {
				continue
			}
			if txt := m.text(); txt != "" {
				tr.History = append(tr.History, Message{Role: m.Role, Content: txt})
			}
		}
	}

	tr.Output = outputText(rf.output.messages())
	if tr.Output == "" && last != nil {
		tr.Output = outputText(last.output.messages())
	}

	tr.Instructions = rf.instructions.text()
	if tr.Instructions == "" && first != nil {
		tr.Instructions = first.instructions.text()
	}
	if tr.Instructions == "" {
		tr.Instructions = systemText(in)
	}

	tr.ToolDefs = rf.toolDefs.tools()
	for _, m := range llms {
		if len(tr.ToolDefs) > 0 {
			break
		}
		tr.ToolDefs = x.facts[m.i].toolDefs.tools()
	}
}

// fillSteps merges model calls, tool calls and sub-agent invocations in
// execution order.
func (x *extraction) fillSteps(tr *Trajectory, agents []member) {
	n := len(tr.LLMCalls) + len(tr.ToolCalls) + len(agents)
	if n == 0 {
		return
	}
	steps := make([]Step, 0, n)
	for i, c := range tr.LLMCalls {
		steps = append(steps, Step{Kind: StepLLM, Name: c.Model, SpanID: c.SpanID, Start: c.Start, End: c.End, Index: i})
	}
	for i, c := range tr.ToolCalls {
		steps = append(steps, Step{Kind: StepTool, Name: c.Name, SpanID: c.SpanID, Start: c.Start, End: c.End, Index: i})
	}
	for _, m := range agents {
		s := &x.t.spans[m.i]
		steps = append(steps, Step{Kind: StepAgent, Name: x.facts[m.i].agent, SpanID: spanIDHex(s.id), Start: unixTime(s.start), End: unixTime(s.end), Index: -1})
	}
	x.orderSteps(steps)
	tr.Steps = steps
}

func lastUser(msgs []message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" && msgs[i].text() != "" {
			return i
		}
	}
	return -1
}

// outputText joins the text parts of the output messages.
func outputText(msgs []message) string {
	var out string
	for i := range msgs {
		if msgs[i].Role != "" && msgs[i].Role != "assistant" && msgs[i].Role != "model" {
			continue
		}
		if t := msgs[i].text(); t != "" {
			if out != "" {
				out += "\n"
			}
			out += t
		}
	}
	return out
}

func systemText(msgs []message) string {
	var out string
	for i := range msgs {
		if msgs[i].Role == "system" || msgs[i].Role == "developer" {
			if t := msgs[i].text(); t != "" {
				if out != "" {
					out += "\n"
				}
				out += t
			}
		}
	}
	return out
}
