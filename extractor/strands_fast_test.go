package extractor

import (
	"reflect"
	"strings"
	"testing"
)

// strandsBlockCases are content attributes the fast block reader must read
// exactly as the struct decoder does, or decline.
var strandsBlockCases = []string{
	`[]`,
	`[{"text":"hi"}]`,
	`[{"text":"a"},{"text":""},{"json":{"k":1}},{"text":"esc \"q\" \u00e9"}]`,
	`[{"text":"Let me check."},{"toolUse":{"toolUseId":" t1 ","name":"get_weather","input":{"city":"Oslo"}}}]`,
	`[{"toolResult":{"toolUseId":"t1","status":"success","content":[{"text":"4\u00b0C"},{"json":[1,2]}]}}]`,
	`[{"toolResult":{"toolUseId":"t1","content":[{"text":"only"}]}}]`,
	`[{"toolResult":{"toolUseId":"t1","content":null}}]`,
	`[{"toolResult":{"toolUseId":"t1"}},{"text":"x"}]`,
	`[{"toolUse":null,"text":"null tool use"}]`,
	`[{"toolUse":{},"text":"empty tool use"}]`,
	`[{"toolUse":"bad"}]`,
	`[{"toolResult":{"content":"bad"}}]`,
	`[{"toolResult":{"content":[5]}}]`,
	`[{"toolResult":{"content":[{"toolUse":7}]}}]`,
	`[{"Text":"case"}]`,
	`[{"text":"a","text":"b"}]`,
	`[{"t\u0065xt":"escaped key"}]`,
	`[{"toolUse":{"NAME":"x"}}]`,
	`[null]`,
	`[1,"x"]`,
	`[{"text":5},{"text":null},{"text":{"a":1}}]`,
	`[{"text":"unterminated}]`,
	`[{"text":"x"}] trailing`,
	"[{\"text\":\"bad \xff utf8\"}]",
	`[{"image":{"format":"png"}}]`,
}

// checkStrandsFast compares the fast block reader with the struct decoder
// on s.
func checkStrandsFast(t *testing.T, s string) {
	t.Helper()
	tr := strings.TrimSpace(s)
	if tr == "" || tr[0] != '[' {
		return
	}
	if n, ok := fastBlockList(tr); ok {
		got, want := fastStrandsBlocks(tr, n), decodeStrandsBlocks(tr, s)
		if !reflect.DeepEqual(got, want) || (got == nil) != (want == nil) {
			t.Errorf("blocks of %q:\nfast   %#v\nstruct %#v", s, got, want)
		}
	}
	if got, want := strandsResultText(s), decodeStrandsResult(tr, s); got != want {
		t.Errorf("result of %q: fast %q, struct %q", s, got, want)
	}
}

func TestStrandsFastBlocks(t *testing.T) {
	accepted := 0
	for _, c := range strandsBlockCases {
		checkStrandsFast(t, c)
		if _, ok := fastBlockList(c); ok {
			accepted++
		}
	}
	if accepted == 0 || accepted == len(strandsBlockCases) {
		t.Fatalf("fast reader accepted %d of %d cases: both paths must be exercised", accepted, len(strandsBlockCases))
	}
}

func FuzzStrandsBlocks(f *testing.F) {
	for _, c := range strandsBlockCases {
		f.Add(c)
	}
	f.Fuzz(checkStrandsFast)
}
