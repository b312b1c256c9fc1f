package simulator

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"time"
)

// ErrClosed is returned by RunOne after Shutdown.
var ErrClosed = errors.New("simulator: shut down")

// Simulator sends simulated agent runs to an OTLP endpoint. Its methods are
// safe for concurrent use.
type Simulator struct {
	cfg     Config
	quality atomic.Int32

	mu       sync.Mutex // guards the fields below
	planner  *planner
	release  string    // the release new runs use
	cur      *pipeline // the pipeline of cur.release
	pending  error     // export errors of retired pipelines, reported by Shutdown
	conv     string    // the conversation id of the current conversation
	convLeft int       // runs still to send in conv
	closed   bool
}

// New validates cfg and builds the OpenTelemetry TracerProvider (and, in
// event form, LoggerProvider) with OTLP exporters to cfg.Endpoint. No
// connection is made until the first export.
func New(ctx context.Context, cfg Config) (*Simulator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("simulator config: %w", err)
	}
	scenarios, err := loadScenarios()
	if err != nil {
		return nil, fmt.Errorf("simulator scenarios: %w", err)
	}
	cfg.Headers = maps.Clone(cfg.Headers)
	pl, err := newPipeline(ctx, &cfg, cfg.Release)
	if err != nil {
		return nil, err
	}
	s := &Simulator{cfg: cfg, planner: newPlanner(cfg.Seed, scenarios), release: cfg.Release, cur: pl}
	s.quality.Store(int32(cfg.Quality))
	return s, nil
}

// SetQuality switches the behaviour of the runs that start from now on;
// values other than Degraded behave as Good.
func (s *Simulator) SetQuality(q Quality) { s.quality.Store(int32(q)) }

// Quality returns the current behaviour.
func (s *Simulator) Quality() Quality { return Quality(s.quality.Load()) }

// SetRelease switches service.version (and gen_ai.agent.version) for the
// runs that start from now on. An empty release is ignored. The previous
// release's exporters are flushed and closed once its runs have finished.
func (s *Simulator) SetRelease(release string) {
	if release == "" {
		return
	}
	s.mu.Lock()
	s.release = release
	s.mu.Unlock()
}

// RunOne simulates one agent run, sends its spans (and log records) to the
// export queue and returns what the run did. The run's timestamps end now
// and go back as far as the simulated work took; RunOne itself does not
// sleep. Export happens in the background; Shutdown waits for it.
func (s *Simulator) RunOne(ctx context.Context) (Run, error) {
	if err := ctx.Err(); err != nil {
		return Run{}, err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return Run{}, ErrClosed
	}
	var retired *pipeline
	if s.cur.release != s.release {
		pl, err := newPipeline(ctx, &s.cfg, s.release)
		if err != nil {
			s.mu.Unlock()
			return Run{}, err
		}
		retired, s.cur = s.cur, pl
	}
	p := s.planner.next(s.Quality())
	if s.cfg.ConversationTurns > 1 {
		if s.convLeft == 0 {
			s.conv, s.convLeft = p.conversationID, s.cfg.ConversationTurns
		}
		p.conversationID = s.conv
		s.convLeft--
	}
	pl := s.cur
	pl.inflight.Add(1)
	s.mu.Unlock()

	if retired != nil {
		retired.inflight.Wait()
		if err := retired.shutdown(ctx); err != nil {
			s.mu.Lock()
			s.pending = errors.Join(s.pending, fmt.Errorf("release %s: %w", retired.release, err))
			s.mu.Unlock()
		}
	}

	e := emitter{pl: pl, eventForm: s.cfg.EventForm, release: pl.release}
	run := e.emit(ctx, p, time.Now())
	run.Service = s.cfg.Service
	pl.inflight.Done()
	return run, nil
}

// Run simulates n runs (n <= 0: until ctx is done), waiting interval
// between them, and calls onRun (if not nil) after each. It returns nil when
// n runs were sent, or when n <= 0 and ctx ended; otherwise the error that
// stopped it.
func (s *Simulator) Run(ctx context.Context, n int, interval time.Duration, onRun func(Run)) error {
	for i := 0; n <= 0 || i < n; i++ {
		if i > 0 && interval > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(interval):
			}
		}
		if err := ctx.Err(); err != nil {
			if n <= 0 {
				return nil
			}
			return err
		}
		run, err := s.RunOne(ctx)
		if err != nil {
			if n <= 0 && ctx.Err() != nil {
				return nil
			}
			return err
		}
		if onRun != nil {
			onRun(run)
		}
	}
	return nil
}

// Shutdown waits for runs in progress, exports what is left and closes the
// exporters. Later RunOne calls return ErrClosed.
func (s *Simulator) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	pl := s.cur
	pending := s.pending
	s.pending = nil
	s.mu.Unlock()
	pl.inflight.Wait()
	return errors.Join(pending, pl.shutdown(ctx))
}
