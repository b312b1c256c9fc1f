package simulator

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// maxTurns bounds the tool-calling turns of one run; an agent that needs
// more ends with MaxIterationsExceeded.
const maxTurns = 10

// plan is everything one run will do, decided before any span is sent.
// Durations are offsets from the start of the run.
type plan struct {
	sc             *scenario
	quality        Quality
	input          string
	conversationID string
	turns          []turnPlan
	// final is the last model call; nil when the agent stopped before it.
	final  *chatPlan
	output string
	// agentErrType and agentErrMsg are set when the run itself errored.
	agentErrType, agentErrMsg string
	total                     time.Duration
}

// turnPlan is one model call that requested tools, and those calls.
type turnPlan struct {
	chat  chatPlan
	calls []callPlan
}

// chatPlan is one model call.
type chatPlan struct {
	start, end          time.Duration
	responseID          string
	inTokens, outTokens int64
	finish              string // span finish reason; empty when the call failed
	errType, errMsg     string
}

// callPlan is one tool call.
type callPlan struct {
	Call
	start, end time.Duration
}

// planner draws runs from the scenario tables with a seeded generator.
type planner struct {
	rng       *rand.Rand
	scenarios []*scenario
	seq       int
}

func newPlanner(seed int64, scenarios []*scenario) *planner {
	return &planner{rng: rand.New(rand.NewPCG(uint64(seed), 0x5eed_51a7_0a6e_0001)), scenarios: scenarios}
}

// next plans the next run: scenarios in turn, a random task of the scenario.
func (pl *planner) next(q Quality) *plan {
	sc := pl.scenarios[pl.seq%len(pl.scenarios)]
	pl.seq++
	return pl.build(sc, &sc.Tasks[pl.rng.IntN(len(sc.Tasks))], q)
}

type pendingCall struct {
	spec    callSpec
	attempt int  // 0 for the first try
	repeat  bool // a redundant repeat of a successful call
}

// build decides the run's behaviour for one task.
func (pl *planner) build(sc *scenario, tk *task, q Quality) *plan {
	prof := q.profile()
	rng := pl.rng
	p := &plan{sc: sc, quality: q, input: tk.Input, conversationID: "conv_" + randString(rng, hexDigits, 16)}

	queue := make([][]pendingCall, 0, len(tk.Turns))
	for _, turn := range tk.Turns {
		pcs := make([]pendingCall, 0, len(turn))
		for _, c := range turn {
			pcs = append(pcs, pendingCall{spec: c})
		}
		queue = append(queue, pcs)
	}

	var gaveUp *Call
	for len(queue) > 0 && gaveUp == nil {
		if len(p.turns) == maxTurns {
			p.agentErrType = "MaxIterationsExceeded"
			p.agentErrMsg = fmt.Sprintf("agent stopped after %d tool-calling turns", maxTurns)
			break
		}
		cur := queue[0]
		queue = queue[1:]
		var tp turnPlan
		var follow []pendingCall
		for _, pc := range cur {
			tool := sc.tool(pc.spec.Tool)
			c := Call{ID: "call_" + randString(rng, alnumDigits, 24), Name: pc.spec.Tool, Arguments: pc.spec.Args}
			switch {
			case pc.attempt == 0 && !pc.repeat && rng.Float64() < prof.invalidArgs:
				c.InvalidArguments, c.Arguments, c.ErrorType, c.Error = breakArgs(rng, tool, pc.spec.Args)
				if rng.Float64() < prof.fixAfterInvalid {
					follow = append(follow, pendingCall{spec: pc.spec, attempt: pc.attempt + 1})
				} else if gaveUp == nil {
					gaveUp = &c
				}
			case rng.Float64() < prof.toolFail:
				f := tool.Failures[rng.IntN(len(tool.Failures))]
				c.ErrorType, c.Error = f.Type, f.Message
				if pc.attempt < 2 && rng.Float64() < prof.retryAfterFail {
					follow = append(follow, pendingCall{spec: pc.spec, attempt: pc.attempt + 1})
				} else if gaveUp == nil {
					gaveUp = &c
				}
			default:
				c.Result = pc.spec.Result
				if !pc.repeat && rng.Float64() < prof.repeat {
					follow = append(follow, pendingCall{spec: pc.spec, attempt: pc.attempt, repeat: true})
				}
			}
			tp.calls = append(tp.calls, callPlan{Call: c})
		}
		p.turns = append(p.turns, tp)
		if len(follow) > 0 {
			queue = append([][]pendingCall{follow}, queue...)
		}
	}
	markRepeats(p)

	if p.agentErrType == "" {
		final := &chatPlan{finish: "stop"}
		r := rng.Float64()
		switch {
		case r < prof.runError:
			e := llmFailure(rng.IntN(3))
			final.finish = ""
			final.errType, final.errMsg = e.chatType, e.msg
			p.agentErrType, p.agentErrMsg = e.agentType, e.msg
		case r < prof.runError+prof.noOutput:
			final.finish = "length"
		case gaveUp != nil:
			p.output = fmt.Sprintf(sc.Apology, gaveUp.Name, gaveUp.Error)
		default:
			p.output = tk.Answer
		}
		p.final = final
	}
	pl.layout(p, prof)
	return p
}

// markRepeats flags calls whose name and arguments an earlier call had.
func markRepeats(p *plan) {
	seen := map[[2]string]bool{}
	for ti := range p.turns {
		for ci := range p.turns[ti].calls {
			c := &p.turns[ti].calls[ci].Call
			k := [2]string{c.Name, c.Arguments}
			c.Repeated = seen[k]
			seen[k] = true
		}
	}
}

// layout gives every step simulated start and end offsets, response ids
// and token counts.
func (pl *planner) layout(p *plan, prof profile) {
	rng := pl.rng
	dur := func(minMS, maxMS int) time.Duration {
		ms := float64(minMS+rng.IntN(maxMS-minMS+1)) * prof.latency
		return time.Duration(ms * float64(time.Millisecond))
	}
	gap := func() time.Duration { return time.Duration(1+rng.IntN(5)) * time.Millisecond }
	sys := len(p.sc.System) + len(mustJSON(toolDefinitions(p.sc)))

	cur := gap()
	chat := func(c *chatPlan, in []chatMessage, out []chatMessage) {
		c.start = cur
		c.end = cur + dur(350, 1400)
		cur = c.end + gap()
		c.responseID = p.sc.ResponseIDPrefix + randString(rng, alnumDigits, 24)
		if c.errType == "" {
			c.inTokens = int64((sys + len(mustJSON(in))) / 4)
			c.outTokens = int64(len(mustJSON(out))/4 + 3)
		}
	}
	for i := range p.turns {
		t := &p.turns[i]
		chat(&t.chat, inputMessages(p, i), turnOutput(t))
		t.chat.finish = "tool_calls"
		for j := range t.calls {
			c := &t.calls[j]
			c.start = cur
			c.end = cur + dur(15, 350)
			cur = c.end + gap()
		}
	}
	if p.final != nil {
		chat(p.final, inputMessages(p, len(p.turns)), finalOutput(p.output))
	}
	p.total = cur + gap()
}

type llmError struct{ chatType, agentType, msg string }

// llmFailure is one of the three model-call failures that end a run.
func llmFailure(i int) llmError {
	return [...]llmError{
		{"429", "RateLimitError", "rate limit reached for requests"},
		{"500", "InternalServerError", "the model provider returned an internal error"},
		{"timeout", "TimeoutError", "model call timed out after 30s"},
	}[i]
}

const (
	hexDigits   = "0123456789abcdef"
	alnumDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
)

func randString(rng *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

// tokens sums the usage of the run's model calls.
func (p *plan) tokens() (in, out int64) {
	for _, t := range p.turns {
		in += t.chat.inTokens
		out += t.chat.outTokens
	}
	if p.final != nil {
		in += p.final.inTokens
		out += p.final.outTokens
	}
	return in, out
}

// llmCalls counts the run's model calls.
func (p *plan) llmCalls() int {
	n := len(p.turns)
	if p.final != nil {
		n++
	}
	return n
}

// calls lists the run's tool calls in order.
func (p *plan) calls() []Call {
	var out []Call
	for _, t := range p.turns {
		for _, c := range t.calls {
			out = append(out, c.Call)
		}
	}
	return out
}
