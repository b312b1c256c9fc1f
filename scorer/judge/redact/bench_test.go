package redact

import (
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// cleanText is about 2 KB of agent text with numbers, dates, ids and
// prices but nothing to redact.
var cleanText = strings.Repeat(`The order ORD-12345 placed on 2024-03-15 at 14:30 for $1,299.99 shipped in 3 boxes; `+
	`version 1.2.3 of the tool returned {"status": "ok", "items": 42, "max_tokens": 512}. `+
	`Next, the agent called search(query="weather in Paris") and summarised the answer for the user. `, 7)

// dirtyText is cleanText with a secret of every type.
var dirtyText = cleanText + ` Contact jane.doe@example.com or +44 20 7946 0958, card 4111 1111 1111 1111, ` +
	`IBAN DE89 3704 0044 0532 0130 00 from 192.168.1.20, key sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv, AKIAIOSFODNN7EXAMPLE, ` +
	`Authorization: Bearer abcdef0123456789xyz, {"password": "hunter2"} eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.sig_abc-123`

func benchRedact(b *testing.B, s string) {
	r, err := New(DefaultConfig(), telemetry.Settings{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		r.Redact(s)
	}
}

// BenchmarkRedact reports MB/s on ~2 KB of clean and of dirty text.
func BenchmarkRedact(b *testing.B) {
	b.Run("clean", func(b *testing.B) { benchRedact(b, cleanText) })
	b.Run("dirty", func(b *testing.B) { benchRedact(b, dirtyText) })
}

// TestRedactConcurrent runs one Redactor from many goroutines (meant for
// -race).
func TestRedactConcurrent(t *testing.T) {
	r := newTest(t, DefaultConfig())
	want := r.Redact(dirtyText)
	done := make(chan string)
	for range 8 {
		go func() { done <- r.Redact(dirtyText) }()
	}
	for range 8 {
		if got := <-done; got != want {
			t.Errorf("concurrent result differs")
		}
	}
}

// TestBenchTexts: the clean benchmark text has nothing to redact and the
// dirty one loses every secret.
func TestBenchTexts(t *testing.T) {
	r := newTest(t, DefaultConfig())
	if got := r.Redact(cleanText); got != cleanText {
		t.Errorf("clean text changed:\n%s", got)
	}
	out := r.Redact(dirtyText)
	for _, typ := range Types() {
		if !strings.Contains(out, "[REDACTED:"+typ+"]") {
			t.Errorf("dirty text: no %s redacted:\n%s", typ, out[len(cleanText):])
		}
	}
}
