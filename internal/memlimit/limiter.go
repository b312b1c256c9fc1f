package memlimit

import (
	"context"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// Limiter measures the process's memory every check interval and bounds
// the request bytes in flight. A nil *Limiter limits nothing.
type Limiter struct {
	cfg        Config
	hard, soft uint64
	// outside is the resident memory the Go runtime does not manage (the
	// binary's pages), measured at Start; the runtime's share of each
	// limit is the limit less it.
	outside  uint64
	logger   *slog.Logger
	refusing atomic.Bool
	// compressed and decompressed bound the request bytes in flight as
	// received and once decompressed, each to a quarter of the spike
	// headroom.
	compressed, decompressed *Budget

	samples []metrics.Sample
	stop    context.CancelFunc
	done    sync.WaitGroup
}

// New resolves cfg's limits against the memory available (Available) and
// returns a limiter, nil when cfg is disabled or when its limit is a
// percentage of a memory size that cannot be read (then it logs a
// warning). It logs to set's logger.
func New(cfg Config, set telemetry.Settings) (*Limiter, error) {
	if !cfg.Enabled {
		return nil, nil
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	available := Available()
	if available == 0 && cfg.LimitMiB == 0 {
		// no cgroup limit nor machine memory to read (not Linux): run
		// without a limit rather than refuse to start
		set.Log().Warn("memory limiter off: the memory available is unknown; set limit_mib")
		return nil, nil
	}
	hard, soft, err := cfg.limits(available)
	if err != nil {
		return nil, err
	}
	inflight := int64(hard-soft) / 4
	return &Limiter{
		cfg: cfg, hard: hard, soft: soft, logger: set.Log(),
		compressed:   NewBudget(inflight),
		decompressed: NewBudget(inflight),
		samples:      []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}},
	}, nil
}

// Compressed bounds the request bytes in flight as received; nil (no
// bound) for a nil limiter.
func (l *Limiter) Compressed() *Budget {
	if l == nil {
		return nil
	}
	return l.compressed
}

// Decompressed bounds the request bytes in flight once decompressed, as
// the decoder reads them; nil (no bound) for a nil limiter.
func (l *Limiter) Decompressed() *Budget {
	if l == nil {
		return nil
	}
	return l.decompressed
}

// Limits returns the hard and soft limits in bytes.
func (l *Limiter) Limits() (hard, soft uint64) { return l.hard, l.soft }

// Start sets GOMEMLIMIT to the soft limit (unless the environment sets
// it), so that the garbage collector works harder and the runtime returns
// memory to the system as memory nears it, and starts the checks.
func (l *Limiter) Start() {
	if l == nil {
		return
	}
	l.outside = outsideRuntime()
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(int64(l.soft - min(l.outside, l.soft/2)))
	}
	l.logger.Info("memory limiter on", "limit_bytes", l.hard, "soft_limit_bytes", l.soft,
		"outside_runtime_bytes", l.outside, "inflight_bytes", l.decompressed.max, "check_interval", l.cfg.CheckInterval)
	l.check()
	ctx, cancel := context.WithCancel(context.Background())
	l.stop = cancel
	l.done.Go(func() {
		tk := time.NewTicker(l.cfg.CheckInterval)
		defer tk.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tk.C:
				l.check()
			}
		}
	})
}

// Shutdown stops the checks.
func (l *Limiter) Shutdown() {
	if l == nil || l.stop == nil {
		return
	}
	l.stop()
	l.done.Wait()
}

// Refusing reports whether memory use was above the soft limit at the
// last check: new data is to be refused with the retryable answer.
func (l *Limiter) Refusing() bool { return l != nil && l.refusing.Load() }

// used is the memory of the heap's objects, live or not yet collected, as
// the Collector's memory_limiter measures it, plus the memory outside the
// runtime.
func (l *Limiter) used() uint64 {
	metrics.Read(l.samples)
	return l.samples[0].Value.Uint64() + l.outside
}

// outsideRuntime returns the resident memory of the process that the Go
// runtime does not hold (its binary's pages, mostly), or 0 when the
// resident set cannot be read.
func outsideRuntime() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	rss, held := pages*uint64(os.Getpagesize()), s[0].Value.Uint64()-s[1].Value.Uint64()
	if rss <= held {
		return 0
	}
	return rss - held
}

// check measures memory, forcing a collection above the hard limit, and
// sets whether data is refused.
func (l *Limiter) check() {
	used := l.used()
	if used > l.hard {
		runtime.GC()
		debug.FreeOSMemory()
		used = l.used()
	}
	over := used > l.soft
	if over != l.refusing.Swap(over) {
		if over {
			l.logger.Warn("memory use above the soft limit: refusing data", "used_bytes", used, "soft_limit_bytes", l.soft)
		} else {
			l.logger.Info("memory use below the soft limit: accepting data", "used_bytes", used, "soft_limit_bytes", l.soft)
		}
	}
}
