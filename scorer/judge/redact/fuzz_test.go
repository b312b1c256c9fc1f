package redact

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// FuzzRedact: Redact never panics, keeps valid UTF-8 valid, is idempotent,
// and never grows text by more than the markers it inserts.
func FuzzRedact(f *testing.F) {
	if raw, err := os.ReadFile("testdata/planted.json"); err == nil {
		var docs []plantedDoc
		if json.Unmarshal(raw, &docs) == nil {
			for _, d := range docs {
				f.Add(d.Text)
			}
		}
	}
	if raw, err := os.ReadFile("testdata/negative.txt"); err == nil {
		for _, l := range strings.Split(string(raw), "\n") {
			f.Add(l)
		}
	}
	f.Add("[REDACTED:email]@x.com api_key=[REDACTED:api_key] Bearer [REDACTED:jwt]")
	f.Add("+1 (555) 123-4567 4111 1111 1111 1111 2027 DE89 3704 0044 0532 0130 00")
	r, err := New(Config{Enabled: true, Custom: []CustomPattern{{Name: "emp", Pattern: `EMP-\d{4,}`}}}, telemetry.Settings{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := r.Redact(s)
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of valid input %q: %q", s, out)
		}
		if again := r.Redact(out); again != out {
			t.Fatalf("not idempotent:\n in: %q\n 1st: %q\n 2nd: %q", s, out, again)
		}
	})
}
