package stage

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/internal/queue"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/sampling"
)

// Metric is one judge metric of the stage with its sampling policy and
// its own budget.
type Metric struct {
	Metric scorer.Judged
	Policy *sampling.Policy
	// Budget, when set, limits the metric's judge calls on top of the
	// judge's own budget.
	Budget *judge.Budget
}

// Options tune a Stage. Zero values take the defaults of DefaultConfig.
type Options struct {
	// QueueSize bounds the runs waiting for each judge, and being judged.
	QueueSize int
	// Inline judges a run in Offer's caller instead of queueing it
	// (sending_queue.enabled: false).
	Inline bool
	// ShedOldest makes a full queue evict its oldest run for the new one
	// instead of skipping the new one.
	ShedOldest bool
	// Blocking makes Offer wait for queue space (offline replay, where
	// backpressure is wanted) instead of skipping; it gives up when the
	// caller's context ends.
	Blocking bool
	// Workers is the number of workers per judge name; a judge not listed
	// gets DefaultWorkers.
	Workers map[string]int
	// MetricTimeout bounds one judge metric on one run, retries included.
	MetricTimeout time.Duration
	// Cache holds judge results by content; nil caches nothing.
	Cache *sampling.Cache[scorer.Result]
}

// DefaultWorkers is the number of workers of a judge without a setting.
const DefaultWorkers = 4

// Stage is the judge stage: a scorer.Deferred.
type Stage struct {
	metrics []Metric
	sink    scorer.Sink
	opts    Options
	log     *slog.Logger
	tel     *stageMetrics
	queues  map[string]*judgeQueue // by judge name
	digests *sync.Pool             // contentDigest buffers
	closed  atomic.Bool            // Shutdown has begun
	// dialogues: a metric judges whole dialogues (JudgesDialogues)
	dialogues bool
}

var _ scorer.Deferred = (*Stage)(nil)

// judgeQueue is the bounded queue of one judge.
type judgeQueue struct {
	judge  string
	q      *queue.Bounded[*job]
	length prometheus.Gauge
}

// job is one run waiting for one judge: the metrics to run on it.
type job struct {
	in    *scorer.Instance
	items []item
}

// item is one metric of a job.
type item struct {
	metric int // index in Stage.metrics
	key    sampling.Key
	rule   string
	cache  bool // the result may be cached (not a scorer.Precondition metric)
}

// New returns a stage running metrics and exporting their results to
// sink. Each metric's judge gets its own queue and workers. The stage logs
// to set's logger and registers its metrics with set's registerer.
func New(metrics []Metric, sink scorer.Sink, opts Options, set telemetry.Settings) (*Stage, error) {
	if sink == nil {
		return nil, errors.New("judge stage: nil sink")
	}
	def := DefaultConfig()
	if opts.QueueSize <= 0 {
		opts.QueueSize = def.SendingQueue.QueueSize
	}
	if opts.MetricTimeout <= 0 {
		opts.MetricTimeout = def.MetricTimeout
	}
	s := &Stage{
		metrics: append([]Metric(nil), metrics...),
		sink:    sink,
		opts:    opts,
		log:     set.Log(),
		queues:  make(map[string]*judgeQueue),
		digests: newDigestBufs(),
	}
	ids := make([]string, 0, len(metrics))
	for i, m := range metrics {
		if m.Metric == nil || m.Policy == nil {
			return nil, fmt.Errorf("judge stage: metrics[%d]: metric and policy are required", i)
		}
		name := m.Metric.Name()
		if slices.Contains(ids, name) {
			return nil, fmt.Errorf("judge stage: metric %q given twice", name)
		}
		ids = append(ids, name)
		s.dialogues = s.dialogues || scorer.JudgesDialogue(m.Metric)
		jn := m.Metric.JudgeName()
		if _, ok := s.queues[jn]; !ok {
			w := opts.Workers[jn]
			if w <= 0 {
				w = DefaultWorkers
			}
			jq := &judgeQueue{judge: jn}
			jq.q = queue.New(queue.Settings[*job]{
				Config:     queue.Config{Enabled: !opts.Inline, NumConsumers: w, QueueSize: opts.QueueSize},
				Consume:    func(ctx context.Context, j *job) { s.work(ctx, jq, j) },
				Drop:       func(j *job, reason string) { s.dropped(jq, j, reason) },
				ShedOldest: opts.ShedOldest,
			})
			s.queues[jn] = jq
		}
	}
	tel, err := newStageMetrics(set.Registerer, ids, s.judgeNames())
	if err != nil {
		return nil, err
	}
	s.tel = tel
	for _, q := range s.queues {
		q.length = tel.queueLen.WithLabelValues(q.judge)
	}
	return s, nil
}

// judgeNames returns the judges with a queue, sorted.
func (s *Stage) judgeNames() []string {
	return slices.Sorted(maps.Keys(s.queues))
}

// QueueLen returns the runs waiting for judge name.
func (s *Stage) QueueLen(name string) int {
	if q, ok := s.queues[name]; ok {
		return q.q.Len()
	}
	return 0
}

// Offer decides, for every judge metric, what to do with an evaluated
// run, adds the ledger decisions (and any cached result) to ev, and queues
// the run for its judges. Online it never blocks: a full queue is a
// queue_full decision. A Blocking stage waits for queue space.
func (s *Stage) Offer(ctx context.Context, in *scorer.Instance, ev *scorer.Evaluation) {
	s.offer(ctx, in, ev, false)
}

// OfferConversation is Offer for a closed session's instance: only the
// judge metrics that read the conversation (multi-turn metrics, and the
// metrics that judge a whole dialogue) are offered, so a session is not
// judged again by the per-run metrics.
func (s *Stage) OfferConversation(ctx context.Context, in *scorer.Instance, ev *scorer.Evaluation) {
	s.offer(ctx, in, ev, true)
}

// JudgesDialogues reports whether a metric of the stage judges a closed
// session's whole dialogue (scorer.JudgesDialogue), so that sessions keep
// each turn's tool calls and model replies for it.
func (s *Stage) JudgesDialogues() bool { return s.dialogues }

// offer offers the metrics, or with conversation only those a closed
// session is judged by.
func (s *Stage) offer(ctx context.Context, in *scorer.Instance, ev *scorer.Evaluation, conversation bool) {
	run := runOf(in, ev)
	closed := s.closed.Load()
	var (
		jobs   map[string]*job
		order  []string
		digest []byte // content digest of in, computed at most once
	)
	for i := range s.metrics {
		m := &s.metrics[i]
		name, jn := m.Metric.Name(), m.Metric.JudgeName()
		if conversation && m.Metric.Needs()&scorer.InConversation == 0 && !scorer.JudgesDialogue(m.Metric) {
			continue
		}
		if closed {
			s.decide(ev, scorer.Decision{Metric: name, Judge: jn, Outcome: scorer.OutcomeShuttingDown})
			continue
		}
		if in.Missing(m.Metric.Needs()) != 0 {
			s.decide(ev, scorer.Decision{Metric: name, Judge: jn, Outcome: scorer.OutcomeNotApplicable, Reason: "inputs missing"})
			continue
		}
		pre, compares := m.Metric.(scorer.Precondition)
		if compares {
			if err := pre.Applicable(in); err != nil {
				_, reason := classify(err)
				s.decide(ev, scorer.Decision{Metric: name, Judge: jn, Outcome: scorer.OutcomeNotApplicable, Reason: reason})
				continue
			}
		}
		d := m.Policy.Decide(run)
		if !d.Judge() {
			reason := ""
			if d.Capped {
				reason = sampling.ReasonRuleCapped + ": " + d.Rule
			}
			s.decide(ev, scorer.Decision{Metric: name, Judge: jn, Outcome: string(d.Outcome), Reason: reason})
			continue
		}
		if q := s.queues[jn]; !s.opts.ShedOldest && !s.opts.Blocking && q.q.Full() {
			// The judge is behind (or down): skip before hashing the
			// content, so an outage costs ingestion next to nothing.
			s.decide(ev, scorer.Decision{Metric: name, Judge: jn, Outcome: scorer.OutcomeQueueFull, Reason: d.Rule})
			continue
		}
		if digest == nil {
			digest = contentDigest(s.digests, in)
		}
		key := sampling.NewKey(name, jn, string(digest))
		if s.opts.Cache != nil && !compares {
			if r, ok := s.opts.Cache.Get(key); ok {
				ev.Results = append(ev.Results, reused(r))
				s.decide(ev, scorer.Decision{Metric: name, Judge: jn, Outcome: scorer.OutcomeCached, Reason: d.Rule})
				continue
			}
		}
		if !m.Budget.Admit(run.TraceID) {
			// Paced: the metric's budget spreads its runs over each window.
			s.decide(ev, scorer.Decision{Metric: name, Judge: jn, Outcome: scorer.OutcomeOverBudget, Reason: m.Budget.Name() + ":paced"})
			continue
		}
		j := jobs[jn]
		if j == nil {
			if jobs == nil {
				jobs = make(map[string]*job, len(s.queues))
			}
			j = &job{in: in}
			jobs[jn] = j
			order = append(order, jn)
		}
		j.items = append(j.items, item{metric: i, key: key, rule: d.Rule, cache: !compares})
	}
	for _, jn := range order {
		j, q := jobs[jn], s.queues[jn]
		outcome := scorer.OutcomeQueued
		if err := s.enqueue(ctx, q, j); errors.Is(err, queue.ErrClosed) {
			outcome = scorer.OutcomeShuttingDown
		} else if err != nil {
			outcome = scorer.OutcomeQueueFull
		}
		for _, it := range j.items {
			s.decide(ev, scorer.Decision{Metric: s.metrics[it.metric].Metric.Name(), Judge: jn, Outcome: outcome, Reason: it.rule})
		}
	}
}

// enqueue puts j on q: a full queue refuses j, or with ShedOldest evicts
// its oldest job (see dropped); with Blocking it waits for space until ctx
// ends.
func (s *Stage) enqueue(ctx context.Context, q *judgeQueue, j *job) error {
	defer func() { q.length.Set(float64(q.q.Len())) }()
	if s.opts.Blocking {
		return q.q.OfferWait(ctx, j)
	}
	return q.q.Offer(j)
}

// dropped records the metrics of a job the queue gave up. A job refused
// by Offer is recorded by its caller on the run's own evaluation; a job
// evicted for a newer one (queue_full, shed_oldest) or left queued at
// Shutdown's deadline (shutting_down) gets a follow-up evaluation.
func (s *Stage) dropped(q *judgeQueue, j *job, reason string) {
	if reason != queue.ReasonShedOldest && reason != queue.ReasonShutdownTimeout {
		return
	}
	ev := followUp(j)
	for _, it := range j.items {
		d := scorer.Decision{Metric: s.metrics[it.metric].Metric.Name(), Judge: q.judge, Outcome: scorer.OutcomeShuttingDown, Reason: it.rule}
		if reason == queue.ReasonShedOldest {
			d.Outcome, d.Reason = scorer.OutcomeQueueFull, "shed_oldest"
		}
		s.decide(ev, d)
	}
	s.export(context.Background(), ev, q.judge, "runs not judged")
}

// followUp is the evaluation that carries j's later decisions and results.
func followUp(j *job) *scorer.Evaluation {
	return &scorer.Evaluation{Trajectory: j.in.Trajectory, Session: j.in.Session, FollowUp: true}
}

// decide records d on ev and counts it.
func (s *Stage) decide(ev *scorer.Evaluation, d scorer.Decision) {
	ev.Decisions = append(ev.Decisions, d)
	s.tel.count(d)
}

// runOf is what the sampling policies see of a run: its identity and
// attributes, and the deterministic scores just computed.
func runOf(in *scorer.Instance, ev *scorer.Evaluation) sampling.Run {
	score := func(metric string) (float64, bool) {
		r, ok := ev.Result(metric)
		return r.Score, ok
	}
	if ss := in.Session; ss != nil { // a conversation is sampled by its id
		return sampling.Run{TraceID: ss.ID, Service: ss.Service, ServiceVersion: ss.ServiceVersion,
			Environment: ss.Environment, Agent: ss.Agent, Score: score}
	}
	if in.Trajectory == nil {
		return sampling.Run{TraceID: in.CaseID, Failed: in.Failure, Score: score}
	}
	return sampling.RunOf(in.Trajectory, score)
}

// Start starts the workers of every judge. Only ctx's values are used;
// Shutdown stops them. Calling Start again does nothing.
func (s *Stage) Start(ctx context.Context) {
	for _, q := range s.queues {
		q.q.Start(ctx)
	}
}

// Shutdown stops taking runs and lets the workers judge what is queued
// until ctx ends; what is left then is recorded as shutting_down, and
// Shutdown returns once the calls in progress have ended.
func (s *Stage) Shutdown(ctx context.Context) error {
	s.closed.Store(true)
	var errs []error
	for _, jn := range s.judgeNames() {
		q := s.queues[jn]
		q.q.Start(context.WithoutCancel(ctx))
		if err := q.q.Shutdown(ctx); err != nil {
			errs = append(errs, err)
			_ = q.q.Shutdown(context.Background()) // the calls in progress are cancelled: wait for them
		}
		q.length.Set(0)
	}
	if len(errs) > 0 {
		return fmt.Errorf("judge stage shutdown: %w", ctx.Err())
	}
	return nil
}

// work judges one run of one queue.
func (s *Stage) work(ctx context.Context, q *judgeQueue, j *job) {
	q.length.Set(float64(q.q.Len()))
	ev := followUp(j)
	for _, it := range j.items {
		if ctx.Err() != nil { // Shutdown's deadline passed
			m := s.metrics[it.metric].Metric
			s.decide(ev, scorer.Decision{Metric: m.Name(), Judge: q.judge, Outcome: scorer.OutcomeShuttingDown, Reason: it.rule})
			continue
		}
		s.judge(ctx, j.in, it, ev)
	}
	s.export(ctx, ev, q.judge, "judge results")
}

// runError carries RunMetric's reason through the cache.
type runError struct {
	reason string
	err    error
}

func (e *runError) Error() string { return e.err.Error() }
func (e *runError) Unwrap() error { return e.err }

// judge runs one metric on one run and records its result and decision.
func (s *Stage) judge(ctx context.Context, in *scorer.Instance, it item, ev *scorer.Evaluation) {
	m := &s.metrics[it.metric]
	name, jn := m.Metric.Name(), m.Metric.JudgeName()
	if m.Budget != nil {
		ctx = judge.WithBudget(ctx, m.Budget)
	}
	compute := func(c context.Context) (scorer.Result, error) {
		r, reason, err := scorer.RunMetric(c, m.Metric, in, s.opts.MetricTimeout, s.log)
		if err != nil {
			return r, &runError{reason: reason, err: err}
		}
		r.Metric = cmp.Or(r.Metric, name)
		return r, nil
	}
	var (
		r      scorer.Result
		cached bool
		err    error
	)
	if s.opts.Cache != nil && it.cache {
		r, cached, err = s.opts.Cache.Do(ctx, it.key, compute)
	} else {
		r, err = compute(ctx)
	}
	if err == nil {
		outcome := scorer.OutcomeScored
		if cached {
			outcome, r = scorer.OutcomeCached, reused(r)
		}
		if r.Judge != nil && r.Judge.Judge != "" {
			jn = r.Judge.Judge
		}
		ev.Results = append(ev.Results, r)
		s.decide(ev, scorer.Decision{Metric: name, Judge: jn, Outcome: outcome, Reason: it.rule})
		return
	}
	outcome, reason := classify(err)
	if ctx.Err() != nil {
		// Shutdown's deadline cancelled the call: the run was not judged
		// because the sidecar stopped, whatever the error says.
		outcome, reason = scorer.OutcomeShuttingDown, ""
	}
	s.decide(ev, scorer.Decision{Metric: name, Judge: jn, Outcome: outcome, Reason: reason})
	s.log.Debug("judge metric not scored", "metric", name, "judge", jn, "outcome", outcome, "reason", reason)
}

// classify turns a judge metric's error into a ledger outcome and reason.
func classify(err error) (outcome, reason string) {
	var re *runError
	if errors.As(err, &re) {
		switch re.reason {
		case scorer.ReasonTimeout:
			return scorer.OutcomeJudgeError, string(judge.ClassTimeout)
		case scorer.ReasonPanic, scorer.ReasonInvalidScore:
			return scorer.OutcomeJudgeError, re.reason
		}
	}
	if judge.ClassOf(err) == judge.ClassPromptTooLong {
		return scorer.OutcomeNotApplicable, string(judge.ClassPromptTooLong)
	}
	var na *scorer.NotApplicableError
	if errors.As(err, &na) {
		return scorer.OutcomeNotApplicable, na.Reason
	}
	if errors.Is(err, scorer.ErrNotApplicable) {
		return scorer.OutcomeNotApplicable, "undefined for the run"
	}
	var be *judge.BudgetExceeded
	if errors.As(err, &be) {
		return scorer.OutcomeOverBudget, be.Budget + ":" + be.Limit
	}
	switch c := judge.ClassOf(err); c {
	case judge.ClassBudget:
		return scorer.OutcomeOverBudget, "budget"
	case judge.ClassCanceled:
		return scorer.OutcomeShuttingDown, string(c)
	default:
		return scorer.OutcomeJudgeError, string(c)
	}
}

// export hands ev, of what (judge results, runs not judged) for judge jn,
// to the sink, and logs an error it reports or a panic.
func (s *Stage) export(ctx context.Context, ev *scorer.Evaluation, jn, what string) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Debug("an exporter reported an error for "+what, "judge", jn, "err", fmt.Errorf("sink panicked: %v", p))
		}
	}()
	if err := s.sink.Export(ctx, ev); err != nil {
		s.log.Debug("an exporter reported an error for "+what, "judge", jn, "err", err)
	}
}

// reused is a cached result as this run reports it: no judge call was
// made for the run, so its usage is zero and marked Cached; the judge and
// model that gave the score stay named. Every run that shares a cached
// result reports it so, and the sum of the usage the sinks record is what
// the provider billed.
func reused(r scorer.Result) scorer.Result {
	if u := r.Judge; u != nil {
		r.Judge = &scorer.JudgeUsage{Judge: u.Judge, Provider: u.Provider, Model: u.Model, Cached: true}
	}
	return r
}

// Metrics returns the judge metrics, in configuration order. A nil Stage
// has none.
func (s *Stage) Metrics() []scorer.Metric {
	if s == nil {
		return nil
	}
	out := make([]scorer.Metric, len(s.metrics))
	for i := range s.metrics {
		out[i] = s.metrics[i].Metric
	}
	return out
}
