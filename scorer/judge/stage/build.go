package stage

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/guard"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/adk"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/ragas"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/vertex"
	"github.com/evalsidecar/evalsidecar/scorer/judge/provider"
	"github.com/evalsidecar/evalsidecar/scorer/judge/redact"
	"github.com/evalsidecar/evalsidecar/scorer/judge/sampling"
)

// Settings are what Build needs besides the config: the sidecar's
// telemetry settings (the judge, redaction and stage metrics go to its
// Registerer) and the judge's environment.
type Settings struct {
	telemetry.Settings
	// HTTPClient carries the judge requests (proxy, TLS); nil uses a
	// default client.
	HTTPClient *http.Client
	// Now is the clock of budgets, rules and the cache; nil is time.Now.
	Now func() time.Time
	// Blocking makes the stage wait for queue space instead of skipping
	// runs (offline replay).
	Blocking bool
	// Baselines gives the pairwise metrics the baseline run of a live
	// run (judge.baseline); nil turns online pairwise off.
	Baselines judgemetric.Baselines
}

// Parts are the judge side of a configuration, built: the judges and the
// judge metrics with their policies.
type Parts struct {
	Judges  *judge.Set
	Metrics []Metric
	Cache   *sampling.Cache[scorer.Result]
	// Workers is the number of stage workers per judge:
	// sending_queue.num_consumers, else the judge's max_concurrency.
	Workers map[string]int
}

// BuildParts builds the judges and judge metrics of cfg without starting
// anything; no request is sent.
func BuildParts(cfg Config, s Settings) (*Parts, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s = s.withDefaults()
	js, err := buildJudges(cfg, s)
	if err != nil {
		return nil, err
	}
	parts := &Parts{Judges: js.set, Workers: js.workers}
	if parts.Cache, err = sampling.NewCache[scorer.Result](cfg.Cache, s.Now); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	for i, mc := range cfg.Metrics {
		m, err := buildMetric(mc, cfg.MaxFieldBytes, js.redactor, judgemetric.Deps{Judges: js.judges, DefaultJudge: js.def, Baselines: s.Baselines}, s.Now)
		if err != nil {
			return nil, fmt.Errorf("metrics[%d]: %w", i, err)
		}
		parts.Metrics = append(parts.Metrics, m)
	}
	return parts, nil
}

// Check validates cfg and builds its judges (fallback chains included)
// and judge metrics over stand-in providers, so that a bad metric
// parameter, judge name or sampling rule is reported with its key at
// start. Unlike BuildParts it creates no provider: no HTTP client and no
// credential lookup.
func Check(cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	js, err := newJudges(cfg, telemetry.Settings{}, func(jc JudgeConfig) (judge.Provider, judge.Options, error) {
		return unsentProvider{model: jc.Model}, judge.Options{}, nil
	})
	if err != nil {
		return err
	}
	for i, mc := range cfg.Metrics {
		if _, err := buildMetric(mc, cfg.MaxFieldBytes, nil, judgemetric.Deps{Judges: js.judges, DefaultJudge: js.def}, time.Now); err != nil {
			return fmt.Errorf("metrics[%d]: %w", i, err)
		}
	}
	return nil
}

// unsentProvider stands for a judge's provider while a config is checked;
// it never sends a request.
type unsentProvider struct{ model string }

func (unsentProvider) Kind() string    { return "unsent" }
func (p unsentProvider) Model() string { return p.model }

func (unsentProvider) Complete(context.Context, *judge.Request) (*judge.Response, error) {
	return nil, &judge.Error{Class: judge.ClassCanceled, Err: errors.New("config check only")}
}

// OfflineRegistry registers on r, for offline evaluation (sidecar eval),
// every judge metric bound to cfg's judges, redaction and field
// allow-lists. Offline there is no
// sampling and no metric budget; the judges' own budgets, retries and
// circuits apply.
func OfflineRegistry(cfg Config, s Settings, r *scorer.Registry) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	s = s.withDefaults()
	js, err := buildJudges(cfg, s)
	if err != nil {
		return err
	}
	policies := map[string]*guard.Policy{}
	all := &guard.Policy{Redactor: js.redactor, MaxFieldBytes: cfg.MaxFieldBytes}
	for _, mc := range cfg.Metrics {
		if len(mc.Fields) == 0 {
			continue
		}
		pol := &guard.Policy{Redactor: js.redactor, AllowedFields: mc.Fields, MaxFieldBytes: cfg.MaxFieldBytes}
		policies[mc.Name] = pol
		if mc.Type != "" {
			policies[mc.Type] = pol
		}
	}
	return RegisterMetrics(r, judgemetric.Deps{
		Judges:       js.judges,
		DefaultJudge: js.def,
		Sanitizers: func(metric string) func() judge.Sanitizer {
			if p, ok := policies[metric]; ok {
				return p.New
			}
			return all.New
		},
	})
}

// judges are the built judge clients of a config.
type judges struct {
	set      *judge.Set
	judges   map[string]judge.Judge
	workers  map[string]int
	def      string
	redactor *redact.Redactor
}

func (s Settings) withDefaults() Settings {
	if s.Now == nil {
		s.Now = time.Now
	}
	return s
}

// buildJudges builds the redactor and one client per configured judge,
// with their fallbacks resolved.
func buildJudges(cfg Config, s Settings) (*judges, error) {
	tel, err := judge.NewMetrics(s.Registerer)
	if err != nil {
		return nil, err
	}
	redactor, err := redact.New(cfg.Redaction, s.Settings)
	if err != nil {
		return nil, fmt.Errorf("redaction: %w", err)
	}
	js, err := newJudges(cfg, s.Settings, func(jc JudgeConfig) (judge.Provider, judge.Options, error) {
		est := cmp.Or(jc.MaxOutputTokens, provider.DefaultMaxOutputTokens) // the configured answer cap
		p, err := provider.New(jc.Config, s.HTTPClient)
		return p, judge.Options{Metrics: tel, Now: s.Now, EstimatedOutputTokens: est}, err
	})
	if err != nil {
		return nil, err
	}
	js.redactor = redactor
	return js, nil
}

// newJudges builds one client per configured judge, its provider and
// options made by build, with their fallbacks resolved; the clients log to
// tel's logger.
func newJudges(cfg Config, tel telemetry.Settings, build func(JudgeConfig) (judge.Provider, judge.Options, error)) (*judges, error) {
	js := &judges{workers: make(map[string]int, len(cfg.Judges)), def: cfg.defaultJudge()}
	clients := make([]*judge.Client, 0, len(cfg.Judges))
	for i, jc := range cfg.Judges {
		p, opts, err := build(jc)
		if err != nil {
			return nil, fmt.Errorf("judges[%d]: %w", i, err)
		}
		c, err := judge.NewClient(jc.ClientConfig, p, opts, tel)
		if err != nil {
			return nil, fmt.Errorf("judges[%d]: %w", i, err)
		}
		clients = append(clients, c)
		js.workers[jc.Name] = jc.MaxConcurrency
		if n := cfg.SendingQueue.NumConsumers; n > 0 {
			js.workers[jc.Name] = n
		}
	}
	set, err := judge.NewSet(clients...)
	if err != nil {
		return nil, err
	}
	js.set, js.judges = set, set.Judges()
	return js, nil
}

// buildMetric builds one judge metric with its own sanitizer policy (the
// metric's field allow-list), sampling policy and budget; deps gives the
// judges, the default judge and the baselines.
func buildMetric(mc MetricConfig, maxField int, redactor *redact.Redactor, deps judgemetric.Deps, now func() time.Time) (Metric, error) {
	var allowed []string
	if len(mc.Fields) > 0 {
		allowed = mc.Fields
	}
	pol := &guard.Policy{Redactor: redactor, AllowedFields: allowed, MaxFieldBytes: maxField}
	deps.Sanitizers = func(string) func() judge.Sanitizer { return pol.New }
	r := scorer.NewRegistry()
	if err := RegisterMetrics(r, deps); err != nil {
		return Metric{}, err
	}
	if kind := cmp.Or(mc.Type, mc.Name); !slices.Contains(r.Names(), kind) {
		return Metric{}, fmt.Errorf("metric %q: %q is not a judge metric (known: %s); deterministic metrics go under scorer.metrics",
			mc.Name, kind, strings.Join(r.Names(), ", "))
	}
	ms, err := r.Build([]scorer.MetricConfig{mc.MetricConfig})
	if err != nil {
		return Metric{}, err
	}
	jm, ok := ms[0].(scorer.Judged)
	if !ok {
		return Metric{}, fmt.Errorf("metric %q: not a judge metric; deterministic metrics go under scorer.metrics", mc.Name)
	}
	sp, err := sampling.New(mc.Sampling, now)
	if err != nil {
		return Metric{}, fmt.Errorf("metric %q: sampling: %w", mc.Name, err)
	}
	m := Metric{Metric: jm, Policy: sp}
	if mc.Budget != (judge.BudgetConfig{}) {
		m.Budget = judge.NewBudget(mc.Name, mc.Budget, now)
	}
	return m, nil
}

// RegisterMetrics registers every judge metric (Vertex, ADK, Ragas) on r,
// bound to deps.
func RegisterMetrics(r *scorer.Registry, deps judgemetric.Deps) error {
	err := errors.Join(vertex.Register(r, deps), adk.Register(r, deps), ragas.Register(r, deps))
	if err != nil {
		return fmt.Errorf("register judge metrics: %w", err)
	}
	return nil
}

// Build builds the judge stage of cfg, exporting to sink. It returns nil
// and no error when no judge metric is configured.
func Build(cfg Config, sink scorer.Sink, s Settings) (*Stage, error) {
	if !cfg.Enabled() {
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
		return nil, nil
	}
	parts, err := BuildParts(cfg, s)
	if err != nil {
		return nil, err
	}
	return New(parts.Metrics, sink, Options{
		QueueSize:     cfg.SendingQueue.QueueSize,
		Inline:        !cfg.SendingQueue.Enabled,
		ShedOldest:    cfg.Shed == ShedOldest,
		Blocking:      s.Blocking,
		Workers:       parts.Workers,
		MetricTimeout: cfg.MetricTimeout,
		Cache:         parts.Cache,
	}, s.Settings)
}
