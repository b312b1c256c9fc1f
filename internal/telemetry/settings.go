package telemetry

import (
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"
)

// Settings are what every component constructor takes besides its own
// config: where it logs, where it registers its metrics, where it counts
// what it drops, and the sidecar's version. The zero value works: logs
// are discarded, metrics are not registered and drops are not counted
// (tests and offline commands).
type Settings struct {
	Logger     *slog.Logger
	Registerer prometheus.Registerer
	Drops      *Drops
	Version    string
}

// Log returns the logger, or one that discards when none is set.
func (s Settings) Log() *slog.Logger {
	if s.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return s.Logger
}

// Component returns the settings for one named component: its logs carry
// component=name.
func (s Settings) Component(name string) Settings {
	s.Logger = s.Log().With("component", name)
	return s
}
