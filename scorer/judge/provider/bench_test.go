package provider_test

import (
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
	"github.com/evalsidecar/evalsidecar/scorer/judge/provider"
)

// BenchmarkComplete measures one structured judge call per provider
// against the in-process server: request encoding, the loopback HTTP
// exchange and response decoding.
func BenchmarkComplete(b *testing.B) {
	for _, tg := range targets {
		b.Run(tg.name, func(b *testing.B) {
			srv := judgetest.New(b)
			srv.SetDefault(tg.wire, judgetest.Reply{JSON: `{"score":4,"reason":"correct"}`, InputTokens: 900, OutputTokens: 20})
			p, err := provider.New(tg.config(srv), srv.Client())
			if err != nil {
				b.Fatal(err)
			}
			req := &judge.Request{System: "You grade answers.", Prompt: "Question: 2+2? Answer: 4", Schema: verdictSchema}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Complete(b.Context(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
