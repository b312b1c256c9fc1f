package main

import (
	"log/slog"
	"os"
	"runtime/debug"

	"github.com/evalsidecar/evalsidecar/internal/config"
)

// applyRuntime sets the GC target and memory limit from the config unless
// the GOGC / GOMEMLIMIT environment variables already did.
func applyRuntime(cfg config.Runtime, logger *slog.Logger) {
	if v, set := os.LookupEnv("GOGC"); set {
		logger.Debug("GC target from the environment", "GOGC", v)
	} else {
		debug.SetGCPercent(cfg.GCPercent)
	}
	if v, set := os.LookupEnv("GOMEMLIMIT"); set {
		logger.Debug("memory limit from the environment", "GOMEMLIMIT", v)
	} else if cfg.MemoryLimitBytes > 0 {
		debug.SetMemoryLimit(cfg.MemoryLimitBytes)
	}
}
