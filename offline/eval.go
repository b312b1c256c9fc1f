package offline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"slices"
	"sync"

	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/aggregate"
	"github.com/evalsidecar/evalsidecar/scorer/dataset"
	"github.com/evalsidecar/evalsidecar/scorer/judge/stage"
)

// Exit codes of an evaluation.
const (
	ExitPass        = 0   // every criterion passed (or there were none)
	ExitFail        = 1   // a criterion failed, a metric failed on a row, a row could not be read, or the output could not be written
	ExitBadInput    = 2   // bad options, config, criteria or dataset
	ExitInterrupted = 130 // interrupted: the finished rows and a partial summary were written
)

// Options say what to evaluate and how.
type Options struct {
	// Config defines metrics with parameters (scorer.metrics and
	// judge.metrics) and the judge; ConfigGiven reports that it came from
	// a file rather than the defaults.
	Config      config.Config
	ConfigGiven bool

	Dataset  string       // dataset file: Vertex-style rows or Ragas samples
	Format   string       // dataset format: auto, jsonl, json, csv
	EvalSet  string       // ADK eval set file, the expected side of Traces
	Traces   []string     // OTLP files or directories with the eval set's runs
	Criteria string       // test_config.json-style criteria file
	Metrics  []string     // metric ids, built-in or defined in Config
	Output   string       // directory for metrics_table.jsonl and summary.json
	CaseAttr string       // trajectory attribute naming a run's eval case
	Logger   *slog.Logger // warnings about unmatched cases, bad rows and failed metrics

	// Rows prints every row's scores to stdout, not only the summary.
	Rows bool
	// Resume keeps the rows already in Output's metrics_table.jsonl
	// (those that did not fail) and evaluates only the others.
	Resume bool
	// FailFast stops at the first row that cannot be read.
	FailFast bool
	// Concurrency is the number of rows evaluated at once; 0 picks twice
	// the judges' max_concurrency summed (the number of CPUs without
	// judge metrics). Each judge still holds to its own max_concurrency.
	Concurrency int
	// Progress, when set, receives progress reports: a bar redrawn in
	// place when ProgressBar is set (a terminal), plain lines otherwise.
	Progress    io.Writer
	ProgressBar bool
}

func (o Options) validate() error {
	switch {
	case o.Dataset == "" && o.EvalSet == "":
		return errors.New("give --dataset FILE, or --evalset FILE with --traces")
	case o.Dataset != "" && o.EvalSet != "":
		return errors.New("--dataset and --evalset are exclusive")
	case o.EvalSet != "" && len(o.Traces) == 0:
		return errors.New("--evalset needs --traces with the runs to score")
	case o.Dataset != "" && len(o.Traces) > 0:
		return errors.New("--traces goes with --evalset")
	case o.Resume && o.Output == "":
		return errors.New("--resume needs --output with the earlier run's results")
	}
	return nil
}

// Eval scores every row, prints the summary (and the rows with
// Options.Rows) to stdout, writes the output files when asked, and
// returns the exit code: ExitPass when every criterion passes and every
// row was read and scored, ExitFail otherwise, ExitBadInput on bad input
// (with the error), ExitInterrupted when ctx ended first (the rows
// finished by then and a summary marked partial are written).
func Eval(ctx context.Context, o Options, stdout io.Writer) (int, error) {
	if err := o.validate(); err != nil {
		return ExitBadInput, err
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	format, err := dataset.ParseFormat(o.Format)
	if err != nil {
		return ExitBadInput, err
	}
	criteria, critParams, err := LoadCriteria(o.Criteria)
	if err != nil {
		return ExitBadInput, err
	}
	metricCfgs, criteria, err := selectMetrics(o, criteria, critParams)
	if err != nil {
		return ExitBadInput, err
	}
	engine, names, err := newEngine(o.Config, metricCfgs, telemetry.Settings{Logger: o.Logger})
	if err != nil {
		return ExitBadInput, err
	}
	rows, unmatched, bad, err := loadRows(ctx, o, format)
	if err != nil {
		return ExitBadInput, err
	}
	logBad(o.Logger, bad)
	if o.FailFast && len(bad) > 0 {
		return ExitBadInput, fmt.Errorf("%s: %w (--fail-fast)", o.Dataset, bad[0])
	}
	var done map[int]resumed
	if o.Resume {
		if done, err = readDone(o.Output, names); err != nil {
			return ExitBadInput, err
		}
	}

	evals, todo := triage(rows, done, unmatched, names)
	var prog *progress
	if o.Progress != nil {
		prog = newProgress(o.Progress, o.ProgressBar, len(todo))
	}
	interrupted := evaluate(ctx, engine, rows, todo, evals, concurrency(o, engine), prog, o.Logger)
	prog.finish()

	outRows, outEvals, sum := summarize(names, rows, evals, criteria, bad)
	sum.Partial = interrupted

	reportMissing(stdout, engine, outRows, outEvals)
	if o.EvalSet != "" {
		if err := writeCases(stdout, names, outRows, outEvals, criteria); err != nil {
			return ExitFail, err
		}
	}
	if err := writeTable(stdout, names, outRows, outEvals, sum, o.Rows); err != nil {
		return ExitFail, err
	}
	if o.Output != "" {
		if err := writeOutput(o.Output, names, outRows, outEvals, done, sum); err != nil {
			return ExitFail, err
		}
		fmt.Fprintf(stdout, "output: %s\n", o.Output)
	}
	switch {
	case interrupted:
		return ExitInterrupted, nil
	case !sum.Passed() || sum.Errors() > 0 || len(bad) > 0:
		return ExitFail, nil
	}
	return ExitPass, nil
}

// triage gives the rows resumed and the eval cases without a run their
// evaluations, and returns the indexes of the rows left to evaluate.
func triage(rows []dataset.Row, done map[int]resumed, unmatched, names []string) ([]*scorer.Evaluation, []int) {
	evals := make([]*scorer.Evaluation, len(rows))
	var todo []int
	for i, r := range rows {
		switch d, ok := done[r.Index]; {
		case ok:
			evals[i] = d.ev
		case slices.Contains(unmatched, r.Instance.CaseID):
			// No run: the case is not evaluated (ADK's NOT_EVALUATED),
			// which fails any criterion on it.
			evals[i] = &scorer.Evaluation{NotApplicable: names}
		default:
			todo = append(todo, i)
		}
	}
	return evals, todo
}

// logBad warns of every row or run not evaluated.
func logBad(logger *slog.Logger, bad []*dataset.Error) {
	for _, b := range bad {
		if b.Row < 0 {
			logger.Warn("run not evaluated", "err", b.Err)
		} else {
			logger.Warn("row not evaluated", "row", b.Row, "line", b.Line, "err", b)
		}
	}
}

// summarize aggregates the rows evaluated (and resumed): an interrupted
// run leaves the others out. It returns those rows and their
// evaluations, and the summary with the criteria's failed rows named by
// row number and the bad rows listed.
func summarize(names []string, rows []dataset.Row, evals []*scorer.Evaluation, criteria []aggregate.Criterion, bad []*dataset.Error) ([]dataset.Row, []*scorer.Evaluation, *aggregate.Summary) {
	var outRows []dataset.Row
	var outEvals []*scorer.Evaluation
	for i := range rows {
		if evals[i] != nil {
			outRows = append(outRows, rows[i])
			outEvals = append(outEvals, evals[i])
		}
	}
	sum := aggregate.Summarize(names, outEvals, criteria)
	sum.Agreement = agreement(names, outRows, outEvals)
	for i := range sum.Criteria {
		for k, pos := range sum.Criteria[i].FailedRows {
			sum.Criteria[i].FailedRows[k] = outRows[pos].Index
		}
	}
	for _, b := range bad {
		if b.Row < 0 {
			sum.BadRows = append(sum.BadRows, b.Err.Error())
			continue
		}
		sum.BadRows = append(sum.BadRows, b.Error())
	}
	return outRows, outEvals, sum
}

// concurrency is the number of rows evaluated at once.
func concurrency(o Options, e *scorer.Engine) int {
	if o.Concurrency > 0 {
		return o.Concurrency
	}
	judged := func(m scorer.Metric) bool {
		_, ok := m.(scorer.Judged)
		return ok
	}
	if !slices.ContainsFunc(e.Metrics(), judged) {
		return runtime.GOMAXPROCS(0)
	}
	// Twice the calls the judges take at once: while max_concurrency
	// calls wait on their judges, as many rows are being prepared and
	// parsed, so the judges are never left idle. Each judge's own limit
	// holds the calls in flight.
	n := 0
	for _, j := range o.Config.Judge.Judges {
		n += max(j.MaxConcurrency, 1)
	}
	return 2 * max(n, 1)
}

// evaluate scores rows[todo] with workers goroutines into evals. It
// returns true when ctx ended first: rows not finished by then stay nil.
func evaluate(ctx context.Context, engine *scorer.Engine, rows []dataset.Row, todo []int, evals []*scorer.Evaluation, workers int, prog *progress, logger *slog.Logger) bool {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, max(len(todo), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				ev := engine.Evaluate(ctx, rows[i].Instance)
				if ctx.Err() != nil {
					continue // interrupted while scoring: not finished
				}
				evals[i] = ev
				calls, cost := 0, 0.0
				for _, r := range ev.Results {
					if r.Judge != nil {
						calls += r.Judge.Calls
						cost += r.Judge.CostUSD
					}
				}
				for _, me := range ev.Errors {
					logger.Warn("metric failed", "row", rows[i].Index, "case", rows[i].Instance.CaseID, "metric", me.Metric, "reason", me.Reason, "err", me.Err)
				}
				prog.add(calls, cost)
			}
		}()
	}
	interrupted := false
feed:
	for _, i := range todo {
		select {
		case jobs <- i:
		case <-ctx.Done():
			interrupted = true
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return interrupted || ctx.Err() != nil
}

// newEngine builds the metrics and an engine that runs them inline:
// offline, judge metrics judge every row, under the judge section's time
// limit.
func newEngine(cfg config.Config, metricCfgs []scorer.MetricConfig, set telemetry.Settings) (*scorer.Engine, []string, error) {
	reg, err := config.NewEvalRegistry(cfg, stage.Settings{Settings: set})
	if err != nil {
		return nil, nil, err
	}
	metrics, err := reg.Build(metricCfgs)
	if err != nil {
		return nil, nil, err
	}
	scfg := cfg.Scorer
	for _, m := range metrics {
		if _, ok := m.(scorer.Judged); ok && cfg.Judge.MetricTimeout > scfg.MetricTimeout {
			scfg.MetricTimeout = cfg.Judge.MetricTimeout
		}
	}
	engine, err := scorer.NewEngine(scfg, set, metrics, nil, scorer.EngineOptions{})
	if err != nil {
		return nil, nil, err
	}
	names := make([]string, len(metrics))
	for i, m := range metrics {
		names[i] = m.Name()
	}
	return engine, names, nil
}

// loadRows reads the dataset, or joins the eval set with the runs rebuilt
// from the traces; unmatched lists the eval cases no run matched, bad the
// dataset rows that could not be read.
func loadRows(ctx context.Context, o Options, format dataset.Format) (rows []dataset.Row, unmatched []string, bad []*dataset.Error, err error) {
	if o.Dataset != "" {
		rows, bad, err = dataset.LoadRows(o.Dataset, format)
		return rows, nil, bad, err
	}
	set, err := dataset.LoadEvalSet(o.EvalSet)
	if err != nil {
		return nil, nil, nil, err
	}
	runs, err := ReadRuns(ctx, o.Config.Extractor, o.Traces, telemetry.Settings{Logger: o.Logger})
	if err != nil {
		return nil, nil, nil, err
	}
	rows, unmatched, stray := dataset.Join(set, runs, o.CaseAttr)
	if len(unmatched) > 0 {
		o.Logger.Warn("eval cases without a matching run", "cases", unmatched)
	}
	for _, id := range stray {
		// reported, not dropped: a run of no case of the set
		bad = append(bad, &dataset.Error{Row: -1, Err: fmt.Errorf("run %s matches no eval case", id)})
	}
	return rows, unmatched, bad, nil
}

// reportMissing says, per metric not applicable on some rows, which
// inputs those rows lack (a dataset without a reference column, say), so
// that a missing input is never a silent n/a.
func reportMissing(w io.Writer, engine *scorer.Engine, rows []dataset.Row, evals []*scorer.Evaluation) {
	for _, m := range engine.Metrics() {
		var missing scorer.Inputs
		n := 0
		for i, ev := range evals {
			if slices.Contains(ev.NotApplicable, m.Name()) {
				n++
				missing |= rows[i].Instance.Missing(m.Needs())
			}
		}
		if n == 0 {
			continue
		}
		why := "the metric found nothing to score"
		if missing != 0 {
			why = "rows lack " + missing.String()
		}
		fmt.Fprintf(w, "n/a: %s on %d of %d rows (%s)\n", m.Name(), n, len(evals), why)
	}
}

// agreement compares each metric with the rows' "human:<metric>" column
// (a number, a label or a boolean), over the rows that have both.
func agreement(names []string, rows []dataset.Row, evals []*scorer.Evaluation) []aggregate.Agreement {
	var out []aggregate.Agreement
	for _, n := range names {
		var pairs []aggregate.Pair
		found := false
		for i, r := range rows {
			h, ok := r.Instance.Columns[aggregate.HumanPrefix+n]
			if !ok || h == nil {
				continue
			}
			found = true
			if res, ok := evals[i].Result(n); ok {
				pairs = append(pairs, aggregate.Pair{Score: res.Score, Label: res.Label, Human: h})
			}
		}
		if found {
			out = append(out, aggregate.Agree(n, pairs))
		}
	}
	return out
}
