package extractor

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/internal/testpayload"
)

func TestArenaPoolReuse(t *testing.T) {
	var p arenaPool
	s := p.getSpans(10)
	a := p.getAttrs(20)
	if cap(s) < 10 || cap(a) < 20 || len(s) != 0 || len(a) != 0 {
		t.Fatalf("fresh storage: spans len %d cap %d, attrs len %d cap %d", len(s), cap(s), len(a), cap(a))
	}
	s = append(s, span{name: "kept"})
	a = append(a, attr{key: "k", value: "v"})
	p.put(s, a)
	s2, a2 := p.getSpans(8), p.getAttrs(20)
	if &s2[:1][0] != &s[:1][0] || &a2[:1][0] != &a[:1][0] {
		t.Fatal("released storage was not reused")
	}
	if s2[:1][0].name != "" || a2[:1][0] != (attr{}) {
		t.Fatal("reused storage still holds a released trace's strings")
	}
	// too small, or so large that a small trace would pin it: allocated
	p.put(s2, a2)
	if s3 := p.getSpans(11); &s3[:1][0] == &s[:1][0] {
		t.Error("a 10-span slice served 11 spans")
	}
	if a3 := p.getAttrs(1); &a3[:1][0] == &a[:1][0] {
		t.Error("a 20-attribute arena served a 1-attribute share")
	}
	var nilPool *arenaPool
	if s := nilPool.getSpans(3); cap(s) < 3 {
		t.Error("nil pool did not allocate")
	}
	nilPool.put(s, a) // no effect, no panic
}

func TestArenaPoolBounded(t *testing.T) {
	var p arenaPool
	for range arenaPoolMax + 10 {
		p.put(make([]span, 1), make(attrs, 1))
	}
	if len(p.spans) != arenaPoolMax || len(p.attrs) != arenaPoolMax {
		t.Errorf("pool holds %d span lists and %d arenas, want at most %d", len(p.spans), len(p.attrs), arenaPoolMax)
	}
}

// TestReleasedStorageReuseKeepsTrajectories scores two different requests
// one after the other, the second on the storage the first released, and
// checks that the first request's trajectories did not change.
func TestReleasedStorageReuseKeepsTrajectories(t *testing.T) {
	var got []*agentrun.Trajectory
	sink := SinkFunc(func(_ context.Context, tr *agentrun.Trajectory) error {
		got = append(got, tr)
		return nil
	})
	asm, err := NewAssembler(DefaultConfig(), telemetry.Settings{}, sink)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	now := time.Now()
	consume := func(td ptrace.Traces) {
		t.Helper()
		if err := asm.ConsumeTraces(ctx, td); err != nil {
			t.Fatal(err)
		}
		asm.Cut(now, true)
	}
	consume(testpayload.MediumRange(0, 5))
	first := got
	if len(first) != 5 {
		t.Fatalf("%d trajectories from the first request, want 5", len(first))
	}
	before, err := json.Marshal(first)
	if err != nil {
		t.Fatal(err)
	}
	if len(asm.arenas.spans) == 0 {
		t.Fatal("released traces gave no storage back")
	}
	got = nil
	consume(testpayload.MediumRange(100, 5))
	if len(got) != 5 {
		t.Fatalf("%d trajectories from the second request, want 5", len(got))
	}
	after, err := json.Marshal(first)
	if err != nil {
		t.Fatal(err)
	}
	if string(before) != string(after) {
		t.Error("scoring a second request on reused storage changed the first request's trajectories")
	}
	if got[0].TraceID == first[0].TraceID {
		t.Error("the two requests should carry different traces")
	}
}
