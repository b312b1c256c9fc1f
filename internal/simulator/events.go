package simulator

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	otellog "go.opentelemetry.io/otel/log"
)

// Event names of the GenAI v1.28–1.36 message events.
const (
	EventSystemMessage    = "gen_ai.system.message"
	EventUserMessage      = "gen_ai.user.message"
	EventAssistantMessage = "gen_ai.assistant.message"
	EventToolMessage      = "gen_ai.tool.message"
	EventChoice           = "gen_ai.choice"
)

// inputEvents emits the messages sent to model call idx as log records in
// message order; ctx carries the chat span, so each record holds its trace
// and span id.
func (e *emitter) inputEvents(ctx context.Context, p *plan, idx int, ts time.Time) {
	sys := p.sc.Provider
	e.event(ctx, EventSystemMessage, sys, ts, attribute.String("content", p.sc.System))
	e.event(ctx, EventUserMessage, sys, ts, attribute.String("content", p.input))
	for _, t := range p.turns[:idx] {
		e.event(ctx, EventAssistantMessage, sys, ts, attribute.KeyValue{Key: "tool_calls", Value: toolCallsValue(t.calls)})
		for i := range t.calls {
			c := &t.calls[i].Call
			e.event(ctx, EventToolMessage, sys, ts,
				attribute.String("content", toolResponseText(c)),
				attribute.String("id", c.ID),
			)
		}
	}
}

// choiceEvent emits the response of model call idx as a gen_ai.choice
// record.
func (e *emitter) choiceEvent(ctx context.Context, p *plan, idx int, finish string, ts time.Time) {
	msg := []attribute.KeyValue{attribute.String("role", "assistant")}
	if idx < len(p.turns) {
		msg = append(msg, attribute.KeyValue{Key: "tool_calls", Value: toolCallsValue(p.turns[idx].calls)})
	} else if p.output != "" {
		msg = append(msg, attribute.String("content", p.output))
	}
	e.event(ctx, EventChoice, p.sc.Provider, ts,
		attribute.Int("index", 0),
		attribute.String("finish_reason", finish),
		attribute.KeyValue{Key: "message", Value: attribute.MapValue(msg...)},
	)
}

// toolCallsValue is the tool_calls list of an assistant message or choice:
// [{id, type: "function", function: {name, arguments}}], arguments as the
// raw JSON text.
func toolCallsValue(calls []callPlan) attribute.Value {
	vals := make([]attribute.Value, 0, len(calls))
	for i := range calls {
		c := &calls[i].Call
		vals = append(vals, attribute.MapValue(
			attribute.String("id", c.ID),
			attribute.String("type", "function"),
			attribute.KeyValue{Key: "function", Value: attribute.MapValue(
				attribute.String("name", c.Name),
				attribute.String("arguments", c.Arguments),
			)},
		))
	}
	return attribute.SliceValue(vals...)
}

func (e *emitter) event(ctx context.Context, name, system string, ts time.Time, body ...attribute.KeyValue) {
	var r otellog.Record
	r.SetEventName(name)
	r.SetTimestamp(ts)
	r.SetObservedTimestamp(ts)
	r.SetSeverity(otellog.SeverityInfo)
	r.SetBody(attribute.MapValue(body...))
	r.AddAttributes(genAISystemKey.String(system))
	e.pl.logger.Emit(ctx, r)
}
