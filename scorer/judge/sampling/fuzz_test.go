package sampling

import (
	"bytes"
	"os"
	"path"
	"testing"

	"gopkg.in/yaml.v3"
)

// FuzzDecide builds policies from arbitrary filter patterns, rates and
// thresholds and checks Decide against its definition on arbitrary runs.
func FuzzDecide(f *testing.F) {
	f.Add("4bf92f3577b34da6a3ce929d0e0e4736", "checkout", "check*", "planner", "prod", "1.2", "tenant", "acme", "ac*", 0.05, true, 2, 0.3, 0.5)
	f.Add("", "", "", "", "", "", "", "", "[", 1.0, false, 0, 0.0, 0.0)
	f.Add("ABC", "a/b", "*/*", "x", "", "v[", "k", "", `\`, -1.0, true, -3, -1.0, 2.0)
	f.Fuzz(func(t *testing.T, traceID, service, pattern, agent, env, version, attrKey, attrVal, attrPattern string,
		rate float64, failed bool, toolErrors int, score, threshold float64) {
		cfg := Config{
			Rate: &rate,
			Filter: Filter{
				Service:     []string{pattern},
				Agent:       []string{agent, pattern},
				Environment: []string{env},
				Attributes:  map[string][]string{attrKey: {attrPattern}},
			},
			Always: []RuleConfig{
				{Failed: true, MaxPerMinute: ptr(1)},
				{ToolErrors: true},
				{UnsupportedFactsAbove: &threshold},
				{ScoreBelow: &ScoreBelow{Metric: attrKey, Threshold: threshold}},
			},
		}
		run := Run{
			TraceID: traceID, Service: service, Agent: agent, Environment: env, ServiceVersion: version,
			Attributes: map[string]string{attrKey: attrVal}, Failed: failed, ToolErrors: toolErrors,
			Score: mapScores(map[string]float64{UnsupportedFactsMetric: score, attrKey: score}),
		}
		p, err := New(cfg, newFakeClock().Now)
		if err != nil {
			if cfg.Validate() == nil {
				t.Fatalf("New failed on a valid config: %v", err)
			}
			return
		}
		d := p.Decide(run)
		again, _ := New(cfg, newFakeClock().Now)
		if d2 := again.Decide(run); d2 != d {
			t.Fatalf("two identical policies decided %+v and %+v", d, d2)
		}
		matched := cfg.Filter.Match(&run)
		switch {
		case !matched:
			if d.Outcome != OutcomeFiltered {
				t.Fatalf("filter excludes the run but Decide = %+v", d)
			}
		case Sampled(traceID, rate):
			if d.Outcome != OutcomeSampled {
				t.Fatalf("run in the sample but Decide = %+v", d)
			}
		default:
			anyRule := failed || toolErrors > 0 || score > threshold || score < threshold
			switch d.Outcome {
			case OutcomeAlways:
				if !anyRule || d.Rule == "" {
					t.Fatalf("always with no rule met: %+v", d)
				}
			case OutcomeSampledOut:
				if anyRule && !d.Capped {
					t.Fatalf("a rule was met with room under its cap but Decide = %+v", d)
				}
			default:
				t.Fatalf("Decide = %+v", d)
			}
		}
		// An exact value always matches itself; a glob matches what
		// path.Match says.
		if ok, err := path.Match(pattern, service); err == nil && ok != (Filter{Service: []string{pattern}}).Match(&Run{Service: service}) {
			if pattern != service {
				t.Fatalf("pattern %q on %q: Match disagrees with path.Match", pattern, service)
			}
		}
		if !(Filter{Service: []string{service}}).Match(&Run{Service: service}) && !isGlob(service) {
			t.Fatalf("exact value %q does not match itself", service)
		}
	})
}

// FuzzKey checks that keys of different part lists differ.
func FuzzKey(f *testing.F) {
	f.Add("m", "j", "ab", "c")
	f.Add("", "", "", "")
	f.Add("m", "j", "a\x00", "\x01b")
	f.Fuzz(func(t *testing.T, metric, judge, a, b string) {
		k := NewKey(metric, judge, a, b)
		if k != NewKey(metric, judge, a, b) {
			t.Fatal("not deterministic")
		}
		if k.Metric != metric || k.Judge != judge {
			t.Fatalf("key %+v lost its metric or judge", k)
		}
		if NewKey(metric, judge, a+b) == k {
			t.Fatalf("(%q, %q) and (%q) share a key", a, b, a+b)
		}
		if a != b && NewKey(metric, judge, b, a) == k {
			t.Fatalf("(%q, %q) and (%q, %q) share a key", a, b, b, a)
		}
		if len(a) > 0 && NewKey(metric, judge, a[:len(a)-1], a[len(a)-1:]+b) == k {
			t.Fatalf("moving a byte between parts kept the key")
		}
		u := Unit(a)
		if !(u >= 0 && u < 1) {
			t.Fatalf("Unit(%q) = %v, outside [0, 1)", a, u)
		}
		if up := asciiUpper(a); Unit(up) != u {
			t.Fatalf("Unit(%q) != Unit(%q)", a, up)
		}
	})
}

// asciiUpper upper-cases the ASCII letters of s, leaving other bytes.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - ('a' - 'A')
		}
	}
	return string(b)
}

// FuzzConfigYAML decodes arbitrary YAML as a Config: New accepts exactly
// the configs Validate accepts, and a built policy decides without
// panicking.
func FuzzConfigYAML(f *testing.F) {
	if b, err := os.ReadFile("testdata/policy.yaml"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("rate: 2\nalways: [{}]\n"))
	f.Add([]byte("filter: {service: ['[']}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var c Config
		dec := yaml.NewDecoder(bytes.NewReader(b))
		dec.KnownFields(true)
		if dec.Decode(&c) != nil {
			return
		}
		p, err := New(c, newFakeClock().Now)
		if (err == nil) != (c.Validate() == nil) {
			t.Fatalf("New error %v disagrees with Validate", err)
		}
		if err != nil {
			return
		}
		for _, r := range []Run{{}, {TraceID: "ab", Service: "checkout", Failed: true, ToolErrors: 1,
			Score: mapScores(map[string]float64{UnsupportedFactsMetric: 1})}} {
			if d := p.Decide(r); d.Outcome == "" {
				t.Fatalf("empty outcome for %+v", r)
			}
		}
	})
}
