package extractor

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzFlattened reassembles arbitrary flattened attributes as OpenInference
// and OpenLLMetry message lists and tool definitions. It must never panic,
// and every message must come from a key under the prefix.
func FuzzFlattened(f *testing.F) {
	f.Add("llm.input_messages.0.message.role", "user", "llm.input_messages.0.message.content", "hi")
	f.Add("llm.output_messages.0.message.tool_calls.0.tool_call.function.name", "get_weather",
		"llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments", `{"city":"Paris"}`)
	f.Add("gen_ai.prompt.3.role", "tool", "gen_ai.prompt.3.tool_call_id", "call_1")
	f.Add("gen_ai.completion.0.tool_calls.1.name", "x", "gen_ai.completion.0.tool_calls.1.arguments", "not json")
	f.Add("llm.output_messages.0.message.contents.2.message_content.text", "a", "llm.output_messages.0.message.contents.2.message_content.type", "text")
	f.Add("llm.tools.0.tool.json_schema", `{"type":"function","function":{"name":"f"}}`, "llm.request.functions.0.name", "g")
	f.Add("llm.input_messages.99999999999.message.role", "user", "llm.input_messages..message", "")
	f.Add("gen_ai.prompt.-1.role", "user", "gen_ai.prompt.1", "x")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string) {
		as := attrs{{key: k1, value: v1}, {key: k2, value: v2}}
		for _, prefix := range []string{keyOIInputMessages, keyOIOutputMessages, keyTLPrompt, keyTLCompletion} {
			msgs := parseFlatMessages(as, prefix)
			if len(msgs) > 2 {
				t.Fatalf("%d messages from 2 attributes", len(msgs))
			}
			if len(msgs) > 0 && !strings.HasPrefix(k1, prefix+".") && !strings.HasPrefix(k2, prefix+".") {
				t.Fatalf("messages from keys outside %s", prefix)
			}
			_ = outputText(msgs)
			_ = systemText(msgs)
		}
		for _, prefix := range []string{keyOITools, keyTLFunctions} {
			for _, d := range parseFlatToolDefs(as, prefix) {
				if d.Name == "" {
					t.Fatal("tool definition without a name")
				}
			}
		}
		_ = flatFinishReasons(as)
		_, _, _ = cutIndex(k1)
	})
}

// FuzzValue decodes arbitrary text as an input.value / output.value /
// traceloop.entity.* value and as wrapped tool arguments and results. It
// must never panic; a message list it returns has roles.
func FuzzValue(f *testing.F) {
	for _, s := range []string{
		`What's the weather?`,
		`"a JSON string"`,
		`[{"role":"user","content":"hi"}]`,
		`[1,2,3]`,
		`{"messages":[{"role":"user","content":"hi"}]}`,
		`{"args":[],"kwargs":{"user_input":"hi"}}`,
		`{"args":["hi"],"kwargs":{}}`,
		`{"args":[{"a":1}],"kwargs":{}}`,
		`{"input_str":"x","inputs":{"a":1},"tags":[]}`,
		`{"output":{"lc":1,"kwargs":{"content":"ok","status":"success"}}}`,
		`{"text":"done"}`,
		`{"a":`, `{}`, ``, `"\ud800"`, `[[[[[[[[[[]]]]]]]]]]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []bool{false, true} {
			msgs := parseValue(s, out)
			for i := range msgs {
				if msgs[i].Role == "" && len(msgs) == 1 && len(msgs[i].Parts) == 1 {
					t.Fatalf("text message without a role from %q", s)
				}
				_ = msgs[i].text()
			}
		}
		_ = unwrapCallArgs(s)
		_ = unwrapToolOutput(s)
		_ = looksLikeToolError(s)
		_, _ = handoffTarget(s)
		_ = jsonEqualText(s, s+" ")
		_ = strconv.Quote(s)
	})
}
