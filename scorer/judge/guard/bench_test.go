package guard

import (
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer/judge/redact"
)

// agentText is ~2 KB of ordinary agent output.
var agentText = strings.Repeat("The order ORD-12345 placed on 2024-03-15 shipped in 3 boxes; the agent called search(query=\"weather in Paris\") "+
	"and summarised the answer for the user, who asked for a table for two on Friday. ", 10)

// BenchmarkUntrusted reports the cost of one field through a Sanitizer:
// cleaning, pre-filters, redaction, escaping and wrapping.
func BenchmarkUntrusted(b *testing.B) {
	r, err := redact.New(redact.DefaultConfig(), telemetry.Settings{})
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []struct {
		name string
		text string
	}{{"2KB", agentText}, {"16KB", strings.Repeat(agentText, 8)}} {
		b.Run(size.name, func(b *testing.B) {
			p := &Policy{Redactor: r}
			b.SetBytes(int64(len(size.text)))
			b.ReportAllocs()
			for b.Loop() {
				p.New().Untrusted("response", size.text)
			}
		})
	}
}
