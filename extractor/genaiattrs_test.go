package extractor

import "testing"

// TestGenAIAttrsMatchLookups checks the one-pass reader against attrs.get
// for every key it reads, with repeated keys (the first value counts),
// absent keys and keys it does not read.
func TestGenAIAttrsMatchLookups(t *testing.T) {
	as := attrs{
		{key: "server.address", value: "api"},
		{key: keyToolName, value: "search"},
		{key: keyInputTokens, value: "12"},
		{key: keyToolName, value: "second"},
		{key: keyErrorType, value: ""},
		{key: keyPromptTokens, value: "7.9"},
		{key: keyInputMessages, value: "[]"},
	}
	var g genaiAttrs
	g.read(as)
	for k, key := range genaiKeys {
		if genaiKeyIndex(key) != k {
			t.Errorf("genaiKeyIndex(%q) = %d, want %d", key, genaiKeyIndex(key), k)
		}
		gv, gok := g.get(k)
		wv, wok := as.get(key)
		if gv != wv || gok != wok {
			t.Errorf("%s: one pass (%q, %v), lookup (%q, %v)", key, gv, gok, wv, wok)
		}
	}
	if got, want := g.int(gaInputTokens, gaPromptTokens), intAttr(as, keyInputTokens, keyPromptTokens); got != want || got != 12 {
		t.Errorf("int = %d, intAttr %d, want 12", got, want)
	}
	if got, want := g.int(gaOutputTokens, gaPromptTokens), intAttr(as, keyOutputTokens, keyPromptTokens); got != want || got != 7 {
		t.Errorf("int falling back = %d, intAttr %d, want 7", got, want)
	}
	details := attrs{{key: keyOutputMessages, value: "[1]"}, {key: keyInputMessages, value: "ignored"}}
	if v, ok := g.or(details, gaOutputMessages); !ok || v != "[1]" {
		t.Errorf("or(details) = %q, %v, want the details value", v, ok)
	}
	if v, ok := g.or(details, gaInputMessages); !ok || v != "[]" {
		t.Errorf("or(details) = %q, %v, want the span's own value", v, ok)
	}
	if genaiKeyIndex("gen_ai.unknown") != -1 {
		t.Error("an unread key has an index")
	}
}
