package exporter

import "github.com/evalsidecar/evalsidecar/internal/telemetry"

// Config is an exporter's configuration block: the value of its key under
// exporters:.
type Config interface {
	// Validate reports every invalid key, named relative to the block.
	Validate() error
}

// Factory makes one kind of exporter, as the OpenTelemetry Collector's
// exporter.Factory does: the key of its block, the block's defaults, and
// the exporter a block configures. The sidecar's list of factories
// decides which blocks exporters: accepts, so a new exporter is its
// package, with a NewFactory function, and one line in that list.
type Factory interface {
	// Type is the key of the exporter's block under exporters:.
	Type() string
	// CreateDefaultConfig returns the block's defaults: a pointer to the
	// exporter's config struct, which the YAML block is decoded into.
	CreateDefaultConfig() Config
	// Enabled reports whether cfg, a block of this factory, turns the
	// exporter on.
	Enabled(cfg Config) bool
	// Create builds the exporter of cfg, a validated block of this
	// factory.
	Create(cfg Config, set telemetry.Settings) (Exporter, error)
}

// NewFactory returns the Factory of an exporter configured by a C, whose
// block is the key typ: defaults returns the block's defaults, enabled
// reports whether a block turns the exporter on (nil: it is always on),
// and create builds the exporter.
func NewFactory[C any, P interface {
	*C
	Config
}, E Exporter](typ string, defaults func() C, enabled func(C) bool, create func(C, telemetry.Settings) (E, error)) Factory {
	return factory[C, P, E]{typ: typ, defaults: defaults, enabled: enabled, create: create}
}

// factory is NewFactory's Factory.
type factory[C any, P interface {
	*C
	Config
}, E Exporter] struct {
	typ      string
	defaults func() C
	enabled  func(C) bool
	create   func(C, telemetry.Settings) (E, error)
}

func (f factory[C, P, E]) Type() string { return f.typ }

func (f factory[C, P, E]) CreateDefaultConfig() Config {
	c := f.defaults()
	return P(&c)
}

func (f factory[C, P, E]) Enabled(cfg Config) bool {
	return f.enabled == nil || f.enabled(*cfg.(P))
}

func (f factory[C, P, E]) Create(cfg Config, set telemetry.Settings) (Exporter, error) {
	e, err := f.create(*cfg.(P), set)
	if err != nil {
		return nil, err
	}
	return e, nil
}
