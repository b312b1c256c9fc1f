package extractor

import "testing"

// TestMayHoldEarlierTurns checks the role pre-scan against the full
// decoder: whenever the scan says "no earlier turns", decoding gives none.
func TestMayHoldEarlierTurns(t *testing.T) {
	tests := []struct {
		raw  string
		want bool
	}{
		{`[{"role":"user","parts":[{"type":"text","content":"hi"}]}]`, false},
		{`[{"role":"system","parts":[{"type":"text","content":"s"}]},{"role":"user","parts":[{"type":"text","content":"hi"}]}]`, false},
		{`[{"role":"user","parts":[{"type":"text","content":"a"}]},{"role":"assistant","parts":[{"type":"text","content":"b"}]},{"role":"user","parts":[{"type":"text","content":"c"}]}]`, true},
		{`[{"role":"user","parts":[]},{"role":"assistant","parts":[]},{"role":"tool","parts":[]}]`, false},
		{`[{"parts":[{"type":"text","content":"no role"}]},{"role":"user","parts":[]}]`, true},
		{`[{"role":1},{"role":"user"}]`, true},
		{`not json`, true},
		{`[`, true},
		{`[]`, false},
	}
	for _, tt := range tests {
		c := &content{kind: contentMessages, raw: tt.raw}
		if got := c.mayHoldEarlierTurns(); got != tt.want {
			t.Errorf("mayHoldEarlierTurns(%s) = %v, want %v", tt.raw, got, tt.want)
		}
		if !tt.want {
			msgs := (&content{kind: contentMessages, raw: tt.raw}).messages()
			if u := lastUser(msgs); u >= 0 {
				if h := earlierTurns(msgs, msgs[u].text()); h != nil {
					t.Errorf("%s: scan says no earlier turns, decoder found %v", tt.raw, h)
				}
			}
		}
	}
	if (*content)(nil).mayHoldEarlierTurns() {
		t.Error("nil content may hold turns")
	}
}

func FuzzMayHoldEarlierTurns(f *testing.F) {
	f.Add(`[{"role":"system","parts":[]},{"role":"user","parts":[{"type":"text","content":"x"}]}]`)
	f.Add(`[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":"a"}]`)
	f.Fuzz(func(t *testing.T, raw string) {
		if (&content{kind: contentMessages, raw: raw}).mayHoldEarlierTurns() {
			return
		}
		msgs := (&content{kind: contentMessages, raw: raw}).messages()
		if u := lastUser(msgs); u >= 0 {
			if h := earlierTurns(msgs, msgs[u].text()); h != nil {
				t.Fatalf("%q: scan says no earlier turns, decoder found %v", raw, h)
			}
		}
	})
}
