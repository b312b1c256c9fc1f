package simulator

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
)

// Attribute keys that semconv v1.41.0 does not define.
const (
	// genAISystemKey is the v1.28–1.36 name of gen_ai.provider.name, sent
	// alongside it in event form as instrumentations of that era did.
	genAISystemKey = attribute.Key("gen_ai.system")
)

// emitter turns a plan into spans (and log records in event form).
type emitter struct {
	pl        *pipeline
	eventForm bool
	release   string
}

// emit sends the run of p, ending at end, and returns its ground truth.
func (e *emitter) emit(ctx context.Context, p *plan, end time.Time) Run {
	t0 := end.Add(-p.total)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	sc := p.sc

	rootAttrs := []attribute.KeyValue{
		semconv.GenAIOperationNameInvokeAgent,
		semconv.GenAIAgentName(sc.Agent),
		semconv.GenAIAgentVersion(e.release),
		semconv.GenAIProviderNameKey.String(sc.Provider),
		semconv.GenAIRequestModel(sc.Model),
		semconv.GenAIConversationID(p.conversationID),
	}
	rootAttrs = append(rootAttrs, e.messageAttrs(p, 0)...)
	ctx, root := e.pl.tracer.Start(ctx, "invoke_agent "+sc.Agent,
		trace.WithNewRoot(),
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithTimestamp(t0),
		trace.WithAttributes(rootAttrs...),
	)

	defs := mustJSON(toolDefinitions(sc))
	for i := range p.turns {
		t := &p.turns[i]
		e.chat(ctx, p, &t.chat, i, turnOutput(t), defs, at)
		for j := range t.calls {
			e.tool(ctx, sc, &t.calls[j], at)
		}
	}
	if p.final != nil {
		var out []chatMessage
		if p.final.errType == "" {
			out = finalOutput(p.output)
		}
		e.chat(ctx, p, p.final, len(p.turns), out, defs, at)
	}

	in, out := p.tokens()
	root.SetAttributes(semconv.GenAIUsageInputTokens(int(in)), semconv.GenAIUsageOutputTokens(int(out)))
	if p.output != "" && !e.eventForm {
		root.SetAttributes(semconv.GenAIOutputMessagesKey.String(mustJSON(finalOutput(p.output))))
	}
	if p.agentErrType != "" {
		setError(root, p.agentErrType, p.agentErrMsg, at(p.total))
	}
	root.End(trace.WithTimestamp(at(p.total)))

	sctx := root.SpanContext()
	return Run{
		TraceID:        sctx.TraceID().String(),
		SpanID:         sctx.SpanID().String(),
		Scenario:       sc.Name,
		Agent:          sc.Agent,
		Release:        e.release,
		Quality:        p.quality,
		ConversationID: p.conversationID,
		Model:          sc.Model,
		Input:          p.input,
		Output:         p.output,
		ToolCalls:      p.calls(),
		LLMCalls:       p.llmCalls(),
		Failed:         p.agentErrType != "" || p.output == "",
		ErrorType:      p.agentErrType,
		Start:          t0,
		End:            at(p.total),
	}
}

// messageAttrs carry the messages sent to model call idx (idx 0 for the
// agent span): the system instructions and input messages, or in event
// form only gen_ai.system, the messages going as log records.
func (e *emitter) messageAttrs(p *plan, idx int) []attribute.KeyValue {
	if e.eventForm {
		return []attribute.KeyValue{genAISystemKey.String(p.sc.Provider)}
	}
	return []attribute.KeyValue{
		semconv.GenAISystemInstructionsKey.String(mustJSON([]messagePart{textPart(p.sc.System)})),
		semconv.GenAIInputMessagesKey.String(mustJSON(inputMessages(p, idx))),
	}
}

// chat sends the span of model call idx; out is nil when the call failed.
func (e *emitter) chat(ctx context.Context, p *plan, c *chatPlan, idx int, out []chatMessage, defs string, at func(time.Duration) time.Time) {
	sc := p.sc
	attrs := []attribute.KeyValue{
		semconv.GenAIOperationNameChat,
		semconv.GenAIProviderNameKey.String(sc.Provider),
		semconv.GenAIRequestModel(sc.Model),
		semconv.GenAIRequestMaxTokensKey.Int(1024),
		semconv.GenAIRequestTemperatureKey.Float64(0.2),
		semconv.ServerAddress(sc.ServerAddress),
		semconv.ServerPort(443),
		semconv.GenAIConversationID(p.conversationID),
		semconv.GenAIToolDefinitionsKey.String(defs),
	}
	attrs = append(attrs, e.messageAttrs(p, idx)...)
	cctx, span := e.pl.tracer.Start(ctx, "chat "+sc.Model,
		trace.WithSpanKind(trace.SpanKindClient),
		trace.WithTimestamp(at(c.start)),
		trace.WithAttributes(attrs...),
	)
	if e.eventForm {
		e.inputEvents(cctx, p, idx, at(c.start))
	}
	if c.errType != "" {
		setError(span, c.errType, c.errMsg, at(c.end))
	} else {
		span.SetAttributes(
			semconv.GenAIResponseIDKey.String(c.responseID),
			semconv.GenAIResponseModelKey.String(sc.ResponseModel),
			semconv.GenAIResponseFinishReasons(c.finish),
			semconv.GenAIUsageInputTokens(int(c.inTokens)),
			semconv.GenAIUsageOutputTokens(int(c.outTokens)),
		)
		if e.eventForm {
			e.choiceEvent(cctx, p, idx, c.finish, at(c.end))
		} else {
			span.SetAttributes(semconv.GenAIOutputMessagesKey.String(mustJSON(out)))
		}
	}
	span.End(trace.WithTimestamp(at(c.end)))
}

// tool sends the span of one tool call.
func (e *emitter) tool(ctx context.Context, sc *scenario, c *callPlan, at func(time.Duration) time.Time) {
	_, span := e.pl.tracer.Start(ctx, "execute_tool "+c.Name,
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithTimestamp(at(c.start)),
		trace.WithAttributes(
			semconv.GenAIOperationNameExecuteTool,
			semconv.GenAIToolName(c.Name),
			semconv.GenAIToolCallID(c.ID),
			semconv.GenAIToolTypeKey.String("function"),
			semconv.GenAIToolDescriptionKey.String(sc.tool(c.Name).Description), // loadScenarios checked the name
			semconv.GenAIToolCallArgumentsKey.String(c.Arguments),
		),
	)
	if c.ErrorType != "" {
		setError(span, c.ErrorType, c.Error, at(c.end))
	} else {
		span.SetAttributes(semconv.GenAIToolCallResultKey.String(c.Result))
	}
	span.End(trace.WithTimestamp(at(c.end)))
}

// setError records a failure the way the OTel "Recording Errors" guidance
// asks: status ERROR with a description, error.type, and an exception event.
func setError(span trace.Span, errType, msg string, ts time.Time) {
	span.SetStatus(codes.Error, msg)
	span.SetAttributes(semconv.ErrorTypeKey.String(errType))
	span.AddEvent("exception", trace.WithTimestamp(ts), trace.WithAttributes(
		semconv.ExceptionTypeKey.String(errType),
		semconv.ExceptionMessageKey.String(msg),
	))
}
