package extractor

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// FuzzMessages decodes arbitrary text as every GenAI content form: message
// lists, system instructions, tool definitions and per-message event
// bodies. It must never panic, and a successful message parse must come
// from a JSON array.
func FuzzMessages(f *testing.F) {
	for _, s := range []string{
		`[{"role":"user","parts":[{"type":"text","content":"hi"}]}]`,
		`[{"role":"assistant","parts":[{"type":"tool_call","id":" c1","name":"t","arguments":{"a":1}}],"finish_reason":"tool_call"}]`,
		`[{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","result":"ok"}]}]`,
		`[{"role":"assistant","content":"x","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}]`,
		`[{"type":"text","content":"be brief"}]`,
		`[{"type":"function","function":{"name":"f","description":"d","parameters":{"type":"object"}}},{"name":"g"}]`,
		`{"content":"hello","role":"user"}`,
		`{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":[{"type":"text","text":"a"}]}}`,
		`[1,"x",null,{"role":5,"parts":"no"}]`,
		`[[[[[[[[[[]]]]]]]]]]`,
		`"\ud800"`, `not json`, ``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		msgs, err := parseMessages(s)
		if err == nil {
			var arr []json.RawMessage
			if json.Unmarshal([]byte(s), &arr) != nil {
				t.Fatalf("parseMessages accepted a non-array: %q", s)
			}
			if len(msgs) > len(arr) {
				t.Fatalf("%d messages from %d elements", len(msgs), len(arr))
			}
			for i := range msgs {
				_ = msgs[i].text()
			}
			_ = outputText(msgs)
			_ = lastUser(msgs)
		}
		_ = parseInstructions(s)
		for _, d := range parseToolDefs(s) {
			if d.Name == "" {
				t.Fatalf("tool definition without a name from %q", s)
			}
		}
		ev := event{name: evChoice, body: s}
		in, out, _ := eventMessages([]*event{&ev, {name: evUserMessage, attrs: attrs{{key: "content", value: s}}}})
		if len(out) != 1 || len(in) != 1 {
			t.Fatalf("event conversion lost a message: in %d out %d", len(in), len(out))
		}
		_ = stringList(s)
		_ = unwrapJSONString(s)
	})
}

// FuzzAssembler drives the assembler with span orders, duplicates, parent
// links and release passes taken from the input. Caps must hold, no trace
// may be released twice, and nothing may panic.
func FuzzAssembler(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7})
	f.Add([]byte{7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 255})
	f.Add([]byte{3, 3, 3, 3, 128, 131, 1, 129, 2, 254, 0})
	f.Add([]byte{16, 17, 18, 19, 20, 21, 200, 201, 202, 203, 33, 49, 65})
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg := DefaultConfig()
		cfg.MaxLiveTraces = 3
		cfg.MaxSpansPerTrace = 4
		cfg.MaxTraceAge = time.Hour
		ta := newTestAssembler(t, cfg)
		ctx := context.Background()
		var pending []spanSpec
		for _, b := range data {
			switch {
			case b >= 250: // release pass, time moves on
				ta.now = ta.now.Add(time.Duration(b-249) * time.Second)
				ta.Cut(ta.now, false)
			case b >= 240: // send what is pending as one request
				if err := ta.ConsumeTraces(ctx, buildTraces(pending...)); err != nil {
					t.Fatal(err)
				}
				pending = pending[:0]
			default:
				tr := b%5 + 1
				run := agentRun(tr)
				s := run[int(b/5)%len(run)]
				if b >= 128 { // odd parent links, including cycles and self-parents
					s.parent = byte(b % 6)
				}
				pending = append(pending, s)
			}
			if ta.LiveTraces() > cfg.MaxLiveTraces || ta.BufferedBytes() > cfg.MaxBufferedBytes {
				t.Fatalf("caps exceeded: %d live, %d bytes", ta.LiveTraces(), ta.BufferedBytes())
			}
		}
		if err := ta.ConsumeTraces(ctx, buildTraces(pending...)); err != nil {
			t.Fatal(err)
		}
		if err := ta.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		released := map[string]int{}
		for _, tr := range ta.sink.all() {
			_ = tr.Latency()
			// each trace holds at most one agent span, so one trajectory
			if released[tr.TraceID]++; released[tr.TraceID] > 1 {
				t.Fatalf("trace %s released twice", tr.TraceID)
			}
		}
		if ta.LiveTraces() != 0 {
			t.Fatalf("flush left %d traces", ta.LiveTraces())
		}
	})
}
