package offline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"

	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/aggregate"
	"github.com/evalsidecar/evalsidecar/scorer/dataset"
	"github.com/evalsidecar/evalsidecar/scorer/judge/stage"
)

// Exit codes of an evaluation.
const (
	ExitPass     = 0 // every criterion passed (or there were none)
	ExitFail     = 1 // a criterion failed, a metric failed on a row, or the output could not be written
	ExitBadInput = 2 // bad options, config, criteria or dataset
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
	Logger   *slog.Logger // warnings about unmatched cases and failed metrics
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
	}
	return nil
}

// Eval scores every row, prints the table and the summary to stdout,
// writes the output files when asked, and returns the exit code: ExitPass
// when every criterion passes, ExitFail when one fails, ExitBadInput on bad
// input (with the error).
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
	engine, names, err := newEngine(o.Config, metricCfgs, o.Logger)
	if err != nil {
		return ExitBadInput, err
	}
	rows, unmatched, err := loadRows(ctx, o, format)
	if err != nil {
		return ExitBadInput, err
	}

	evals := make([]*scorer.Evaluation, len(rows))
	for i, r := range rows {
		if err := ctx.Err(); err != nil {
			return ExitFail, err
		}
		if slices.Contains(unmatched, r.Instance.CaseID) {
			// No run: the case is not evaluated (ADK's NOT_EVALUATED),
			// which fails any criterion on it.
			evals[i] = &scorer.Evaluation{NotApplicable: names}
			continue
		}
		evals[i] = engine.Evaluate(ctx, r.Instance)
		for _, me := range evals[i].Errors {
			o.Logger.Warn("metric failed", "row", r.Index, "metric", me.Metric, "reason", me.Reason, "err", me.Err)
		}
	}
	sum := aggregate.Summarize(names, evals, criteria)

	if err := writeTable(stdout, names, rows, evals, sum); err != nil {
		return ExitFail, err
	}
	if o.Output != "" {
		if err := writeOutput(o.Output, names, rows, evals, sum); err != nil {
			return ExitFail, err
		}
		fmt.Fprintf(stdout, "output: %s\n", o.Output)
	}
	if !sum.Passed() || sum.Errors() > 0 {
		return ExitFail, nil
	}
	return ExitPass, nil
}

// newEngine builds the metrics and an engine that runs them inline:
// offline, judge metrics judge every row, under the judge section's time
// limit.
func newEngine(cfg config.Config, metricCfgs []scorer.MetricConfig, logger *slog.Logger) (*scorer.Engine, []string, error) {
	reg, err := config.NewEvalRegistry(cfg, stage.Settings{Settings: telemetry.Settings{Logger: logger}})
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
	engine, err := scorer.NewEngine(scfg, telemetry.Settings{Logger: logger}, metrics, nil, scorer.EngineOptions{})
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
// from the traces; unmatched lists the eval cases no run matched.
func loadRows(ctx context.Context, o Options, format dataset.Format) (rows []dataset.Row, unmatched []string, err error) {
	if o.Dataset != "" {
		rows, err = dataset.Load(o.Dataset, format)
		return rows, nil, err
	}
	set, err := dataset.LoadEvalSet(o.EvalSet)
	if err != nil {
		return nil, nil, err
	}
	runs, err := ReadRuns(ctx, o.Config.Extractor, o.Traces, o.Logger)
	if err != nil {
		return nil, nil, err
	}
	rows, unmatched = dataset.Join(set, runs, o.CaseAttr)
	if len(unmatched) > 0 {
		o.Logger.Warn("eval cases without a matching run", "cases", unmatched)
	}
	return rows, unmatched, nil
}
