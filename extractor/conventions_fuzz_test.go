package extractor

import (
	"encoding/json"
	"testing"
)

// FuzzConventionContent decodes arbitrary text as the content forms of the
// Vercel AI SDK, Google ADK, Strands, Pydantic AI and LangSmith decoders.
// None may panic, and every decoded tool call must carry its type.
func FuzzConventionContent(f *testing.F) {
	for _, s := range []string{
		`{"system":"be brief","messages":[{"role":"user","content":"hi"}]}`,
		`{"prompt":"hi"}`,
		`[{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"tool-call","toolCallId":"c1","toolName":"t","input":"{\"x\":1}"}]},{"role":"tool","content":[{"type":"tool-result","toolCallId":"c1","output":{"type":"json","value":{"ok":true}}}]}]`,
		`[{"toolCallId":"c1","toolName":"t","args":{"x":1}}]`,
		`{"model":"gemini","config":{"system_instruction":{"parts":[{"text":"s"}]}},"contents":[{"role":"user","parts":[{"text":"q"},{"function_response":{"id":"a","name":"t","response":{"result":"r"}}}]}]}`,
		`{"content":{"role":"model","parts":[{"functionCall":{"name":"t","args":{}}}]},"finish_reason":"STOP"}`,
		`{"result": "sunny"}`,
		`[{"text":"a"},{"toolUse":{"toolUseId":"u","name":"t","input":{"c":1}}},{"toolResult":{"toolUseId":"u","content":[{"json":{"a":1}}]}}]`,
		`[{"event.name":"gen_ai.user.message","content":"q"},{"event.name":"gen_ai.choice","message":{"content":"a"}}]`,
		`{"messages":[[{"lc":1,"type":"constructor","id":["x","HumanMessage"],"kwargs":{"content":"q"}}]]}`,
		`{"generations":[[{"text":"a","message":{"type":"ai","content":"a","tool_calls":[{"name":"t","args":{},"id":"i"}]}}]]}`,
		`{"output":{"kwargs":{"content":"r"}}}`,
		`{"input":"{\"a\":1}"}`,
		`"\"quoted\""`, `[[[[[[[[]]]]]]]]`, `{"messages":5}`, `null`, `{}`, ``, "\xff\xfe",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var all [][]message
		all = append(all,
			parseVercelPrompt(s, ""), parseVercelMessages(s, ""), parseVercelOutput(s, s),
			parseADKRequest(s, ""), parseADKResponse(s, ""),
			parsePydanticEvents(s, ""), parseFinalResult(s, ""),
			parseLangSmithInput(s, ""), parseLangSmithOutput(s, ""),
		)
		evs := []*event{
			{name: evSystemMessage, attrs: attrs{{key: "content", value: s}}},
			{name: evUserMessage, attrs: attrs{{key: "content", value: s}}},
			{name: evChoice, attrs: attrs{{key: "message", value: s}}},
		}
		for _, side := range [...]eventSide{sideInput, sideOutput, sideSystem} {
			all = append(all, strandsEvents(evs, side))
		}
		for _, msgs := range all {
			for i := range msgs {
				for _, p := range msgs[i].Parts {
					if p.Type == "" {
						t.Fatalf("part without a type from %q", s)
					}
				}
				_ = msgs[i].text()
			}
			_ = outputText(msgs)
			_ = systemText(msgs)
			_ = lastUser(msgs)
		}
		_ = adkToolResult(s)
		_ = strandsBlocks(s)
		_ = strandsResultText(s)
		_ = langsmithToolInput(s)
		_ = langsmithToolOutput(s)
		_ = jsonStringValue(s)
		_ = argsHandoffTarget("transfer_to_agent", s, "")
	})
}

// FuzzConventionSpan runs every decoder and extraction on a three-span run
// whose span names, scope and one attribute come from the input. Nothing
// may panic, and the trajectory must marshal.
func FuzzConventionSpan(f *testing.F) {
	f.Add("ai.generateText", "ai", keyAIPrompt, `{"prompt":"hi"}`)
	f.Add("ai.toolCall", "ai", keyAIToolCallArgs, `{"a":1}`)
	f.Add("call_llm", adkScope, keyADKLLMRequest, `{"contents":[{"role":"user","parts":[{"text":"q"}]}]}`)
	f.Add("execute_tool (merged)", adkScope, keyADKToolResponse, `{"result":1}`)
	f.Add("agent_run [x]", adkScope, keyADKSessionID, "s")
	f.Add("execute_event_loop_cycle", "strands.telemetry.tracer", keySystem, strandsProvider)
	f.Add("agent run", pydanticScope, keyPydanticMsgEvents, `[{"event.name":"gen_ai.user.message","content":"q"}]`)
	f.Add("running tool", pydanticScope, keyPydanticFailure, "validate")
	f.Add("travel", "langsmith", keyLangSmithKind, "chain")
	f.Add("step 1", "ai", keyOperation, opAgentStep)
	f.Fuzz(func(t *testing.T, name, scope, key, value string) {
		ms := int64(1_000_000)
		evs := []event{{name: evUserMessage, attrs: attrs{{key: "content", value: value}}}, {name: evChoice, attrs: attrs{{key: "message", value: value}}}}
		tr := &Trace{id: [16]byte{1}, spans: []span{
			{id: [8]byte{1}, name: name, scope: scope, start: ms, end: 10 * ms, attrs: attrs{{key: key, value: value}}, events: evs},
			{id: [8]byte{2}, parent: [8]byte{1}, name: "execute_tool " + name, scope: scope, start: 2 * ms, end: 3 * ms,
				attrs: attrs{{key: keyOperation, value: opExecuteTool}, {key: key, value: value}}, events: evs},
			{id: [8]byte{3}, parent: [8]byte{1}, name: name, scope: scope, start: 4 * ms, end: 5 * ms,
				attrs: attrs{{key: keyLangSmithKind, value: "llm"}, {key: key, value: value}, {key: keyWholeCompletion, value: value}}},
		}}
		for _, traj := range extractTrace(tr) {
			if _, err := json.Marshal(traj); err != nil {
				t.Fatal(err)
			}
		}
	})
}
