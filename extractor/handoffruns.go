package extractor

import "github.com/tidwall/gjson"

// Some frameworks run a handoff as a new top-level agent invocation rather
// than a nested one: the Vercel AI SDK app calls generateText again for the
// agent that a transfer_to_<agent> tool named, so the trace holds sibling
// invoke_agent (or ai.generateText) spans. The later one continues the
// earlier run: it is built into the same trajectory, as a sub-agent.

// handoffChain returns how many runs, from runs[k] on, form one run: each
// continues the one before it through a handoff. runs is in start order.
func (x *extraction) handoffChain(runs []int, k int) int {
	n := 1
	for k+n < len(runs) && x.handsOffTo(runs[k:k+n], runs[k+n]) {
		n++
	}
	return n
}

// handsOffTo reports whether one of the runs in group handed off to run b:
// b is their sibling (same parent span), and a tool span under the group
// transfers to b's agent.
func (x *extraction) handsOffTo(group []int, b int) bool {
	target := x.facts[b].agent
	if target == "" || x.parent[b] != x.parent[group[0]] {
		return false
	}
	for i := range x.facts {
		f := &x.facts[i]
		if f.class != classTool || handoffTo(f) != target {
			continue
		}
		for _, a := range group {
			if x.isAncestor(a, i) {
				return true
			}
		}
	}
	return false
}

// handoffTo returns the agent a handoff tool span transfers to: named by
// the tool (transfer_to_<agent>, handoff_to_<agent>), or by ADK's
// transfer_to_agent argument agent_name.
func handoffTo(f *spanFacts) string {
	to, _ := handoffTarget(f.toolName)
	return argsHandoffTarget(f.toolName, f.args, to)
}

// argsHandoffTarget returns the agent named by the arguments of ADK's
// generic transfer_to_agent tool, else to.
func argsHandoffTarget(name, args, to string) string {
	if name == "transfer_to_agent" {
		if a := gjson.Get(args, "agent_name").String(); a != "" {
			return a
		}
	}
	return to
}
