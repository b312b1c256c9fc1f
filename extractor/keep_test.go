package extractor

import (
	"strings"
	"testing"
	"unsafe"
)

func TestInternKey(t *testing.T) {
	for _, k := range knownKeys {
		fresh := strings.Clone(k)
		got := internKey(fresh)
		if got != k || unsafe.StringData(got) != unsafe.StringData(k) {
			t.Errorf("internKey(%q) is not the shared copy", k)
		}
	}
	// any other key: equal keys share one copy, which is not the caller's
	for _, k := range []string{"x", "gen_ai.unknown", "server.addresz", "eval.case_id", strings.Repeat("k", 300)} {
		a, b := internKey(strings.Clone(k)), internKey(strings.Clone(k))
		if a != k || unsafe.StringData(a) != unsafe.StringData(b) {
			t.Errorf("internKey(%q) = %q, want one shared copy of the key", k, a)
		}
	}
	if got := internKey(""); got != "" {
		t.Errorf("internKey(\"\") = %q", got)
	}
}
