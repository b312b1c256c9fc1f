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
	for _, k := range []string{"", "x", "gen_ai.unknown", "server.addresz", "eval.case_id", strings.Repeat("k", 300)} {
		if got := internKey(k); got != k || (k != "" && unsafe.StringData(got) != unsafe.StringData(k)) {
			t.Errorf("internKey(%q) = %q, want the key itself", k, got)
		}
	}
}
