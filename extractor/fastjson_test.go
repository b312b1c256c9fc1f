package extractor

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// fastCases are message and instruction values the fast readers must read
// exactly as the struct decoder does, or decline.
var fastCases = []string{
	`[]`,
	`[{"role":"user","parts":[{"type":"text","content":"hi"}]}]`,
	`[{"role":"user","parts":[{"type":"text","content":"a"},{"type":"text","content":"b"},{"content":"c"}]}]`,
	`[{"role":"user","parts":[{"type":"text","text":"via text"}]}]`,
	`[{"role":"user","parts":[{"type":"text","content":"esc \"q\" \u00e9\n"}]}]`,
	`[{"role":"assistant","parts":[{"type":"tool_call","id":" c1 ","name":"t","arguments":{"a":1}}],"finish_reason":"tool_call"}]`,
	`[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"t","arguments":"{\"a\":1}"}]}]`,
	`[{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","result":"ok"}]}]`,
	`[{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":null,"result":"ok"}]}]`,
	`[{"role":"tool","parts":[{"type":"tool_call_response","id":5,"response":{"k":[1,2]}}]}]`,
	`[{"role":"assistant","parts":[{"type":"reasoning","content":"think"},{"type":"text","content":["x",{"type":"text","text":"y"}]}]}]`,
	`[{"role":"user","parts":[{"type":"image","content":"z"}]},{"role":null,"parts":[{"type":"text","content":null}]}]`,
	`[{"role":"assistant","content":"x","tool_calls":[{"id":"c","function":{"name":"f","arguments":"{}"}}]}]`,
	`[{"role":"assistant","parts":[{"type":"text","content":"x"}],"tool_calls":null}]`,
	`[{"role":"assistant","parts":[{"type":"text","content":"x"}],"tool_calls":"bad"}]`,
	`[{"role":"user","content":"openai style"}]`,
	`[{"role":"user","parts":[]}]`,
	`[{"role":"user","parts":null}]`,
	`[{"role":"user","parts":"no"}]`,
	`[{"Role":"user","parts":[{"type":"text","content":"case"}]}]`,
	`[{"role":"user","role":"system","parts":[{"type":"text","content":"dup"}]}]`,
	`[{"rol\u0065":"user","parts":[{"type":"text","content":"escaped key"}]}]`,
	`[{"role":"user","parts":[{"type":"text","CONTENT":"x"}]}]`,
	`[{"role":"user","partſ":[{"type":"text","content":"long s folds to s"}],"parts":[{"type":"text","content":"x"}]}]`,
	`[{"role":"user","parts":[{"type":"text","content":"x","ᴛext":"not a fold"}]}]`,
	`[{"ROLE":"user","role":"system","parts":[{"Type":"image","type":"text","content":"x"}]}]`,
	`[{"role":"user","parts":["plain string part"]}]`,
	`[1,"x",null,{"role":5,"parts":"no"}]`,
	`[{"role":"user","parts":[{"type":"text","content":"x"}]}] trailing`,
	`[{"role":"user","parts":[{"type":"text","content":"unterminated}]}]`,
	"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"bad \xff utf8\"}]}]",
	`[{"type":"text","content":"be brief"}]`,
	`[{"type":"text","content":"one"},"two",{"type":"text","content":""},""]`,
	`[{"role":"system","parts":[{"type":"text","content":"as message"}]}]`,
	`[{"type":"text","content":"x"},5]`,
	`[{"role":"us\u0065r","parts":[{"type":"t\u0065xt","content":"a\\b"}],"finish_reason":"st\/op"}]`,
	`[{"role":"assistant","parts":[{"type":"tool_call","id":" c\t1 ","name":"f\"n","arguments":"{\"a\":\"\\u00e9\"}"}]}]`,
	`[{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":"line\nbreak"},{"type":"tool_call_response","id":"c2","result":"\u2028"}]}]`,
	`[{"role":"user","parts":[{"type":"text","content":"","text":"via \"text\""},{"type":"reasoning","content":"\ud83d\ude00"}]}]`,
	`["plain","esc\"aped",{"type":"text","content":"\u0041"},{"type":"text","text":"t\\"}]`,
	`[` + strings.Repeat(`{"role":"user","parts":[{"type":"text","content":"n"}]},`, 3) + `{"role":"user","parts":[{"type":"text","content":"last"}]}]`,
}

// checkFast compares the fast readers with the struct decoder on s.
func checkFast(t *testing.T, s string) {
	t.Helper()
	tr := strings.TrimSpace(s)
	if tr == "" || tr[0] != '[' {
		return
	}
	if got, ok := fastMessages(tr); ok {
		want, err := decodeMessages(tr)
		if err != nil || !reflect.DeepEqual(got, want) || (got == nil) != (want == nil) {
			t.Errorf("fastMessages(%q) =\n%#v\nstruct decoder:\n%#v, %v", s, got, want, err)
		}
	}
	if got, ok := fastInstructions(tr); ok {
		if want := decodeInstructions(tr); got != want {
			t.Errorf("fastInstructions(%q) = %q, struct decoder %q", s, got, want)
		}
	}
}

func TestFastReadersMatchDecoder(t *testing.T) {
	for _, s := range fastCases {
		checkFast(t, s)
	}
	// and every message attribute of the golden inputs
	files, _ := filepath.Glob("testdata/*.otlp.json")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var walk func(r gjson.Result)
		walk = func(r gjson.Result) {
			r.ForEach(func(_, v gjson.Result) bool {
				if v.Type == gjson.String && strings.HasPrefix(strings.TrimSpace(v.Str), "[") {
					checkFast(t, v.Str)
				} else if v.IsObject() || v.IsArray() {
					walk(v)
				}
				return true
			})
		}
		walk(gjson.ParseBytes(b))
	}
}

// TestFastReadersTakeCommonShapes makes sure the fast readers do not
// decline the shapes they exist for.
func TestFastReadersTakeCommonShapes(t *testing.T) {
	if _, ok := fastMessages(`[{"role":"user","parts":[{"type":"text","content":"hi"}]},{"role":"assistant","parts":[{"type":"text","content":"a"},{"type":"tool_call","id":"c","name":"f","arguments":{"x":1}}],"finish_reason":"tool_call"}]`); !ok {
		t.Error("fastMessages declined the parts form")
	}
	if _, ok := fastInstructions(`[{"type":"text","content":"You are a support agent."}]`); !ok {
		t.Error("fastInstructions declined a text part list")
	}
}

// FuzzFastReaders checks that whatever the fast readers accept they read
// as the struct decoder does.
func FuzzFastReaders(f *testing.F) {
	for _, s := range fastCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkFast(t, s)
	})
}

// checkTokStr compares tokStr and contentTok on every token the scanner
// reads at the top of s (a value or an array's elements) with rawStr and
// contentStr.
func checkTokStr(t *testing.T, s string) {
	t.Helper()
	p := scanner{s: s}
	p.ws()
	one := func() bool {
		start := p.i
		esc, ok := p.token()
		if !ok {
			return false
		}
		tok := s[start:p.i]
		if got, want := tokStr(tok, esc), rawStr(tok); got != want {
			t.Errorf("tokStr(%q, %v) = %q, rawStr %q", tok, esc, got, want)
		}
		if got, want := contentTok(tok, esc), contentStr(tok); got != want {
			t.Errorf("contentTok(%q, %v) = %q, contentStr %q", tok, esc, got, want)
		}
		return true
	}
	if !p.at('[') {
		one()
		return
	}
	empty, ok := p.open(']')
	for ok && !empty {
		if !one() {
			return
		}
		var more bool
		more, ok = p.next(']')
		empty = !more
	}
}

var tokCases = []string{
	`"plain"`, `""`, `"a\"b"`, `"\u00e9\n"`, `null`, `5`, `-1.5e3`, `true`, `false`,
	`["x","y\\",null,{"type":"text","text":"in"},[1,"two"],"\ud83d\ude00",""]`,
	"\"bad \xff utf8\"", `"\ud800"`,
}

func TestTokStrMatchesRawStr(t *testing.T) {
	for _, s := range tokCases {
		checkTokStr(t, s)
	}
	for _, s := range fastCases {
		checkTokStr(t, s)
	}
}

// FuzzTokStr checks tokStr and contentTok against rawStr and contentStr on
// the tokens the scanner reads.
func FuzzTokStr(f *testing.F) {
	for _, s := range tokCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkTokStr(t, s)
	})
}
