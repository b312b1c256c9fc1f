package exporter

import (
	"errors"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// fakeConfig is the block of the fake exporter.
type fakeConfig struct {
	On   bool
	Name string
}

func (c fakeConfig) Validate() error {
	if c.Name == "" {
		return errors.New("name: must not be empty")
	}
	return nil
}

func TestNewFactory(t *testing.T) {
	var log []string
	create := func(c fakeConfig, _ telemetry.Settings) (*fake, error) {
		if c.Name == "broken" {
			return nil, errors.New("cannot start")
		}
		return &fake{name: c.Name, log: &log}, nil
	}
	defaults := func() fakeConfig { return fakeConfig{Name: "default"} }
	onOff := NewFactory("fake", defaults, func(c fakeConfig) bool { return c.On }, create)
	always := NewFactory("fake", defaults, nil, create)

	cfg := onOff.CreateDefaultConfig()
	block, ok := cfg.(*fakeConfig)
	if !ok || *block != defaults() || onOff.Type() != "fake" {
		t.Fatalf("default block = %#v (%T), type %q", cfg, cfg, onOff.Type())
	}
	if onOff.CreateDefaultConfig() == cfg {
		t.Error("two default blocks are one value")
	}
	tests := []struct {
		name    string
		f       Factory
		block   fakeConfig
		enabled bool
		wantErr bool
	}{
		{name: "off by its block", f: onOff, block: fakeConfig{Name: "a"}},
		{name: "on by its block", f: onOff, block: fakeConfig{On: true, Name: "b"}, enabled: true},
		{name: "always on", f: always, block: fakeConfig{Name: "c"}, enabled: true},
		{name: "a constructor error", f: always, block: fakeConfig{Name: "broken"}, enabled: true, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			*block = tt.block // the block a document decoded into the default
			if got := tt.f.Enabled(cfg); got != tt.enabled {
				t.Errorf("Enabled = %v, want %v", got, tt.enabled)
			}
			e, err := tt.f.Create(cfg, telemetry.Settings{})
			if tt.wantErr {
				if err == nil || e != nil {
					t.Errorf("Create = %v, %v; want no exporter and an error", e, err)
				}
				return
			}
			if f, ok := e.(*fake); err != nil || !ok || f.name != tt.block.Name {
				t.Errorf("Create = %#v, %v; want the exporter of block %q", e, err, tt.block.Name)
			}
		})
	}
}
