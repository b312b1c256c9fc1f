package offline

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/extractor"
	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/receiver/otlpfile"
)

// ReadRuns reads OTLP files through an assembler and returns every run it
// rebuilt. The assembler and the skipped files log to set's logger.
func ReadRuns(ctx context.Context, cfg extractor.Config, paths []string, set telemetry.Settings) ([]*agentrun.Trajectory, error) {
	var (
		mu   sync.Mutex
		runs []*agentrun.Trajectory
	)
	sink := extractor.SinkFunc(func(_ context.Context, t *agentrun.Trajectory) error {
		mu.Lock()
		runs = append(runs, t)
		mu.Unlock()
		return nil
	})
	asm, err := extractor.NewAssembler(cfg, set.Component("extractor"), sink)
	if err != nil {
		return nil, err
	}
	err = otlpfile.Read(ctx, paths, func(it otlpfile.Item) error {
		return Feed(ctx, asm, it)
	}, ReportSkipped(set.Log()))
	if err != nil {
		return nil, err
	}
	if err := asm.Flush(ctx); err != nil {
		return nil, err
	}
	mu.Lock()
	defer mu.Unlock()
	return runs, nil
}

// Feed hands one decoded file item to the assembler. When the assembler's
// buffer is full it releases what it holds and tries once more, so reading
// files never drops input.
func Feed(ctx context.Context, asm *extractor.Assembler, it otlpfile.Item) error {
	consume := func() error {
		if it.Signal == otlpfile.SignalLogs {
			return asm.ConsumeLogs(ctx, it.Logs)
		}
		return asm.ConsumeTraces(ctx, it.Traces)
	}
	err := consume()
	if _, refused := errs.AsRefused(err); refused {
		if ferr := asm.Flush(ctx); ferr != nil {
			return ferr
		}
		err = consume()
	}
	if err != nil {
		return fmt.Errorf("%s: %w", it.Position(), err)
	}
	return nil
}

// ReportSkipped returns the otlpfile.Read callback that reports a file of
// an input directory skipped because it is not OTLP, as a warning naming
// the file and the reason.
func ReportSkipped(logger *slog.Logger) func(path string, reason error) {
	return func(path string, reason error) {
		logger.Warn("skipped a file that is not OTLP", "file", path, "reason", reason)
	}
}
