package telemetry

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// Register registers the collectors of component with reg; a nil reg
// registers nothing. An error names the component.
func Register(reg prometheus.Registerer, component string, cs ...prometheus.Collector) error {
	if reg == nil {
		return nil
	}
	for _, c := range cs {
		if err := reg.Register(c); err != nil {
			return fmt.Errorf("%s: register metrics: %w", component, err)
		}
	}
	return nil
}
