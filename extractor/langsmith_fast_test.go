package extractor

import (
	"reflect"
	"strings"
	"testing"
)

// langsmithCases are LangSmith inputs and outputs the fast readers must
// read exactly as the struct decoder does, or decline.
var langsmithCases = []string{
	`{"messages":[{"role":"user","content":"Find a flight to Lisbon"}]}`,
	`{"messages":[{"role":"user","content":"hi"},{"type":"ai","content":"TP1234 leaves at 09:10."}]}`,
	`{"messages":[[{"lc":1,"type":"constructor","id":["langchain","schema","messages","SystemMessage"],"kwargs":{"content":"You are a travel assistant."}},{"lc":1,"type":"constructor","id":["langchain","schema","messages","HumanMessage"],"kwargs":{"content":"Find"}}]]}`,
	`{"generations":[[{"text":"","message":{"lc":1,"type":"constructor","id":["langchain","schema","messages","AIMessage"],"kwargs":{"content":"","tool_calls":[{"name":"search_flights","args":{"to":"LIS"},"id":" call_ls_1 ","type":"tool_call"}]}}}]]}`,
	`{"messages":[[{"role":"system","content":"sys"},{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"to\":\"LIS\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"ok"}]]}`,
	`{"generations":[[{"text":"TP1234 leaves at 09:10.","message":{"type":"ai","content":"TP1234 leaves at 09:10."}}]]}`,
	`{"generations":[[{"text":"plain"}]]}`,
	`{"generations":[[]],"output":"fallback"}`,
	`{"generations":[],"output":{"type":"ai","content":"obj output"}}`,
	`{"generations":[[{"text":"x"}],[{"message":{"type":"ai","tool_calls":"bad"}}]]}`,
	`{"generations":[5]}`,
	`{"generations":"no"}`,
	`{"output":{"kwargs":{"content":"kw"},"id":["x","AIMessage"]}}`,
	`{"output":["a",{"type":"text","text":"b"}]}`,
	`{"input":"just text"}`,
	`{"question":{"k":1},"query":"q"}`,
	`{"prompt":"p","other":1}`,
	`{"messages":null,"input":"x"}`,
	`{"messages":"str"}`,
	`{}`,
	`[{"role":"user","content":"list"},{"type":"ai","content":[{"type":"text","text":"parts"}]}]`,
	`[{"type":"human","content":"a"},"skip",5,null,{"role":"assistant","content":"b"}]`,
	`[{"role":null,"content":"x"}]`,
	`[{"kwargs":{"type":null,"content":"x"},"id":["AIMessage"]}]`,
	`[{"kwargs":"bad"}]`,
	`[{"kwargs":{"content":"x"},"tool_calls":5,"id":["HumanMessage"]}]`,
	`[{"message":{"role":5},"role":"user","content":"m"}]`,
	`[{"message":"bad","role":"user","content":"m"}]`,
	`[{"role":"assistant","tool_calls":[null]}]`,
	`[{"role":"assistant","tool_calls":[{"id":1,"name":"n","args":null,"function":{"name":"f","arguments":{"a":1}}}]}]`,
	`[{"role":"assistant","tool_calls":[{"function":"bad"}]}]`,
	`[{"role":"tool","tool_call_id":" t ","content":{"type":"image","text":"x"},"tool_calls":[1]}]`,
	`[{"Role":"user","content":"case"}]`,
	`[{"role":"user","role":"assistant","content":"dup"}]`,
	`[{"r\u006fle":"user","content":"esc"}]`,
	`[{"id":["a","b","ToolMessage"],"content":"t"},{"id":"HumanMessage","content":"h"},{"id":[1,{"x":"y"}],"content":"n"}]`,
	`[[],[[{"role":"user","content":"deep"}]]]`,
	`[{"role":"user","content":"esc \"q\" \u00e9"}]`,
	`[{"role":"user","content":"x"}] trailing`,
	`{"messages":[{"role":"user","content":"unterminated}]}`,
	"[{\"role\":\"user\",\"content\":\"bad \xff utf8\"}]",
	`{"input":"{'to': 'LIS'}"}`,
	`{"input":" {\"to\":\"LIS\"} "}`,
	`{"input":{"a":1}}`,
	`{"input":"{}","other":1}`,
	`{"input":"{}","input":"{\"b\":2}"}`,
	`{"inp\u0075t":"{}"}`,
	`{"Input":"{}"}`,
	`{"output":"TP1234 at 09:10"}`,
	`{"output":null}`,
	`{"output":[1,2]}`,
	`{"Output":"case"}`,
	`{"output":{"kwargs":{"content":"tool message"}}}`,
	`"quoted"`,
	`plain`,
}

// checkLangSmithFast compares the fast readers with the struct decoder on
// s.
func checkLangSmithFast(t *testing.T, s string) {
	t.Helper()
	ts := strings.TrimSpace(s)
	if ts == "" || (ts[0] != '[' && ts[0] != '{') {
		return
	}
	same := func(what string, got, want []message) {
		if !reflect.DeepEqual(got, want) || (got == nil) != (want == nil) {
			t.Errorf("%s of %q:\nfast   %#v\nstruct %#v", what, s, got, want)
		}
	}
	if ts[0] == '{' {
		if got, want := langsmithToolInput(s), decodeToolInput(ts, s); got != want {
			t.Errorf("tool input of %q: fast %q, struct %q", s, got, want)
		}
		if got, want := langsmithToolOutput(s), decodeToolOutput(ts, s); got != want {
			t.Errorf("tool output of %q: fast %q, struct %q", s, got, want)
		}
	}
	if got, ok := fastLangSmithInput(ts); ok {
		same("input", got, decodeLangSmithInput(s))
	}
	if got, ok := fastLangSmithOutput(ts); ok {
		same("output", got, decodeLangSmithOutput(s))
	}
}

func TestLangSmithFast(t *testing.T) {
	accepted := 0
	for _, c := range langsmithCases {
		checkLangSmithFast(t, c)
		ts := strings.TrimSpace(c)
		if ts != "" && (ts[0] == '[' || ts[0] == '{') {
			if _, ok := fastLangSmithInput(ts); ok {
				accepted++
			}
		}
	}
	if accepted == 0 || accepted == len(langsmithCases) {
		t.Fatalf("fast reader accepted %d of %d cases: both paths must be exercised", accepted, len(langsmithCases))
	}
}

func FuzzLangSmithFast(f *testing.F) {
	for _, c := range langsmithCases {
		f.Add(c)
	}
	f.Fuzz(checkLangSmithFast)
}
