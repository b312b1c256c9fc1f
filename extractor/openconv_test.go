package extractor

import (
	"reflect"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

func TestParseFlatMessages(t *testing.T) {
	tests := []struct {
		name   string
		prefix string
		as     attrs
		want   []message
	}{
		{
			name:   "openinference sparse and out of order",
			prefix: keyOIInputMessages,
			as: attrs{
				{"llm.input_messages.2.message.role", "tool"},
				{"llm.input_messages.2.message.tool_call_id", " call_1"},
				{"llm.input_messages.2.message.content", `{"t":18}`},
				{"llm.input_messages.1.message.role", "assistant"},
				{"llm.input_messages.1.message.tool_calls.0.tool_call.id", "call_1"},
				{"llm.input_messages.1.message.tool_calls.0.tool_call.function.name", "get_weather"},
				{"llm.input_messages.1.message.tool_calls.0.tool_call.function.arguments", `{"city":"Paris"}`},
				{"llm.input_messages.0.message.role", "user"},
				{"llm.input_messages.0.message.content", "Weather?"},
				{"llm.input_messagesX.0.message.role", "user"},
			},
			want: []message{
				{Role: "user", Parts: []part{{Type: partText, Content: "Weather?"}}},
				{Role: "assistant", Parts: []part{{Type: partToolCall, ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}}},
				{Role: "tool", Parts: []part{{Type: partToolCallResponse, ID: "call_1", Response: `{"t":18}`}}},
			},
		},
		{
			name:   "openinference ordered contents",
			prefix: keyOIOutputMessages,
			as: attrs{
				{"llm.output_messages.0.message.role", "assistant"},
				{"llm.output_messages.0.message.contents.1.message_content.text", "two"},
				{"llm.output_messages.0.message.contents.1.message_content.type", "text"},
				{"llm.output_messages.0.message.contents.0.message_content.text", "one"},
				{"llm.output_messages.0.message.contents.2.message_content.type", "image"},
			},
			want: []message{{Role: "assistant", Parts: []part{{Type: partText, Content: "one"}, {Type: partText, Content: "two"}}}},
		},
		{
			name:   "openllmetry legacy parallel tool calls",
			prefix: keyTLCompletion,
			as: attrs{
				{"gen_ai.completion.0.role", "assistant"},
				{"gen_ai.completion.0.finish_reason", "tool_calls"},
				{"gen_ai.completion.0.tool_calls.1.name", "b"},
				{"gen_ai.completion.0.tool_calls.1.id", "c2"},
				{"gen_ai.completion.0.tool_calls.0.name", "a"},
				{"gen_ai.completion.0.tool_calls.0.id", "c1"},
				{"gen_ai.completion.0.tool_calls.0.arguments", "{}"},
			},
			want: []message{{Role: "assistant", FinishReason: "tool_calls", Parts: []part{
				{Type: partToolCall, ID: "c1", Name: "a", Arguments: "{}"},
				{Type: partToolCall, ID: "c2", Name: "b"},
			}}},
		},
		{
			name:   "bad indices ignored",
			prefix: keyTLPrompt,
			as:     attrs{{"gen_ai.prompt.x.role", "user"}, {"gen_ai.prompt.-1.role", "user"}, {"gen_ai.prompt", "[]"}},
			want:   nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := parseFlatMessages(tc.as, tc.prefix)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestParseFlatToolDefs(t *testing.T) {
	as := attrs{
		{"llm.tools.1.tool.json_schema", `{"type":"function","function":{"name":"b","description":"B","parameters":{"type":"object"}}}`},
		{"llm.tools.0.tool.json_schema", `{"type":"function","function":{"name":"a"}}`},
		{"llm.tools.2.tool.json_schema", `not json`},
	}
	got := parseFlatToolDefs(as, keyOITools)
	want := []agentrun.ToolDefinition{{Name: "a"}, {Name: "b", Description: "B", Parameters: `{"type":"object"}`}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestParseValue(t *testing.T) {
	user := func(s string) []message {
		return []message{{Role: "user", Parts: []part{{Type: partText, Content: s}}}}
	}
	tests := []struct {
		in   string
		want []message
	}{
		{"plain question", user("plain question")},
		{`"quoted"`, user("quoted")},
		{`[{"role":"user","content":"hi"}]`, user("hi")},
		{`[1,2]`, nil},
		{`{"messages":[{"role":"user","content":"hi"}]}`, user("hi")},
		{`{"messages":[{"lc":1,"kwargs":{"content":"hi"}}]}`, nil},
		{`{"args":[],"kwargs":{"user_input":"hi"}}`, user("hi")},
		{`{"args":["hi"],"kwargs":{}}`, user("hi")},
		{`{"args":[],"kwargs":{"a":"x","b":"y"}}`, nil},
		{`{"args":[],"kwargs":{}}`, nil},
		{`{"text":"done"}`, user("done")},
		{`{"unknown":1}`, nil},
		{`{"broken`, user(`{"broken`)},
		{"  ", nil},
	}
	for _, tc := range tests {
		if got := parseValue(tc.in, false); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseValue(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
	if got := parseValue("answer", true); len(got) != 1 || got[0].Role != "assistant" {
		t.Errorf("output value: %+v", got)
	}
}

func TestUnwrapCallArgs(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"args":[],"kwargs":{"city":"Paris"}}`, `{"city":"Paris"}`},
		{`{"args":[{"city":"Paris"}],"kwargs":{}}`, `{"city":"Paris"}`},
		{`{"args":["Paris"],"kwargs":{}}`, `{"args":["Paris"],"kwargs":{}}`},
		{`{"input_str":"Paris","inputs":{"city":"Paris"},"tags":[]}`, `{"city":"Paris"}`},
		{`{"city":"Paris"}`, `{"city":"Paris"}`},
		{`{"args":[],"kwargs":{},"extra":1}`, `{"args":[],"kwargs":{},"extra":1}`},
		{`Paris`, `Paris`},
	}
	for _, tc := range tests {
		if got := unwrapCallArgs(tc.in); got != tc.want {
			t.Errorf("unwrapCallArgs(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if got := unwrapToolOutput(`{"output":{"lc":1,"kwargs":{"content":"{\"t\":1}","status":"success"}}}`); got != `{"t":1}` {
		t.Errorf("unwrapToolOutput = %s", got)
	}
}

func TestHandoffAndErrorText(t *testing.T) {
	for name, want := range map[string]string{
		"transfer_to_billing_agent": "billing_agent",
		"handoff_to_billing_agent":  "billing_agent",
		"handoff to billing_agent":  "billing_agent",
		"transfer_to_":              "",
		"get_weather":               "",
	} {
		got, ok := handoffTarget(name)
		if got != want || ok != (want != "") {
			t.Errorf("handoffTarget(%q) = %q, %v", name, got, ok)
		}
	}
	for s, want := range map[string]bool{
		"Error: CampaignLockedError: locked":                          true,
		"error running tool":                                          true,
		"An error occurred while running the tool. Please try again.": true,
		`{"error":null,"ok":true}`:                                    false,
		"Errors are rare here":                                        false,
		"Error":                                                       false,
	} {
		if got := looksLikeToolError(s); got != want {
			t.Errorf("looksLikeToolError(%q) = %v", s, got)
		}
	}
}

// toolRun builds a trace of one OpenInference run: an AGENT root, model
// calls requesting tools, and tool spans.
type toolRun struct {
	spans []span
	n     byte
}

func (r *toolRun) add(name string, parent int, startMs, endMs int64, as attrs, status int8) int {
	r.n++
	s := span{name: name, start: 1_800_000_000_000_000_000 + startMs*1e6, end: 1_800_000_000_000_000_000 + endMs*1e6, attrs: as, statusCode: status}
	s.id[7] = r.n
	if parent >= 0 {
		s.parent = r.spans[parent].id
	}
	r.spans = append(r.spans, s)
	return len(r.spans) - 1
}

func llmAttrs(kv ...string) attrs {
	as := attrs{{keyOISpanKind, "LLM"}}
	for i := 0; i+1 < len(kv); i += 2 {
		as = append(as, attr{kv[i], kv[i+1]})
	}
	return as
}

func TestPairToolsHardCases(t *testing.T) {
	const out = "llm.output_messages.0.message."
	r := &toolRun{}
	root := r.add("Agent workflow", -1, 0, 100, attrs{{keyOISpanKind, "AGENT"}, {keyOIInput, "Prefs and lock?"}}, 0)
	agent := r.add("home", root, 0, 100, attrs{{keyOISpanKind, "AGENT"}, {keyOIGraphNode, "home"}}, 0)
	// the model asks for two tools in parallel; no call ids on the spans,
	// one records a bare value
	r.add("response", agent, 1, 10, llmAttrs(
		out+"role", "assistant",
		out+"tool_calls.0.tool_call.id", "c1",
		out+"tool_calls.0.tool_call.function.name", "get_prefs",
		out+"tool_calls.0.tool_call.function.arguments", `{"user":"u1"}`,
		out+"tool_calls.1.tool_call.id", "c2",
		out+"tool_calls.1.tool_call.function.name", "get_lock",
		out+"tool_calls.1.tool_call.function.arguments", `{"door":"front"}`,
	), 0)
	// same start millisecond; get_lock ends first
	r.add("get_lock", agent, 10, 12, attrs{{keyOISpanKind, "TOOL"}, {keyOIToolName, "get_lock"}, {keyOIInput, `{"door":"front"}`}}, 0)
	r.add("get_prefs", agent, 10, 14, attrs{{keyOISpanKind, "TOOL"}, {keyOIToolName, "get_prefs"}, {keyOIInput, "u1"}}, 0)
	// then a call whose tool span was never exported and which failed,
	// and a handoff
	r.add("response", agent, 15, 20, llmAttrs(
		"llm.input_messages.0.message.role", "user",
		"llm.input_messages.0.message.content", "Prefs and lock?",
		out+"tool_calls.0.tool_call.id", "c3",
		out+"tool_calls.0.tool_call.function.name", "set_temp",
		out+"tool_calls.0.tool_call.function.arguments", `{"c":21}`,
		out+"tool_calls.1.tool_call.id", "c4",
		out+"tool_calls.1.tool_call.function.name", "transfer_to_billing",
		out+"tool_calls.1.tool_call.function.arguments", `{}`,
	), 0)
	r.add("response", agent, 30, 40, llmAttrs(
		"llm.input_messages.0.message.role", "tool",
		"llm.input_messages.0.message.tool_call_id", "c3",
		"llm.input_messages.0.message.content", "Error: thermostat offline",
		"llm.input_messages.1.message.role", "tool",
		"llm.input_messages.1.message.tool_call_id", "c4",
		"llm.input_messages.1.message.content", "{}",
		out+"role", "assistant",
		out+"content", "Sorry, the thermostat is offline.",
	), 0)
	trs := extractTrace(&Trace{spans: r.spans})
	if len(trs) != 1 {
		t.Fatalf("%d trajectories", len(trs))
	}
	tr := trs[0]
	type call struct {
		ID, Name, Args, Agent string
		Err                   bool
	}
	var got []call
	for _, c := range tr.ToolCalls {
		got = append(got, call{c.ID, c.Name, c.Arguments, c.Agent, c.Error != ""})
	}
	want := []call{
		{"c1", "get_prefs", `{"user":"u1"}`, "home", false},
		{"c2", "get_lock", `{"door":"front"}`, "home", false},
		{"c3", "set_temp", `{"c":21}`, "home", true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tool calls\ngot  %+v\nwant %+v", got, want)
	}
	if tr.Agent != "home" || tr.Input != "Prefs and lock?" || tr.Output != "Sorry, the thermostat is offline." {
		t.Errorf("agent %q input %q output %q", tr.Agent, tr.Input, tr.Output)
	}
	if len(tr.Handoffs) != 1 || tr.Handoffs[0].To != "billing" || tr.Handoffs[0].From != "home" {
		t.Errorf("handoffs %+v", tr.Handoffs)
	}
	// the rebuilt call has no span but a place among the steps
	var kinds []string
	for _, s := range tr.Steps {
		kinds = append(kinds, string(s.Kind)+":"+s.Name)
	}
	wantSteps := []string{"agent:home", "llm:", "tool:get_prefs", "tool:get_lock", "llm:", "tool:set_temp", "llm:"}
	if !reflect.DeepEqual(kinds, wantSteps) {
		t.Errorf("steps %v, want %v", kinds, wantSteps)
	}
	if c := tr.ToolCalls[2]; c.SpanID != "" || !c.Start.Equal(time.Unix(0, 1_800_000_000_020_000_000).UTC()) {
		t.Errorf("rebuilt call span %q start %v", c.SpanID, c.Start)
	}
}
