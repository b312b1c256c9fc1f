package judge

import (
	"context"
	"strings"
	"testing"
	"time"
)

// openCircuit makes c's circuit open by failing calls.
func openCircuit(t *testing.T, c *Client, p *fakeProvider) {
	t.Helper()
	saved := p.script
	p.script = always(jerr(ClassOverloaded, 529, 0))
	for c.CircuitState() != CircuitOpen {
		_, _ = c.Judge(context.Background(), testRequest())
	}
	p.script = saved
}

func TestSetFallback(t *testing.T) {
	clock := newFakeClock(time.Now())
	build := func(name, fallback string) (*Client, *fakeProvider) {
		cfg := testConfig(name)
		cfg.Fallback = fallback
		cfg.MaxRetries = 0
		cfg.Circuit.Failures = 1
		p := &fakeProvider{model: name + "-model"}
		return newTestClient(t, cfg, p, clock, Options{}), p
	}
	a, pa := build("a", "b")
	b, pb := build("b", "c")
	c, pc := build("c", "")
	set, err := NewSet(c, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(set.Names(), ","); got != "a,b,c" {
		t.Errorf("Names = %s", got)
	}
	judges := set.Judges()
	ja, ok := judges["a"]
	if !ok || ja.Name() != "a" {
		t.Fatalf("Judges()[a] = %v, %v", ja, ok)
	}
	if _, ok := judges["zz"]; ok {
		t.Error("a judge of an unknown name")
	}

	answeredBy := func() string {
		t.Helper()
		resp, err := ja.Judge(context.Background(), testRequest())
		if err != nil {
			return "error " + string(ClassOf(err))
		}
		return resp.Judge
	}
	if got := answeredBy(); got != "a" {
		t.Fatalf("all closed: answered by %s, want a", got)
	}

	// Another failure of the primary is returned, not handed over.
	pa.script = always(jerr(ClassRefusal, 0, 0))
	if got := answeredBy(); got != "error refusal" {
		t.Errorf("primary refusal: %s, want the primary's refusal", got)
	}
	if pb.Attempts() != 0 {
		t.Errorf("the fallback was called on a primary failure that is not circuit_open")
	}

	openCircuit(t, a, pa)
	if got := answeredBy(); got != "b" {
		t.Errorf("a open: answered by %s, want b", got)
	}
	openCircuit(t, b, pb)
	if got := answeredBy(); got != "c" {
		t.Errorf("a and b open: answered by %s, want c", got)
	}
	openCircuit(t, c, pc)
	if got := answeredBy(); got != "error circuit_open" {
		t.Errorf("all open: %s, want circuit_open", got)
	}
}

func TestSetRejectsBadFallbacks(t *testing.T) {
	clock := newFakeClock(time.Now())
	mk := func(name, fallback string) *Client {
		cfg := testConfig(name)
		cfg.Fallback = fallback
		return newTestClient(t, cfg, &fakeProvider{}, clock, Options{})
	}
	tests := []struct {
		name    string
		clients []*Client
		want    string
	}{
		{"unknown fallback", []*Client{mk("a", "ghost")}, `fallback "ghost" is not a configured judge`},
		{"cycle of two", []*Client{mk("a", "b"), mk("b", "a")}, "fallback cycle a -> b -> a"},
		{"cycle behind a chain", []*Client{mk("a", "b"), mk("b", "c"), mk("c", "b")}, "fallback cycle a -> b -> c -> b"},
		{"duplicate name", []*Client{mk("a", ""), mk("a", "")}, `duplicate judge name "a"`},
		{"nil client", []*Client{nil}, "nil client"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewSet(tt.clients...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewSet error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}
