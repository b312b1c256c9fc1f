package extractor

import (
	"encoding/hex"
	"slices"
	"strings"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/jsonobj"
)

// extraction is the per-trace working state of extract. Its slices are
// scratch: an Assembler reuses one extraction for many traces, so nothing
// that outlives a call may point into them.
type extraction struct {
	t     *Trace
	idx   spanIndex
	facts []spanFacts
	// parent is the position of each span's parent in the trace, or -1.
	parent []int32
	// children of span i are childList[childOff[i]:childOff[i+1]], in span
	// order.
	childOff, childList []int32
	// the span events and joined log records of span i are
	// evList[evOff[i]:evOff[i+1]].
	evOff   []int32
	evList  []*event
	cursor  []int32
	logSpan []int32
	// unjoinedLogs counts log records whose span is not in the trace.
	unjoinedLogs int

	// per-run scratch of build
	seen                []bool
	stack               []memberItem
	memberBuf           []member
	llms, tools, agents []member
	nonLeaf             []bool
	callSpans           []int32
	toolSpans           []int32
	stepKeys            []stepKey
	// cont are the runs that continue the run being built after a
	// handoff (handoffruns.go).
	cont []int
	// requestOrdered is set when pairTools put the run's tool calls in
	// the model's request order; steps then follow it.
	requestOrdered bool
	// idHex holds the hex span ids of the run's members, 16 bytes each;
	// idAt[i]-1 is the position of span i's (0: not encoded).
	idHex string
	idAt  []int32
}

// sized returns s with length n, its elements zero, reusing its storage.
func sized[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// zeroed returns s with length n, its elements zero, for storage that
// is zero already: reset clears what extract used, so the facts and event
// lists of a reused extraction need no second clearing.
func zeroed[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// reset drops every reference to the last trace so that a pooled
// extraction keeps nothing alive. It leaves the facts and event lists
// zero, as extract expects them (zeroed).
func (x *extraction) reset() {
	x.t = nil
	x.idx.release()
	for i := range x.facts {
		x.facts[i].reset()
	}
	clear(x.evList)
	clear(x.memberBuf[:cap(x.memberBuf)])
	clear(x.llms[:cap(x.llms)])
	clear(x.tools[:cap(x.tools)])
	clear(x.agents[:cap(x.agents)])
	clear(x.stack[:cap(x.stack)])
	x.idHex = ""
	x.unjoinedLogs = 0
}

// extract rebuilds the agent runs of a trace: one Trajectory per top-level
// invoke_agent span (an agent span with no agent ancestor), or one for the
// whole trace when it has GenAI spans but no agent span. It returns nil for
// a trace without GenAI spans. extract does not modify t.
func (x *extraction) extract(t *Trace) []*agentrun.Trajectory {
	x.t = t
	x.unjoinedLogs = 0
	x.idx.reset(t.spans)
	x.facts = zeroed(x.facts, len(t.spans))
	x.listEvents()
	if !x.decodeSpans() {
		return nil
	}
	x.linkSpans()
	return x.buildRuns()
}

// listEvents lists the events of each span: its own, then the log records
// joined to it.
func (x *extraction) listEvents() {
	t := x.t
	n := len(t.spans)
	x.evOff = sized(x.evOff, n+1)
	x.logSpan = sized(x.logSpan, len(t.logs))
	for i := range t.spans {
		x.evOff[i+1] = int32(len(t.spans[i].events))
	}
	x.joinLogs()
	for i := 0; i < n; i++ {
		x.evOff[i+1] += x.evOff[i]
	}
	x.evList = zeroed(x.evList, int(x.evOff[n]))
	x.cursor = sized(x.cursor, n)
	for i := range t.spans {
		k := x.evOff[i]
		for j := range t.spans[i].events {
			x.evList[k] = &t.spans[i].events[j]
			k++
		}
		x.cursor[i] = k
	}
	for li, si := range x.logSpan {
		if si >= 0 {
			x.evList[x.cursor[si]] = &t.logs[li].ev
			x.cursor[si]++
		}
	}
}

// joinLogs sets the span of each log record (-1: none) and counts the
// records joined to each span in evOff[span+1].
func (x *extraction) joinLogs() {
	t := x.t
	for li := range t.logs {
		l := &t.logs[li]
		x.logSpan[li] = -1
		si, ok := x.idx.get(l.spanID)
		if !ok {
			x.unjoinedLogs++
			continue
		}
		// span events win when a span carries the same messages both ways
		if !isMessageEvent(l.ev.name) || !slices.ContainsFunc(t.spans[si].events, func(e event) bool { return isMessageEvent(e.name) }) {
			x.logSpan[li] = int32(si)
			x.evOff[si+1]++
		}
	}
}

// decodeSpans runs the decoders on every span and reports whether any
// span is GenAI telemetry.
func (x *extraction) decodeSpans() bool {
	anyGenAI := false
	for i := range x.t.spans {
		decodeSpan(&x.t.spans[i], x.evList[x.evOff[i]:x.evOff[i+1]], &x.facts[i])
		anyGenAI = anyGenAI || x.facts[i].genai
	}
	return anyGenAI
}

// linkSpans finds each span's parent in the trace, breaks parent cycles
// and lists the children of each span.
func (x *extraction) linkSpans() {
	t := x.t
	n := len(t.spans)
	x.parent = sized(x.parent, n)
	x.childOff = sized(x.childOff, n+1)
	for i := range t.spans {
		x.parent[i] = -1
		if !t.spans[i].hasParent() {
			continue
		}
		if p, ok := x.idx.get(t.spans[i].parent); ok {
			x.parent[i] = int32(p)
		}
	}
	x.cursor = sized(x.cursor, n)
	x.breakCycles()
	for i := range x.parent {
		if p := x.parent[i]; p >= 0 {
			x.childOff[p+1]++
		}
	}
	for i := 0; i < n; i++ {
		x.childOff[i+1] += x.childOff[i]
	}
	x.childList = sized(x.childList, int(x.childOff[n]))
	x.cursor = sized(x.cursor, n)
	copy(x.cursor, x.childOff[:n])
	for i, p := range x.parent {
		if p >= 0 && int(p) != i {
			x.childList[x.cursor[p]] = int32(i)
			x.cursor[p]++
		}
	}
}

// buildRuns builds one trajectory per top-level run span, a handoff chain
// of runs making one, or one for the whole trace when it has no run span.
func (x *extraction) buildRuns() []*agentrun.Trajectory {
	var runs []int
	for i := range x.t.spans {
		if x.facts[i].class == classRun && x.ancestor(i, func(p int) bool { return x.facts[p].class == classRun }) < 0 {
			runs = append(runs, i)
		}
	}
	if len(runs) == 0 {
		return []*agentrun.Trajectory{x.build(x.traceRoot(), true)}
	}
	slices.SortStableFunc(runs, func(a, b int) int { return cmpSpans(&x.t.spans[a], &x.t.spans[b]) })
	out := make([]*agentrun.Trajectory, 0, len(runs))
	for k := 0; k < len(runs); {
		n := 1
		if len(runs) > 1 {
			n = x.handoffChain(runs, k)
		}
		x.cont = runs[k+1 : k+n]
		if len(runs) == 1 {
			x.cont = x.orphansOf(runs)
		}
		out = append(out, x.build(runs[k], false))
		k += n
	}
	x.cont = nil
	return out
}

// children returns the positions of the spans whose parent is span i.
func (x *extraction) children(i int) []int32 {
	return x.childList[x.childOff[i]:x.childOff[i+1]]
}

// ancestor returns the nearest ancestor of span i for which is holds, or
// -1. The walk is bounded, so cycles end.
func (x *extraction) ancestor(i int, is func(p int) bool) int {
	cur := i
	for steps := 0; steps < len(x.t.spans); steps++ {
		p := int(x.parent[cur])
		if p < 0 || p == i {
			return -1
		}
		if is(p) {
			return p
		}
		cur = p
	}
	return -1
}

// traceRoot returns the earliest span without a parent in the trace, else
// the earliest span.
func (x *extraction) traceRoot() int {
	best := 0
	for i := range x.t.spans {
		root, bestRoot := x.parent[i] < 0, x.parent[best] < 0
		if root && !bestRoot || root == bestRoot && x.t.spans[i].start < x.t.spans[best].start {
			best = i
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

// memberItem is a member waiting on the walk's stack.
type memberItem member

// members lists the spans of a run: root and its descendants, or every
// span of the trace for a run without agent span. The result is scratch,
// valid until the next call.
func (x *extraction) members(root int, whole bool) []member {
	n := len(x.t.spans)
	out := x.memberBuf[:0]
	if whole {
		for i := 0; i < n; i++ {
			out = append(out, member{i: i})
		}
		x.memberBuf = out
		return out
	}
	x.seen = sized(x.seen, n)
	stack := append(x.stack[:0], memberItem{i: root, agent: x.facts[root].agent})
	for _, c := range x.cont {
		agent := x.facts[c].agent
		if x.facts[c].class != classRun {
			agent = x.facts[root].agent // an orphan of the run
		}
		stack = append(stack, memberItem{i: c, agent: agent, depth: 1})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x.seen[it.i] {
			continue
		}
		x.seen[it.i] = true
		out = append(out, member(it))
		for _, c := range x.children(it.i) {
			agent := it.agent
			if x.facts[c].class == classRun && x.facts[c].agent != "" {
				agent = x.facts[c].agent
			}
			stack = append(stack, memberItem{i: int(c), agent: agent, depth: it.depth + 1})
		}
	}
	x.stack = stack
	x.memberBuf = out
	return out
}

// encodeIDs renders the span ids of the run's members in one allocation:
// a run's trajectory names most of its spans (root, model and tool calls,
// steps), and the ids share the trajectory's lifetime.
func (x *extraction) encodeIDs(ms []member) {
	x.idAt = sized(x.idAt, len(x.t.spans))
	var b strings.Builder
	b.Grow(2 * 8 * len(ms))
	var buf [16]byte
	for k, m := range ms {
		hex.Encode(buf[:], x.t.spans[m.i].id[:])
		b.Write(buf[:])
		x.idAt[m.i] = int32(k + 1)
	}
	x.idHex = b.String()
}

// spanID returns the hex id of span i, from encodeIDs when it is a member
// of the run.
func (x *extraction) spanID(i int) string {
	if i < len(x.idAt) {
		if k := int(x.idAt[i]); k > 0 {
			return x.idHex[16*(k-1) : 16*k]
		}
	}
	return hex.EncodeToString(x.t.spans[i].id[:])
}

func unixTime(ns int64) time.Time {
	if ns <= 0 {
		return time.Time{}
	}
	return time.Unix(0, ns).UTC()
}

// build makes the trajectory of the run rooted at span r.
func (x *extraction) build(r int, whole bool) *agentrun.Trajectory {
	t := x.t
	rs := &t.spans[r]
	rf := &x.facts[r]
	tr := &agentrun.Trajectory{
		TraceID:   t.TraceID(),
		Agent:     rf.agent,
		Start:     unixTime(rs.start),
		End:       unixTime(rs.end),
		Truncated: t.truncated || t.tooLarge,
	}
	var ra attrs
	if rs.res != nil {
		ra = rs.res.attrs
	}
	tr.Service = ra.str("service.name")
	tr.ServiceVersion = ra.str("service.version")
	tr.Environment = ra.str("deployment.environment.name")
	setStr(&tr.Environment, ra.str("deployment.environment"))
	// the map is sized exactly: a larger hint allocates more
	extra := [...]string{keyAgentID, "gen_ai.agent.version"}
	var extraVals [len(extra)]string
	n := len(ra)
	for k, key := range extra {
		if extraVals[k] = rs.attrs.str(key); extraVals[k] != "" {
			n++
		}
	}
	for _, a := range ra {
		setAttr(tr, a.key, a.value, n)
	}
	for k, key := range extra {
		if extraVals[k] != "" {
			setAttr(tr, key, extraVals[k], n)
		}
	}

	ms := x.members(r, whole)
	x.encodeIDs(ms)
	tr.RootSpanID = x.spanID(r)
	for _, c := range x.cont {
		if e := unixTime(t.spans[c].end); x.facts[c].class == classRun && e.After(tr.End) {
			tr.End = e
		}
	}
	x.copyRunAttributes(tr, r, ms)
	llms, tools, agents := x.llms[:0], x.tools[:0], x.agents[:0]
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

	x.llms, x.tools, x.agents = llms, tools, agents
	slices.SortStableFunc(llms, func(a, b member) int { return cmpSpans(&t.spans[a.i], &t.spans[b.i]) })
	x.fillLLMCalls(tr, llms)
	x.fillToolCalls(tr, tools, llms)
	x.pairTools(tr, llms)
	x.fillContent(tr, r, llms)
	x.fillSteps(tr, agents)
	if tr.Agent == "" {
		tr.Agent = x.firstSubAgent(agents)
	}

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
func (x *extraction) fillLLMCalls(tr *agentrun.Trajectory, llms []member) {
	x.nonLeaf = sized(x.nonLeaf, len(x.t.spans))
	nonLeaf := x.nonLeaf
	x.callSpans = x.callSpans[:0]
	for _, m := range llms {
		if p := x.ancestor(m.i, func(p int) bool { return x.facts[p].class == classLLM }); p >= 0 {
			nonLeaf[p] = true
		}
	}
	leaves := 0
	for _, m := range llms {
		if !nonLeaf[m.i] {
			leaves++
		}
	}
	if leaves > 0 {
		tr.LLMCalls = make([]agentrun.LLMCall, 0, leaves)
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
		x.callSpans = append(x.callSpans, int32(m.i))
		output := ""
		if leaves > 1 {
			// the text between tool calls; one call's text is the run's output
			output = outputText(f.output.messages())
		}
		tr.LLMCalls = append(tr.LLMCalls, agentrun.LLMCall{
			Model:         f.model,
			Provider:      f.provider,
			InputTokens:   f.inputTokens,
			OutputTokens:  f.outputTokens,
			Start:         unixTime(s.start),
			End:           unixTime(s.end),
			FinishReasons: reasons,
			SpanID:        x.spanID(m.i),
			Output:        output,
		})
	}
}

// fillToolCalls records the run's tool executions in causal order.
func (x *extraction) fillToolCalls(tr *agentrun.Trajectory, tools, llms []member) {
	x.toolSpans = x.toolSpans[:0]
	if len(tools) == 0 {
		return
	}
	req := &requested{x: x, llms: llms}
	x.orderTools(tools, req)
	tr.ToolCalls = make([]agentrun.ToolCall, 0, len(tools))
	for _, m := range tools {
		s, f := &x.t.spans[m.i], &x.facts[m.i]
		tc := agentrun.ToolCall{
			ID:     f.toolCallID,
			Name:   f.toolName,
			Agent:  m.agent,
			Result: f.result,
			Start:  unixTime(s.start),
			End:    unixTime(s.end),
			SpanID: x.spanID(m.i),
		}
		if f.hasArgs {
			tc.Arguments = f.args
		} else if p, ok := req.find(s.start, tc.ID, tc.Name); ok {
			tc.Arguments = p.Arguments
		}
		tc.ArgumentsValid = jsonobj.Valid(tc.Arguments)
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
		x.toolSpans = append(x.toolSpans, int32(m.i))
		tr.ToolCalls = append(tr.ToolCalls, tc)
	}
}

// fillContent sets the run's input, history, output, instructions and tool
// definitions, decoding only the message attributes it needs.
func (x *extraction) fillContent(tr *agentrun.Trajectory, r int, llms []member) {
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
				tr.History = append(tr.History, agentrun.Message{Role: m.Role, Content: txt})
			}
		}
	}
	if tr.History == nil && first != nil && tr.Input != "" {
		tr.History = earlierTurns(first.input.messages(), tr.Input)
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

// stepKey is a step before ordering: its kind, its index into LLMCalls,
// ToolCalls or the run's agent spans, and its span's position.
type stepKey struct {
	kind  agentrun.StepKind
	index int
	si    int
	start int64
}

// fillSteps merges model calls, tool calls and sub-agent invocations in
// execution order.
func (x *extraction) fillSteps(tr *agentrun.Trajectory, agents []member) {
	n := len(tr.LLMCalls) + len(tr.ToolCalls) + len(agents)
	if n == 0 {
		return
	}
	keys := x.stepKeys[:0]
	for i, si := range x.callSpans {
		keys = append(keys, x.stepKey(agentrun.StepLLM, i, int(si)))
	}
	for i, si := range x.toolSpans {
		if si < 0 { // rebuilt from the model's request: no span
			keys = append(keys, stepKey{kind: agentrun.StepTool, index: i, si: -1, start: stepTime(tr.ToolCalls[i].Start)})
			continue
		}
		keys = append(keys, x.stepKey(agentrun.StepTool, i, int(si)))
	}
	for i, m := range agents {
		keys = append(keys, x.stepKey(agentrun.StepAgent, i, m.i))
	}
	x.stepKeys = keys
	x.orderSteps(keys)
	steps := make([]agentrun.Step, 0, n)
	for _, k := range keys {
		switch k.kind {
		case agentrun.StepLLM:
			c := &tr.LLMCalls[k.index]
			steps = append(steps, agentrun.Step{Kind: agentrun.StepLLM, Name: c.Model, SpanID: c.SpanID, Start: c.Start, End: c.End, Index: k.index})
		case agentrun.StepTool:
			c := &tr.ToolCalls[k.index]
			steps = append(steps, agentrun.Step{Kind: agentrun.StepTool, Name: c.Name, SpanID: c.SpanID, Start: c.Start, End: c.End, Index: k.index})
		default:
			m := agents[k.index]
			s := &x.t.spans[m.i]
			steps = append(steps, agentrun.Step{Kind: agentrun.StepAgent, Name: x.facts[m.i].agent, SpanID: x.spanID(m.i), Start: unixTime(s.start), End: unixTime(s.end), Index: -1})
		}
	}
	tr.Steps = steps
}

// stepKey keys a step of span si. The span is looked up by id, as the
// step's span id names it.
func (x *extraction) stepKey(kind agentrun.StepKind, index, si int) stepKey {
	id := x.t.spans[si].id
	pos, ok := x.idx.get(id)
	if !ok {
		pos = -1
	}
	return stepKey{kind: kind, index: index, si: pos, start: x.t.spans[si].start}
}

func lastUser(msgs []message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" && msgs[i].text() != "" {
			return i
		}
	}
	return -1
}

// outputText joins the texts of the output messages.
func outputText(msgs []message) string { return joinTexts(msgs, "", "assistant", "model") }

func systemText(msgs []message) string { return joinTexts(msgs, "system", "developer") }

// joinTexts joins the texts of the messages of the given roles, a line
// each.
func joinTexts(msgs []message, roles ...string) string {
	var out string
	for i := range msgs {
		if slices.Contains(roles, msgs[i].Role) {
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

// copyRunAttributes copies the configured run attributes (the span
// attributes kept besides the decoders' keys) into tr. The agent span's
// value wins over a resource attribute of the same key; the run's other
// spans only fill keys still missing, earliest first.
func (x *extraction) copyRunAttributes(tr *agentrun.Trajectory, r int, ms []member) {
	take := func(i int, override bool) {
		if x.t.spans[i].genaiOnly {
			return // no key outside the decoders' namespace
		}
		for _, a := range x.t.spans[i].attrs {
			if keepSpanAttr(a.key) {
				continue
			}
			if _, ok := tr.Attributes[a.key]; ok && !override {
				continue
			}
			setAttr(tr, a.key, a.value, 1)
		}
	}
	take(r, true)
	for _, m := range ms {
		if m.i != r {
			take(m.i, false)
		}
	}
}

// setAttr sets attribute k of tr, making the map, sized for n, when it has
// none.
func setAttr(tr *agentrun.Trajectory, k, v string, n int) {
	if tr.Attributes == nil {
		tr.Attributes = make(map[string]string, n)
	}
	tr.Attributes[k] = v
}
