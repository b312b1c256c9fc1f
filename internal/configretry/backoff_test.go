package configretry

import (
	"strings"
	"testing"
	"time"
)

func valid() BackOffConfig {
	return BackOffConfig{Enabled: true, InitialInterval: time.Second, RandomizationFactor: 0.2,
		Multiplier: 1.5, MaxInterval: 30 * time.Second}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(*BackOffConfig)
		want   string // "" for valid
	}{
		{"defaults", func(*BackOffConfig) {}, ""},
		{"disabled ignores the rest", func(c *BackOffConfig) { *c = BackOffConfig{} }, ""},
		{"zero initial", func(c *BackOffConfig) { c.InitialInterval = 0 }, "initial_interval: must be > 0"},
		{"factor above one", func(c *BackOffConfig) { c.RandomizationFactor = 1.5 }, "randomization_factor: must be in [0, 1]"},
		{"negative factor", func(c *BackOffConfig) { c.RandomizationFactor = -0.1 }, "randomization_factor"},
		{"factor one", func(c *BackOffConfig) { c.RandomizationFactor = 1 }, ""},
		{"shrinking multiplier", func(c *BackOffConfig) { c.Multiplier = 0.5 }, "multiplier: must be >= 1"},
		{"max below initial", func(c *BackOffConfig) { c.MaxInterval = time.Millisecond }, "max_interval: must be >= initial_interval"},
		{"negative elapsed", func(c *BackOffConfig) { c.MaxElapsedTime = -time.Second }, "max_elapsed_time: must be >= 0"},
		{"elapsed below max interval", func(c *BackOffConfig) { c.MaxElapsedTime = 10 * time.Second }, "max_elapsed_time: must be 0 or >= max_interval"},
		{"elapsed set", func(c *BackOffConfig) { c.MaxElapsedTime = 5 * time.Minute }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := valid()
			tt.change(&c)
			err := c.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestWait(t *testing.T) {
	c := BackOffConfig{Enabled: true, InitialInterval: time.Second, Multiplier: 2, MaxInterval: 5 * time.Second}
	for n, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second} {
		if got := c.Wait(n); got != want {
			t.Errorf("Wait(%d) = %s, want %s", n, got, want)
		}
	}
	c.RandomizationFactor = 0.5
	for range 1000 {
		if got := c.Wait(1); got < time.Second || got > 3*time.Second {
			t.Fatalf("Wait(1) = %s, outside 2s ± 50%%", got)
		}
	}
}

func TestGiveUp(t *testing.T) {
	first := time.Unix(1000, 0)
	tests := []struct {
		name    string
		cfg     BackOffConfig
		elapsed time.Duration
		want    bool
	}{
		{"disabled", BackOffConfig{}, 0, true},
		{"forever", BackOffConfig{Enabled: true}, 24 * time.Hour, false},
		{"within max elapsed", BackOffConfig{Enabled: true, MaxElapsedTime: time.Minute}, 59 * time.Second, false},
		{"past max elapsed", BackOffConfig{Enabled: true, MaxElapsedTime: time.Minute}, time.Minute, true},
	}
	for _, tt := range tests {
		if got := tt.cfg.GiveUp(first, first.Add(tt.elapsed)); got != tt.want {
			t.Errorf("%s: GiveUp = %v, want %v", tt.name, got, tt.want)
		}
	}
}
