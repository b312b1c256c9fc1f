package calibration

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/aggregate"
)

// Metric names of the calibration gauges and counter.
const (
	MetricAgreement = "evalsidecar_judge_agreement"
	MetricFloor     = "evalsidecar_judge_agreement_floor"
	MetricLabels    = "evalsidecar_judge_agreement_labels"
	MetricEvicted   = "evalsidecar_judge_calibration_evicted_total"
)

// Statistic label values of evalsidecar_judge_agreement.
const (
	StatKappa    = "kappa"
	StatSpearman = "spearman"
	StatMAE      = "mae"
)

// key is a run and metric: what a feedback record and a judge score
// share.
type key struct{ traceID, metric string }

// Calibrator pairs feedback with judge scores and exports the agreement.
// It is an exporter of the fan-out: it sees the judge's scores and the
// feedback records as the other exporters do.
type Calibrator struct {
	cfg Config

	mu      sync.Mutex
	scores  *simplelru.LRU[key, aggregate.Pair] // judge scores, Human unset
	pending *simplelru.LRU[key, []any]          // feedback values waiting for their score
	// windows hold each metric's last cfg.Window labelled runs.
	windows map[string][]aggregate.Pair
	// floorStat is the statistic each metric's floor series is labelled
	// with (kappa for labels, Spearman for numbers), once known.
	floorStat map[string]string

	agreement *prometheus.GaugeVec // metric, statistic
	floor     *prometheus.GaugeVec // metric, statistic
	labels    *prometheus.GaugeVec // metric
	evicted   *prometheus.CounterVec
}

// New returns a calibrator for cfg, its metrics registered with
// set.Registerer.
func New(cfg Config, set telemetry.Settings) (*Calibrator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("calibration: %w", err)
	}
	c := &Calibrator{
		cfg:       cfg,
		windows:   map[string][]aggregate.Pair{},
		floorStat: map[string]string{},
		agreement: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: MetricAgreement,
			Help: "Agreement of a judge metric with people over its last labelled runs (judge.calibration.window), by statistic: kappa (Cohen's, labels), spearman (rank correlation, numbers), mae (mean absolute error, numbers). Exported once min_labels runs are labelled."},
			[]string{"metric", "statistic"}),
		floor: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: MetricFloor,
			Help: "Configured agreement floor of a judge metric (judge.calibration.floor), labelled with the statistic it applies to: kappa when people give labels, spearman when they give numbers."},
			[]string{"metric", "statistic"}),
		labels: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: MetricLabels,
			Help: "Labelled runs (judge score and feedback paired) in a judge metric's agreement window."},
			[]string{"metric"}),
		evicted: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricEvicted,
			Help: "Entries evicted unpaired from the calibration caches (judge.calibration.max_pending), by kind: score (a judged run no feedback came for) or feedback (feedback whose judge score never came)."},
			[]string{"kind"}),
	}
	c.scores, _ = simplelru.NewLRU[key, aggregate.Pair](cfg.MaxPending, nil)
	c.pending, _ = simplelru.NewLRU[key, []any](cfg.MaxPending, nil)
	c.evicted.WithLabelValues("score")
	c.evicted.WithLabelValues("feedback")
	if err := telemetry.Register(set.Registerer, "calibration", c.agreement, c.floor, c.labels, c.evicted); err != nil {
		return nil, err
	}
	return c, nil
}

// Start does nothing.
func (c *Calibrator) Start(context.Context) error { return nil }

// Shutdown does nothing: the gauges stay readable.
func (c *Calibrator) Shutdown(context.Context) error { return nil }

// Export takes e's judge scores (of a run, not a session) and its
// feedback records, and updates the agreement of every metric that
// gained a labelled run.
func (c *Calibrator) Export(_ context.Context, e *scorer.Evaluation) error {
	if e == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	changed := map[string]bool{}
	for i := range e.Feedback {
		f := &e.Feedback[i]
		k := key{f.TraceID, f.Metric}
		if p, ok := c.scores.Get(k); ok {
			c.pair(k.metric, p, f.Human())
			changed[k.metric] = true
			continue
		}
		vs, _ := c.pending.Peek(k)
		if c.pending.Add(k, append(vs, f.Human())) {
			c.evicted.WithLabelValues("feedback").Inc()
		}
	}
	if e.Trajectory != nil && e.Session == nil {
		for i := range e.Results {
			r := &e.Results[i]
			if r.Judge == nil {
				continue
			}
			k := key{e.Trajectory.TraceID, r.Metric}
			p := aggregate.Pair{Score: r.Score, Label: r.Label}
			if vs, ok := c.pending.Peek(k); ok {
				c.pending.Remove(k)
				for _, v := range vs {
					c.pair(k.metric, p, v)
				}
				changed[k.metric] = true
			}
			if c.scores.Add(k, p) { // kept for feedback from more people
				c.evicted.WithLabelValues("score").Inc()
			}
		}
	}
	for m := range changed {
		c.update(m)
	}
	return nil
}

// pair adds a labelled run to metric's window, dropping the oldest beyond
// its size.
func (c *Calibrator) pair(metric string, p aggregate.Pair, human any) {
	p.Human = human
	w := append(c.windows[metric], p)
	c.windows[metric] = w[max(len(w)-c.cfg.Window, 0):]
}

// update recomputes metric's agreement over its window and sets its
// gauges.
func (c *Calibrator) update(metric string) {
	pairs := c.windows[metric]
	c.labels.WithLabelValues(metric).Set(float64(len(pairs)))
	if len(pairs) < c.cfg.MinLabels {
		return
	}
	a := aggregate.Agree(metric, pairs)
	set := func(stat string, v float64, ok bool) {
		if ok {
			c.agreement.WithLabelValues(metric, stat).Set(v)
		} else {
			c.agreement.DeleteLabelValues(metric, stat)
		}
	}
	set(StatKappa, a.Kappa, a.HasKappa)
	set(StatSpearman, a.Spearman, a.HasSpearman)
	set(StatMAE, a.MAE, a.HasMAE)
	floor, ok := c.cfg.Floor[metric]
	if !ok {
		return
	}
	stat := StatKappa
	if a.HasMAE { // people gave numbers
		stat = StatSpearman
	}
	if old := c.floorStat[metric]; old != "" && old != stat {
		c.floor.DeleteLabelValues(metric, old)
	}
	c.floorStat[metric] = stat
	c.floor.WithLabelValues(metric, stat).Set(floor)
}
