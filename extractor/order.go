package extractor

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// Span start times are often whole milliseconds, so a tool span and the
// next model span can start in the same millisecond. Order is therefore
// decided by start time, then end time, then parent before child, then the
// order in which the model requested the calls (tool_call parts), then span
// id so the result is deterministic.

func cmpSpans(a, b *span) int {
	if c := cmp.Compare(a.start, b.start); c != 0 {
		return c
	}
	if c := cmp.Compare(a.end, b.end); c != 0 {
		return c
	}
	return bytes.Compare(a.id[:], b.id[:])
}

// isAncestor reports whether span a is an ancestor of span b.
func (x *extraction) isAncestor(a, b int) bool {
	return x.ancestor(b, func(p int) bool { return p == a }) >= 0
}

// causal compares two spans of a run by the causal order rule; tie is
// called only when time and ancestry do not decide.
func (x *extraction) causal(a, b int, tie func(a, b int) int) int {
	sa, sb := &x.t.spans[a], &x.t.spans[b]
	if c := cmp.Compare(sa.start, sb.start); c != 0 {
		return c
	}
	if c := cmp.Compare(sa.end, sb.end); c != 0 {
		return c
	}
	if x.isAncestor(a, b) {
		return -1
	}
	if x.isAncestor(b, a) {
		return 1
	}
	if tie != nil {
		if c := tie(a, b); c != 0 {
			return c
		}
	}
	return bytes.Compare(sa.id[:], sb.id[:])
}

func (x *extraction) orderTools(tools []member, req *requested) {
	tie := func(a, b int) int {
		return cmp.Compare(req.position(x.facts[a].toolCallID), req.position(x.facts[b].toolCallID))
	}
	slices.SortStableFunc(tools, func(a, b member) int {
		// calls requested together start together: the request order
		// decides before the end times, which only say which was quicker
		if x.t.spans[a.i].start == x.t.spans[b.i].start {
			if c := tie(a.i, b.i); c != 0 {
				return c
			}
		}
		return x.causal(a.i, b.i, tie)
	})
}

func (x *extraction) orderSteps(keys []stepKey) {
	slices.SortStableFunc(keys, func(a, b stepKey) int {
		if x.requestOrdered && a.kind == agentrun.StepTool && b.kind == agentrun.StepTool && a.start == b.start {
			// tool calls paired with the model's requests are in request
			// order
			return cmp.Compare(a.index, b.index)
		}
		if a.si < 0 || b.si < 0 {
			return unixTime(a.start).Compare(unixTime(b.start))
		}
		return x.causal(a.si, b.si, nil)
	})
}

// requested gives access to the tool calls the model requested in its
// output messages. Output messages are decoded only when asked for.
type requested struct {
	x    *extraction
	llms []member // in start order

	built bool
	pos   map[string]int
}

// position is the index of call id among all requested tool calls of the
// run, in request order; unknown ids sort last.
func (r *requested) position(id string) int {
	if id == "" {
		return int(^uint(0) >> 1)
	}
	if !r.built {
		r.built = true
		r.pos = make(map[string]int)
		n := 0
		for _, m := range r.llms {
			for _, msg := range r.x.facts[m.i].output.messages() {
				for _, p := range msg.Parts {
					if p.Type == partToolCall && p.ID != "" {
						if _, ok := r.pos[p.ID]; !ok {
							r.pos[p.ID] = n
						}
						n++
					}
				}
			}
		}
	}
	if p, ok := r.pos[id]; ok {
		return p
	}
	return int(^uint(0) >> 1)
}

// find returns the tool_call part that requested a tool call starting at
// start: by call id, else by name, looking first at the latest model call
// that started before the tool, then at the others.
func (r *requested) find(start int64, id, name string) (part, bool) {
	if len(r.llms) == 0 {
		return part{}, false
	}
	order := make([]int, 0, len(r.llms))
	for k := len(r.llms) - 1; k >= 0; k-- {
		if r.x.t.spans[r.llms[k].i].start <= start {
			order = append(order, k)
		}
	}
	for k := range r.llms {
		if r.x.t.spans[r.llms[k].i].start > start {
			order = append(order, k)
		}
	}
	match := func(byID bool) (part, bool) {
		for _, k := range order {
			for _, msg := range r.x.facts[r.llms[k].i].output.messages() {
				for _, p := range msg.Parts {
					if p.Type != partToolCall {
						continue
					}
					if byID && p.ID == id || !byID && p.Name == name {
						return p, true
					}
				}
			}
		}
		return part{}, false
	}
	if id != "" {
		if p, ok := match(true); ok {
			return p, true
		}
	}
	if name != "" {
		return match(false)
	}
	return part{}, false
}

// response returns the result sent back to the model for call id: the
// tool_call_response part in the input of a model call that started after
// the tool did. It is the fallback when the tool span has no result.
func (r *requested) response(start int64, id string) string {
	for _, m := range r.llms {
		if r.x.t.spans[m.i].start < start {
			continue
		}
		for _, msg := range r.x.facts[m.i].input.messages() {
			for _, p := range msg.Parts {
				if p.Type == partToolCallResponse && p.ID == id {
					return p.Response
				}
			}
		}
	}
	return ""
}
