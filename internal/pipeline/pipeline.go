// Package pipeline wires the sidecar's stages together: receiver →
// assembler → scoring engine → exporter fan-out, with one Prometheus
// registry shared by every component. The serve, replay and demo commands
// and the end-to-end tests all build the same pipeline.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/evalsidecar/evalsidecar/exporter"
	chexp "github.com/evalsidecar/evalsidecar/exporter/clickhouse"
	promexp "github.com/evalsidecar/evalsidecar/exporter/prometheus"
	"github.com/evalsidecar/evalsidecar/extractor"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/receiver"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/catalog"
	"github.com/evalsidecar/evalsidecar/scorer/feedback"
	"github.com/evalsidecar/evalsidecar/scorer/judge/baseline"
	"github.com/evalsidecar/evalsidecar/scorer/judge/calibration"
	"github.com/evalsidecar/evalsidecar/scorer/judge/redact"
	"github.com/evalsidecar/evalsidecar/scorer/judge/stage"
	"github.com/evalsidecar/evalsidecar/scorer/reference"
	"github.com/evalsidecar/evalsidecar/scorer/session"
)

// The scoring engine is the assembler's sink.
var _ extractor.Sink = (*scorer.Engine)(nil)

// Options select the parts of the pipeline to build.
type Options struct {
	// Online builds the OTLP receiver and the metrics HTTP server. Offline
	// pipelines (replay) are fed through the Assembler directly.
	Online bool
	// Extra exporters receive every evaluation besides the configured ones.
	Extra []exporter.Exporter
}

// Pipeline is a built, not yet started, sidecar.
type Pipeline struct {
	Registry  *prometheus.Registry
	Receiver  *receiver.Receiver // nil offline
	Metrics   *promexp.Server    // nil offline
	Assembler *extractor.Assembler
	Engine    *scorer.Engine
	// Judge runs the judge metrics on sampled runs; nil when no judge
	// metric is configured.
	Judge     *stage.Stage
	Exporters *exporter.Fanout
	// Sessions groups scored runs into conversations and scores them;
	// nil unless sessions are enabled. It is the last of Exporters.
	Sessions *session.Assembler
	// References gives live runs their expected side; nil when no
	// reference files are configured.
	References *reference.Store
	// Feedback takes people's feedback records from log requests to the
	// exporters.
	Feedback *feedback.Consumer

	logger *slog.Logger
	drops  *telemetry.Drops
	// sessionStore reads sessions back from ClickHouse (sessions.source
	// clickhouse); nil otherwise.
	sessionStore *chexp.SessionReader
	// baselineStore reads baseline runs back from ClickHouse (online
	// pairwise with the ClickHouse exporter); nil otherwise.
	baselineStore *chexp.BaselineReader
	cancelRun     context.CancelFunc
	runDone       chan struct{}
	mu            sync.Mutex
	ready         bool
}

// New builds every component from cfg. Nothing listens or runs until Start.
// The components log to set's logger; set.Version is reported by
// evalsidecar_build_info. The pipeline registers every metric with its own
// Registry and counts drops there, whatever set's Registerer and Drops.
func New(cfg config.Config, set telemetry.Settings, opts Options) (*Pipeline, error) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name:        "evalsidecar_build_info",
			Help:        "Build information of the running sidecar; always 1.",
			ConstLabels: prometheus.Labels{"version": set.Version},
		}, func() float64 { return 1 }),
	)
	set.Registerer, set.Drops = reg, telemetry.NewDrops(reg)
	p := &Pipeline{Registry: reg, logger: set.Log(), drops: set.Drops}

	var err error
	if len(cfg.Scorer.References.Files) > 0 {
		if p.References, err = reference.New(cfg.Scorer.References, set.Component("references")); err != nil {
			return nil, fmt.Errorf("scorer.references: %w", err)
		}
	}
	exps, err := newExporters(cfg, set)
	if err != nil {
		return nil, err
	}
	exps = append(exps, opts.Extra...)
	if cfg.Sessions.Enabled {
		// Last in the fan-out, so it shuts down first and exports the
		// sessions still open to the exporters before them.
		sopts := session.Options{MetricTimeout: cfg.Scorer.MetricTimeout, Judge: conversationJudge{p}}
		if p.References != nil {
			sopts.Cases = p.References
			if sopts.CaseMetrics, err = catalog.NewRegistry().Build(session.CaseMetrics()); err != nil {
				return nil, fmt.Errorf("sessions: %w", err)
			}
		}
		if cfg.Sessions.Source == session.SourceClickHouse {
			ch := config.ExporterConfig[chexp.Config](cfg.Exporters)
			if !ch.Enabled {
				return nil, errors.New("sessions.source clickhouse needs exporters.clickhouse.enabled")
			}
			caseID := ""
			if p.References != nil {
				caseID = p.References.CaseIDAttribute()
			}
			if p.sessionStore, err = chexp.NewSessionReader(*ch, caseID); err != nil {
				return nil, fmt.Errorf("sessions: %w", err)
			}
			sopts.Store = p.sessionStore
		}
		if p.Sessions, err = session.New(cfg.Sessions, set.Component("sessions"), exporter.NewFanout(exps...), sopts); err != nil {
			return nil, err
		}
		exps = append(exps, p.Sessions)
	}
	p.Exporters = exporter.NewFanout(exps...)

	metrics, err := catalog.NewRegistry().Build(cfg.Scorer.Metrics)
	if err != nil {
		return nil, fmt.Errorf("scorer.metrics: %w", err)
	}
	baselines, err := p.newBaselines(cfg, set)
	if err != nil {
		return nil, err
	}
	judgeSet := stage.Settings{Settings: set.Component("judge"), Blocking: !opts.Online} // replay judges every sampled run
	if baselines != nil {
		judgeSet.Baselines = baselines
	}
	if p.Judge, err = stage.Build(cfg.Judge, p.Exporters, judgeSet); err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	// Offline, the scorer queue pushes back instead of dropping: a replay
	// releases every buffered trace at once.
	engineOpts := scorer.EngineOptions{Blocking: !opts.Online}
	if p.Judge != nil {
		engineOpts.Deferred = p.Judge
	}
	if cfg.Judge.RedactStored && cfg.Judge.Redaction.Enabled {
		if engineOpts.Redactor, err = redact.New(cfg.Judge.Redaction, set); err != nil {
			return nil, fmt.Errorf("judge.redaction: %w", err)
		}
	}
	engineOpts.Enricher = p.enricher(baselines)
	if p.Engine, err = scorer.NewEngine(cfg.Scorer, set.Component("scorer"), metrics, p.Exporters, engineOpts); err != nil {
		return nil, fmt.Errorf("scorer: %w", err)
	}
	p.describeMetrics(exps, metrics)
	if p.Assembler, err = extractor.NewAssembler(cfg.Extractor, set.Component("extractor"), p.Engine); err != nil {
		return nil, fmt.Errorf("extractor: %w", err)
	}
	if p.Feedback, err = feedback.New(set.Component("feedback"), p.Exporters); err != nil {
		return nil, fmt.Errorf("feedback: %w", err)
	}
	if opts.Online {
		if p.Receiver, err = receiver.New(cfg.Receiver, set.Component("receiver"), p.Assembler, receiver.LogsConsumerFunc(p.consumeLogs)); err != nil {
			return nil, fmt.Errorf("receiver: %w", err)
		}
		p.Metrics = promexp.NewServer(*config.ExporterConfig[promexp.Config](cfg.Exporters), reg, p.Readiness, set.Component("metrics"))
	}
	return p, nil
}

// newExporters builds the configured exporters, in the order of
// config.ExporterFactories (Prometheus first), and, with judge metrics,
// the calibration against people's feedback.
func newExporters(cfg config.Config, set telemetry.Settings) ([]exporter.Exporter, error) {
	var exps []exporter.Exporter
	for _, f := range config.ExporterFactories() {
		c := cfg.Exporters[f.Type()]
		if c == nil || !f.Enabled(c) {
			continue
		}
		e, err := f.Create(c, set.Component("exporter/"+f.Type()))
		if err != nil {
			return nil, fmt.Errorf("exporters.%s: %w", f.Type(), err)
		}
		exps = append(exps, e)
	}
	if cfg.Judge.Enabled() {
		c, err := calibration.New(cfg.Judge.Calibration, set.Component("judge/calibration"))
		if err != nil {
			return nil, fmt.Errorf("judge.calibration: %w", err)
		}
		exps = append(exps, c)
	}
	return exps, nil
}

// consumeLogs takes a log request: people's feedback goes to the
// exporters, then every record, the feedback included, to the assembler
// (which keeps the gen_ai events only).
func (p *Pipeline) consumeLogs(ctx context.Context, ld plog.Logs) error {
	p.Feedback.ConsumeLogs(ctx, ld)
	return p.Assembler.ConsumeLogs(ctx, ld)
}

// CheckBaseline reports pairwise judge metrics configured to run on live
// runs without a baseline release to compare them with. serve and
// validate check it; sidecar eval, whose baseline is a dataset column,
// does not.
func CheckBaseline(cfg config.Config) error {
	if pw := cfg.Judge.PairwiseMetrics(); len(pw) > 0 && !cfg.Judge.Baseline.Enabled() {
		return fmt.Errorf("judge.baseline.version: must name the baseline release (its service.version, or previous) that the pairwise metrics %v compare live runs with", pw)
	}
	return nil
}

// newBaselines builds the baseline store of online pairwise evaluation
// when pairwise metrics are configured, reading the runs other replicas
// stored from ClickHouse when its exporter is on; nil without pairwise
// metrics.
func (p *Pipeline) newBaselines(cfg config.Config, set telemetry.Settings) (*baseline.Store, error) {
	if err := CheckBaseline(cfg); err != nil || len(cfg.Judge.PairwiseMetrics()) == 0 {
		return nil, err
	}
	caseAttr := cfg.Scorer.References.CaseIDAttribute
	var src baseline.Source
	if ch := config.ExporterConfig[chexp.Config](cfg.Exporters); ch.Enabled {
		var err error
		if p.baselineStore, err = chexp.NewBaselineReader(*ch, caseAttr); err != nil {
			return nil, fmt.Errorf("judge.baseline: %w", err)
		}
		src = p.baselineStore
	}
	b, err := baseline.New(cfg.Judge.Baseline, caseAttr, src, set.Component("baseline"))
	if err != nil {
		return nil, fmt.Errorf("judge.baseline: %w", err)
	}
	return b, nil
}

// enricher is what the engine adds to every run before scoring: its
// reference, then (recording the baseline release's runs) the baselines,
// which read the case id the reference store may set; nil for neither.
func (p *Pipeline) enricher(b *baseline.Store) scorer.Enricher {
	var es scorer.Enrichers
	if p.References != nil {
		es = append(es, p.References)
	}
	if b != nil {
		es = append(es, b)
	}
	if len(es) == 0 {
		return nil
	}
	return es
}

// describeMetrics tells every exporter that asks the metrics it will be
// given scores of: the configured ones, the judge's and, with sessions,
// the session's (session metrics, case metrics); a name already described
// keeps its first, configured, semantics.
func (p *Pipeline) describeMetrics(exps []exporter.Exporter, metrics []scorer.Metric) {
	all := append(metrics, p.Judge.Metrics()...)
	if p.Sessions != nil {
		for _, m := range p.Sessions.Metrics() {
			if !slices.ContainsFunc(all, func(d scorer.Metric) bool { return d.Name() == m.Name() }) {
				all = append(all, m)
			}
		}
	}
	for _, x := range exps {
		if d, ok := x.(exporter.MetricsDescriber); ok {
			d.DescribeMetrics(all)
		}
	}
}

// Readiness is the /readyz check: ready between a successful Start and the
// beginning of Shutdown (or Drain).
func (p *Pipeline) Readiness() error {
	if p.Receiver != nil && p.Receiver.Draining() {
		return errors.New("draining")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.ready {
		return errors.New("not accepting data")
	}
	return nil
}

// Start starts the stages from the end of the pipeline to its head, so
// that each stage has a running consumer before it gets data.
func (p *Pipeline) Start(ctx context.Context) error {
	if err := p.Exporters.Start(ctx); err != nil {
		return fmt.Errorf("start exporters: %w", err)
	}
	if p.Judge != nil {
		p.Judge.Start(ctx)
	}
	p.Engine.Start(ctx)
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	p.cancelRun = cancel
	p.runDone = make(chan struct{})
	go func() {
		defer close(p.runDone)
		var refs sync.WaitGroup
		if p.References != nil {
			refs.Go(func() { p.References.Run(runCtx) })
		}
		if err := p.Assembler.Run(runCtx); err != nil && !errors.Is(err, context.Canceled) {
			p.logger.Error("assembler stopped", "err", err)
		}
		refs.Wait()
	}()
	if p.Metrics != nil {
		if err := p.Metrics.Start(ctx); err != nil {
			return errors.Join(fmt.Errorf("start metrics server: %w", err), p.Shutdown(ctx))
		}
	}
	if p.Receiver != nil {
		if err := p.Receiver.Start(ctx); err != nil {
			return errors.Join(fmt.Errorf("start receiver: %w", err), p.Shutdown(ctx))
		}
	}
	p.mu.Lock()
	p.ready = true
	p.mu.Unlock()
	return nil
}

// Shutdown stops in data-flow order within ctx: refuse new data (the
// retryable answer), release every buffered trace, drain the scorer, flush
// the exporters, then close the listeners. Until ctx ends every stage
// waits for room in the next one instead of refusing, so nothing the
// receiver acknowledged is dropped; what is dropped when ctx ends is
// logged at WARN with its count by stage and reason. It returns the
// errors of every step.
func (p *Pipeline) Shutdown(ctx context.Context) error {
	p.mu.Lock()
	p.ready = false
	p.mu.Unlock()
	before := dropTotals(p.drops)
	defer p.warnDrops(before)
	var errs []error
	step := func(what string, err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
		}
	}
	if p.Receiver != nil {
		p.Receiver.Drain()
	}
	p.Engine.Drain()
	if p.cancelRun != nil {
		p.cancelRun()
		<-p.runDone
		p.cancelRun = nil
	}
	step("flush assembler", p.Assembler.Flush(ctx))
	step("drain scorer", p.Engine.Shutdown(ctx))
	if p.Sessions != nil { // close the open sessions while the judge still takes them
		step("close sessions", p.Sessions.Shutdown(ctx))
	}
	if p.Judge != nil {
		step("drain judge", p.Judge.Shutdown(ctx))
	}
	step("flush exporters", p.Exporters.Shutdown(ctx))
	if p.Receiver != nil {
		step("stop receiver", p.Receiver.Shutdown(ctx))
	}
	if p.sessionStore != nil {
		step("close session reader", p.sessionStore.Close())
	}
	if p.baselineStore != nil {
		step("close baseline reader", p.baselineStore.Close())
	}
	if p.Metrics != nil {
		step("stop metrics server", p.Metrics.Shutdown(ctx))
	}
	return errors.Join(errs...)
}

// dropTotals returns the drops counted so far by stage and reason.
func dropTotals(d *telemetry.Drops) map[[2]string]float64 {
	m := map[[2]string]float64{}
	for _, c := range d.Counts() {
		m[[2]string{c.Stage, c.Reason}] = c.N
	}
	return m
}

// warnDrops logs at WARN the drops counted since before, so that a loss
// at shutdown is seen after the process and its counters are gone.
func (p *Pipeline) warnDrops(before map[[2]string]float64) {
	for k, n := range dropTotals(p.drops) {
		if d := n - before[k]; d > 0 {
			p.logger.Warn("data dropped during shutdown", "stage", k[0], "reason", k[1], "count", int64(d))
		}
	}
}

// conversationJudge offers closed sessions to the judge stage, which is
// built after the exporters the session assembler belongs to.
type conversationJudge struct{ p *Pipeline }

func (c conversationJudge) OfferConversation(ctx context.Context, in *scorer.Instance, ev *scorer.Evaluation) {
	if c.p.Judge != nil {
		c.p.Judge.OfferConversation(ctx, in, ev)
	}
}

func (c conversationJudge) JudgesDialogues() bool {
	return c.p.Judge != nil && c.p.Judge.JudgesDialogues()
}
