package config

import (
	"reflect"

	"gopkg.in/yaml.v3"

	"github.com/evalsidecar/evalsidecar/exporter"
	chexp "github.com/evalsidecar/evalsidecar/exporter/clickhouse"
	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	"github.com/evalsidecar/evalsidecar/exporter/otelevents"
	promexp "github.com/evalsidecar/evalsidecar/exporter/prometheus"
)

// ExporterFactories lists the exporters the sidecar can run, in the order
// their blocks are validated and the exporters built: Prometheus first. A
// new exporter is one line here.
func ExporterFactories() []exporter.Factory {
	return []exporter.Factory{promexp.NewFactory(), jsonl.NewFactory(), chexp.NewFactory(), otelevents.NewFactory()}
}

// Exporters configures the score sinks: each exporter's block, under its
// factory's type (ExporterFactories), as a pointer to the exporter's
// config struct. A document's block is decoded over the defaults. Like
// any map, it is shared by copies of the Config that holds it.
type Exporters map[string]exporter.Config

// exportersType is the type of the exporters block, whose keys are the
// factories' types rather than struct fields.
var exportersType = reflect.TypeOf(Exporters(nil))

// defaultExporters returns every exporter's default block.
func defaultExporters() Exporters {
	e := Exporters{}
	for _, f := range ExporterFactories() {
		e[f.Type()] = f.CreateDefaultConfig()
	}
	return e
}

// exporterFields maps each exporter's key to its block's type: the keys
// the exporters block accepts.
func exporterFields() map[string]reflect.Type {
	fields := map[string]reflect.Type{}
	for _, f := range ExporterFactories() {
		fields[f.Type()] = reflect.TypeOf(f.CreateDefaultConfig())
	}
	return fields
}

// UnmarshalYAML decodes each block of n over the block e holds (the
// defaults), starting from the defaults when e holds none. Keys no
// factory has are left out: the key check reports them.
func (e *Exporters) UnmarshalYAML(n *yaml.Node) error {
	if *e == nil {
		*e = defaultExporters()
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		cfg, ok := (*e)[n.Content[i].Value]
		if !ok {
			continue
		}
		if err := n.Content[i+1].Decode(cfg); err != nil {
			return err
		}
	}
	return nil
}

// ExporterConfig returns the block of e whose config is a C, nil when e
// has none.
func ExporterConfig[C any](e Exporters) *C {
	for _, cfg := range e {
		if c, ok := any(cfg).(*C); ok {
			return c
		}
	}
	return nil
}
