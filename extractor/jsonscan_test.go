package extractor

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// valid reports whether p.s is one JSON value, reading it as the readers
// do.
func (p *scanner) valid() bool {
	p.ws()
	return p.value() && p.end()
}

// validCases are JSON texts, valid and not; encoding/json.Valid is their
// verdict.
var validCases = []string{
	``, ` `, `null`, `true`, `false`, `nul`, `truex`, `0`, `-0`, `01`, `-`, `1.`, `1.5`, `1e`, `1e+`, `1E-7`,
	`-12.5e10`, `.5`, `+1`, `""`, `"a"`, `"\"`, `"\q"`, `"\u00e9"`, `"\u00g9"`, `"\u12"`, `"tab	in"`,
	"\"nul\x00\"", "\"bad \xff utf8\"", `"esc \" \\ \/ \b \f \n \r \t"`, `[]`, `[ ]`, `[1,]`, `[,1]`, `[1 2]`,
	`{}`, `{"a":1}`, `{"a" : [1, {"b":null}] }`, `{"a":1,}`, `{"a"}`, `{a:1}`, `{"a":1 "b":2}`, `[1]]`,
	` [1] `, "[1]\n\t\r", `[1] x`, `{"a\"b":"c"}`, "\v1", "1\f", `{"a":1}{}`, `[` + "\u00a0" + `]`,
	strings.Repeat("[", 40) + strings.Repeat("]", 40),
}

func TestScannerValidMatchesEncodingJSON(t *testing.T) {
	for _, s := range validCases {
		p := scanner{s: s}
		if got, want := p.valid(), json.Valid([]byte(s)); got != want {
			t.Errorf("scanner.valid(%q) = %v, json.Valid %v", s, got, want)
		}
	}
}

// TestScannerNestingBound checks encoding/json's bound on nesting: 10000
// levels are valid JSON, 10001 are not.
func TestScannerNestingBound(t *testing.T) {
	for _, tt := range []struct {
		depth int
		want  bool
	}{{maxJSONDepth, true}, {maxJSONDepth + 1, false}} {
		arr := strings.Repeat("[", tt.depth) + strings.Repeat("]", tt.depth)
		obj := strings.Repeat(`{"a":`, tt.depth-1) + `{}` + strings.Repeat("}", tt.depth-1)
		for _, s := range []string{arr, obj} {
			p := scanner{s: s}
			if got := p.valid(); got != tt.want || json.Valid([]byte(s)) != tt.want {
				t.Errorf("depth %d: scanner.valid = %v, json.Valid %v, want %v", tt.depth, got, json.Valid([]byte(s)), tt.want)
			}
		}
		if _, err := parseMessages(arr); (err == nil) != tt.want {
			t.Errorf("depth %d: parseMessages error %v", tt.depth, err)
		}
	}
}

// messageCases are message, instruction and string list values, well
// formed and not, that the readers must decode as json.Unmarshal does.
var messageCases = []string{
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
	`[{"role":"tool","tool_call_id":" t1 ","content":[{"type":"text","text":"done"}]},{"role":"tool"}]`,
	`[{"role":"assistant","tool_calls":[null,5,{"id":"a","name":"n","arguments":{},"function":{"name":"f"}}]}]`,
	`[{"role":"assistant","tool_calls":[{"function":"bad"},{"function":[1]},{"function":null}]}]`,
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
	`[{"role":"user","parts":["plain string part",5,null,[1],{"type":"text","content":"ok"}]}]`,
	`[{"role":"user","parts":[{"type":"text","content":"a"},{"type":"text","content":"b"},{"type":"text","content":"c"}],"parts":[{"id":"x"}],"parts":[{"name":"y"},{"name":"z"},{},{"type":"text"}]}]`,
	`[{"role":"user","parts":[{"type":"text","content":"a"}],"parts":[],"parts":[{"id":"fresh"}]}]`,
	`[{"role":"user","parts":[{"type":"text","content":"a"}],"parts":null,"parts":[{"id":"fresh"}]}]`,
	`[{"role":"user","parts":[{"type":"text","content":"a"}],"parts":7}]`,
	`[{"role":"assistant","tool_calls":[{"id":"a","function":{"name":"f"}}],"tool_calls":[{"function":{"arguments":"{}"}}]}]`,
	`[{"role":"assistant","tool_calls":[{"id":"a"},{"id":"b"}],"tool_calls":[{}],"tool_calls":[{},{},{}]}]`,
	`[1,"x",null,{"role":5,"parts":"no"}]`,
	`[{"role":"user","parts":[{"type":"text","content":"x"}]}] trailing`,
	`[{"role":"user","parts":[{"type":"text","content":"unterminated}]}]`,
	"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"bad \xff utf8\"}]}]",
	"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"bad \xff utf8 \\n escaped\"}]}]",
	"[{\"ro\xffle\":\"user\"}]",
	`[{"type":"text","content":"be brief"}]`,
	`[{"type":"text","content":"one"},"two",{"type":"text","content":""},""]`,
	`[{"role":"system","parts":[{"type":"text","content":"as message"}]}]`,
	`[{"role":"system","parts":[{"type":"text","content":"as message"},5]}]`,
	`[{"role":"system","parts":[{"type":"text","content":"m"}],"tool_calls":"bad"}]`,
	`[{"type":"text","content":"x"},5]`,
	`[{"role":"us\u0065r","parts":[{"type":"t\u0065xt","content":"a\\b"}],"finish_reason":"st\/op"}]`,
	`[{"role":"assistant","parts":[{"type":"tool_call","id":" c\t1 ","name":"f\"n","arguments":"{\"a\":\"\\u00e9\"}"}]}]`,
	`[{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":"line\nbreak"},{"type":"tool_call_response","id":"c2","result":"\u2028"}]}]`,
	`[{"role":"user","parts":[{"type":"text","content":"","text":"via \"text\""},{"type":"reasoning","content":"\ud83d\ude00"}]}]`,
	`["plain","esc\"aped",{"type":"text","content":"\u0041"},{"type":"text","text":"t\\"}]`,
	`[` + strings.Repeat(`{"role":"user","parts":[{"type":"text","content":"n"}]},`, 20) + `{"role":"user","parts":[{"type":"text","content":"last"}]}]`,
	`[{"role":"user","parts":[` + strings.Repeat(`{"type":"text","content":"p"},`, 20) + `{"type":"text","content":"last"}]}]`,
	`["stop"]`, `["tool_calls","stop"]`, `["a", null]`, `[1]`, `["\ud800"]`, "[\"a\xffb\"]", `[[]]`, ` [ "x" ] `,
	`{"type":"text","content":"an object"}`, `"a string"`, `plain text`,
}

// wireMessage is a message as json.Unmarshal reads it: the shape the
// readers decode.
type wireMessage struct {
	Role         rawJSON        `json:"role"`
	Parts        []wirePart     `json:"parts"`
	FinishReason rawJSON        `json:"finish_reason"`
	Content      rawJSON        `json:"content"`
	ToolCalls    []wireToolCall `json:"tool_calls"`
	ToolCallID   rawJSON        `json:"tool_call_id"`
}

func (w *wireMessage) body() *wireBody {
	return &wireBody{Role: w.Role, FinishReason: w.FinishReason, Content: w.Content, ToolCalls: w.ToolCalls, ToolCallID: w.ToolCallID}
}

// messagesByJSON is parseMessages with json.Unmarshal reading the text.
func messagesByJSON(t string) ([]message, bool) {
	var ws []wireMessage
	if err := json.Unmarshal([]byte(t), &ws); err != nil {
		var typeErr *json.UnmarshalTypeError
		if !errors.As(err, &typeErr) {
			return nil, false
		}
	}
	var out []message
	for i := range ws {
		role := rawString(ws[i].Role)
		parts := appendParts(nil, role, ws[i].body(), ws[i].Parts)
		if role != "" || len(parts) > 0 {
			out = append(out, message{Role: role, Parts: parts, FinishReason: rawString(ws[i].FinishReason)})
		}
	}
	return out, true
}

// instructionsByJSON is parseInstructions for an array, with
// json.Unmarshal reading the text: the array into raw values, each of them
// as a part, and else (when it is no text part) as a message.
func instructionsByJSON(t string) string {
	var items []rawJSON
	if json.Unmarshal([]byte(t), &items) != nil {
		return t
	}
	var b strings.Builder
	for _, it := range items {
		if s := strings.TrimSpace(string(it)); s[0] == '"' {
			appendLine(&b, rawString(it))
			continue
		}
		var w wirePart
		if json.Unmarshal([]byte(it), &w) == nil {
			if p := convertPart(&w); p.Type == partText && p.Content != "" {
				appendLine(&b, p.Content)
				continue
			}
		}
		var m wireMessage
		if json.Unmarshal([]byte(it), &m) == nil {
			for i := range m.Parts {
				if p := convertPart(&m.Parts[i]); p.Type == partText {
					appendLine(&b, p.Content)
				}
			}
		}
	}
	return b.String()
}

// stringListByJSON is stringList with json.Unmarshal reading the text.
func stringListByJSON(v string) []string {
	var out []string
	if json.Unmarshal([]byte(strings.TrimSpace(v)), &out) != nil {
		return []string{v}
	}
	return out
}

// sameMessages compares message lists, an empty list or part list equal
// to a nil one.
func sameMessages(a, b []message) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if len(x.Parts) == 0 && len(y.Parts) == 0 {
			x.Parts, y.Parts = nil, nil
		}
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// checkReaders compares the readers of the message attributes with
// json.Unmarshal on s.
func checkReaders(t *testing.T, s string) {
	t.Helper()
	if p := (scanner{s: s}); p.valid() != json.Valid([]byte(s)) {
		t.Errorf("scanner.valid(%q) = %v, json.Valid %v", s, !json.Valid([]byte(s)), json.Valid([]byte(s)))
	}
	tr := strings.TrimSpace(s)
	if tr == "" || tr[0] != '[' {
		return
	}
	got, err := parseMessages(s)
	want, ok := messagesByJSON(tr)
	if (err == nil) != ok || !sameMessages(got, want) {
		t.Errorf("parseMessages(%q) =\n%#v, %v\njson.Unmarshal reads\n%#v, %v", s, got, err, want, ok)
	}
	if got, want := parseInstructions(s), instructionsByJSON(tr); got != want {
		t.Errorf("parseInstructions(%q) = %q, json.Unmarshal reads %q", s, got, want)
	}
	if got, want := stringList(s), stringListByJSON(s); !reflect.DeepEqual(got, want) {
		t.Errorf("stringList(%q) = %#v, json.Unmarshal reads %#v", s, got, want)
	}
}

func TestReadersMatchEncodingJSON(t *testing.T) {
	for _, s := range messageCases {
		checkReaders(t, s)
	}
}

// FuzzReaders checks the scanner and the message readers built on it
// against encoding/json: the same texts valid, the same values decoded.
func FuzzReaders(f *testing.F) {
	for _, s := range messageCases {
		f.Add(s)
	}
	for _, s := range validCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkReaders(t, s)
	})
}

// FuzzRawString checks rawString on JSON strings against json.Unmarshal.
func FuzzRawString(f *testing.F) {
	for _, s := range []string{`"a"`, `""`, `"\u00e9\n"`, "\"bad \xff\"", "\"bad \xff \\n\"", `"\ud800"`, ` "x" `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want string
		if json.Unmarshal([]byte(s), &want) != nil || !strings.HasPrefix(strings.TrimSpace(s), `"`) {
			return
		}
		if got := rawString(rawJSON(s)); got != want {
			t.Errorf("rawString(%q) = %q, json.Unmarshal %q", s, got, want)
		}
	})
}

// TestHasControl puts every byte value at every position of strings of
// 0 to 73 bytes of 'a' (one and two four-word steps, the words and the
// bytes after them) and checks hasControl against the definition: some
// byte below 0x20.
func TestHasControl(t *testing.T) {
	for n := 0; n <= 73; n++ {
		if hasControl(strings.Repeat("a", n)) {
			t.Fatalf("%d bytes of 'a': control reported", n)
		}
		for at := 0; at < n; at++ {
			for c := 0; c < 256; c++ {
				b := []byte(strings.Repeat("a", n))
				b[at] = byte(c)
				if want := c < 0x20; hasControl(string(b)) != want {
					t.Fatalf("byte %#x at %d of %d: hasControl = %v, want %v", c, at, n, !want, want)
				}
				b[n-1-at] = 0xff // a high byte elsewhere must not change the answer
				if want := b[at] < 0x20; hasControl(string(b)) != want {
					t.Fatalf("byte %#x at %d and 0xff at %d of %d: hasControl = %v, want %v", c, at, n-1-at, n, !want, want)
				}
			}
		}
	}
}
