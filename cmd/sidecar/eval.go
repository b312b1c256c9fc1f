package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/extractor"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/receiver/otlpfile"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/aggregate"
	"github.com/evalsidecar/evalsidecar/scorer/dataset"
	"github.com/evalsidecar/evalsidecar/scorer/judge/stage"
)

// Exit codes of sidecar eval.
const (
	evalExitPass     = 0 // every criterion passed (or there were none)
	evalExitFail     = 1 // a criterion failed, or the output could not be written
	evalExitBadInput = 2 // bad flags, config, criteria or dataset
)

// adkDefaultCriteria are ADK's default thresholds, used with --evalset
// when neither --metrics nor --criteria chooses metrics.
var adkDefaultCriteria = []aggregate.Criterion{
	{Metric: scorer.MetricToolTrajectoryAvgScore, Threshold: 1.0},
	{Metric: scorer.MetricResponseMatchScore, Threshold: 0.8},
}

// stringList is a repeatable flag.
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }

func (s *stringList) Set(v string) error {
	*s = append(*s, v)
	return nil
}

// evalOptions are the flags of sidecar eval.
type evalOptions struct {
	configPath string
	dataset    string
	format     string
	evalset    string
	traces     stringList
	criteria   string
	metrics    string
	output     string
	caseIDAttr string
}

// evalCmd scores a dataset offline with the same engine as serve and
// returns the exit code: 0 when every criterion passes, 1 when one fails,
// 2 on bad input.
func evalCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o evalOptions
	fs.StringVar(&o.configPath, "config", os.Getenv("EVALSIDECAR_CONFIG"), "YAML config `file` defining metrics with parameters (scorer.metrics)")
	fs.StringVar(&o.dataset, "dataset", "", "dataset `file`: Vertex-style rows or Ragas samples as JSON lines, a JSON array or CSV")
	fs.StringVar(&o.format, "format", "auto", "dataset format: auto, jsonl, json, csv")
	fs.StringVar(&o.evalset, "evalset", "", "ADK eval set `file` (*.evalset.json, *.test.json) as the expected side; needs --traces")
	fs.Var(&o.traces, "traces", "OTLP `file or directory` (.pb, .json, .jsonl) with the runs of the eval set; repeatable")
	fs.StringVar(&o.criteria, "criteria", "", "test_config.json-style `file`: {\"criteria\": {\"metric\": threshold | {\"threshold\": t, params...}}}")
	fs.StringVar(&o.metrics, "metrics", "", "comma-separated metric `ids`, built-in or defined in the config")
	fs.StringVar(&o.output, "output", "", "`directory` for metrics_table.jsonl and summary.json")
	fs.StringVar(&o.caseIDAttr, "case-id-attribute", dataset.DefaultCaseIDAttribute, "trajectory attribute naming a run's eval case")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sidecar eval --dataset FILE [--config FILE] [--metrics id,...] [--criteria FILE] [--output DIR]")
		fmt.Fprintln(stderr, "       sidecar eval --evalset FILE --traces PATH... [--criteria FILE] [--metrics id,...] [--output DIR]")
		fmt.Fprintln(stderr, "Exit status: 0 all criteria pass, 1 a criterion fails, 2 bad input.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return evalExitPass
		}
		return evalExitBadInput
	}
	o.traces = append(o.traces, fs.Args()...)
	code, err := runEval(ctx, o, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "sidecar eval: %v\n", err)
	}
	return code
}

// runEval does the work of evalCmd.
func runEval(ctx context.Context, o evalOptions, stdout, stderr io.Writer) (int, error) {
	switch {
	case o.dataset == "" && o.evalset == "":
		return evalExitBadInput, errors.New("give --dataset FILE, or --evalset FILE with --traces")
	case o.dataset != "" && o.evalset != "":
		return evalExitBadInput, errors.New("--dataset and --evalset are exclusive")
	case o.evalset != "" && len(o.traces) == 0:
		return evalExitBadInput, errors.New("--evalset needs --traces with the runs to score")
	case o.dataset != "" && len(o.traces) > 0:
		return evalExitBadInput, errors.New("--traces goes with --evalset")
	}
	format, err := dataset.ParseFormat(o.format)
	if err != nil {
		return evalExitBadInput, err
	}
	cfg := config.Default()
	if o.configPath != "" {
		if cfg, err = config.Load(o.configPath); err != nil {
			return evalExitBadInput, err
		}
	}
	logger := newLogger(config.Log{Level: cfg.Log.Level, Format: "text"}, stderr)

	criteria, critParams, err := loadCriteria(o.criteria)
	if err != nil {
		return evalExitBadInput, err
	}
	metricCfgs, criteria, err := selectMetrics(o, cfg, criteria, critParams)
	if err != nil {
		return evalExitBadInput, err
	}
	reg, err := config.NewEvalRegistry(cfg, stage.Settings{Logger: logger})
	if err != nil {
		return evalExitBadInput, err
	}
	metrics, err := reg.Build(metricCfgs)
	if err != nil {
		return evalExitBadInput, err
	}
	scfg := cfg.Scorer
	for _, m := range metrics {
		// Offline, judge metrics run inline: every row is judged, under
		// the judge section's time limit.
		if _, ok := m.(scorer.Judged); ok && cfg.Judge.MetricTimeout > scfg.MetricTimeout {
			scfg.MetricTimeout = cfg.Judge.MetricTimeout
		}
	}
	engine, err := scorer.NewEngine(scfg, metrics, nil, logger, nil, nil)
	if err != nil {
		return evalExitBadInput, err
	}

	var (
		rows      []dataset.Row
		unmatched []string
	)
	if o.dataset != "" {
		if rows, err = dataset.Load(o.dataset, format); err != nil {
			return evalExitBadInput, err
		}
	} else {
		set, err := dataset.LoadEvalSet(o.evalset)
		if err != nil {
			return evalExitBadInput, err
		}
		runs, err := replayRuns(ctx, cfg.Extractor, o.traces, logger)
		if err != nil {
			return evalExitBadInput, err
		}
		rows, unmatched = dataset.Join(set, runs, o.caseIDAttr)
		if len(unmatched) > 0 {
			logger.Warn("eval cases without a matching run", "cases", unmatched)
		}
	}

	names := make([]string, len(metrics))
	for i, m := range metrics {
		names[i] = m.Name()
	}
	evals := make([]*scorer.Evaluation, len(rows))
	for i, r := range rows {
		if err := ctx.Err(); err != nil {
			return evalExitFail, err
		}
		if contains(unmatched, r.Instance.CaseID) {
			// No run: the case is not evaluated (ADK's NOT_EVALUATED),
			// which fails any criterion on it.
			evals[i] = &scorer.Evaluation{NotApplicable: names}
			continue
		}
		evals[i] = engine.Evaluate(ctx, r.Instance)
		for _, me := range evals[i].Errors {
			logger.Warn("metric failed", "row", r.Index, "metric", me.Metric, "reason", me.Reason, "err", me.Err)
		}
	}
	sum := aggregate.Summarize(names, evals, criteria)

	if err := writeEvalTable(stdout, names, rows, evals, sum); err != nil {
		return evalExitFail, err
	}
	if o.output != "" {
		if err := writeEvalOutput(o.output, names, rows, evals, sum); err != nil {
			return evalExitFail, err
		}
		fmt.Fprintf(stdout, "output: %s\n", o.output)
	}
	if !sum.Passed() {
		return evalExitFail, nil
	}
	return evalExitPass, nil
}

// loadCriteria reads a test_config.json-style file. A criterion is a
// threshold, or an object with "threshold" and metric params (for example
// ADK's {"threshold": 1.0, "match_type": "IN_ORDER"}).
func loadCriteria(path string) ([]aggregate.Criterion, map[string]map[string]any, error) {
	if path == "" {
		return nil, nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("criteria: %w", err)
	}
	var file struct {
		Criteria map[string]json.RawMessage `json:"criteria"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		return nil, nil, fmt.Errorf("criteria %s: %w", path, err)
	}
	if len(file.Criteria) == 0 {
		return nil, nil, fmt.Errorf("criteria %s: no \"criteria\" object", path)
	}
	keys := make([]string, 0, len(file.Criteria))
	for k := range file.Criteria {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []aggregate.Criterion
	params := map[string]map[string]any{}
	for _, k := range keys {
		raw := bytes.TrimSpace(file.Criteria[k])
		var th float64
		if len(raw) > 0 && raw[0] == '{' {
			var obj map[string]any
			if err := json.Unmarshal(raw, &obj); err != nil {
				return nil, nil, fmt.Errorf("criteria %s: %q: %w", path, k, err)
			}
			t, ok := obj["threshold"].(float64)
			if !ok {
				return nil, nil, fmt.Errorf("criteria %s: %q: missing numeric \"threshold\"", path, k)
			}
			th = t
			delete(obj, "threshold")
			if len(obj) > 0 {
				params[k] = obj
			}
		} else if err := json.Unmarshal(raw, &th); err != nil {
			return nil, nil, fmt.Errorf("criteria %s: %q: must be a number or an object with \"threshold\"", path, k)
		}
		if math.IsNaN(th) || th < 0 {
			return nil, nil, fmt.Errorf("criteria %s: %q: threshold must be >= 0", path, k)
		}
		out = append(out, aggregate.Criterion{Metric: k, Threshold: th})
	}
	return out, params, nil
}

// selectMetrics resolves the metrics to run: the --metrics ids, then the
// criteria's metrics; with neither, ADK's default criteria for an eval
// set, or the config's scorer.metrics when a config was given. An id
// defined in the config's scorer.metrics takes its definition (type and
// params) from there; any other id is a built-in with default params, or
// the criterion's params.
func selectMetrics(o evalOptions, cfg config.Config, criteria []aggregate.Criterion, critParams map[string]map[string]any) ([]scorer.MetricConfig, []aggregate.Criterion, error) {
	var ids []string
	for _, id := range strings.Split(o.metrics, ",") {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 && len(criteria) == 0 {
		switch {
		case o.evalset != "":
			criteria = adkDefaultCriteria
		case o.configPath != "":
			return append(slices.Clone(cfg.Scorer.Metrics), judgeMetricConfigs(cfg)...), nil, nil
		default:
			return nil, nil, errors.New("no metrics: give --metrics, --criteria, or a --config with scorer.metrics")
		}
	}
	for _, c := range criteria {
		if !contains(ids, c.Metric) {
			ids = append(ids, c.Metric)
		}
	}
	defined := map[string]scorer.MetricConfig{}
	for _, m := range append(slices.Clone(cfg.Scorer.Metrics), judgeMetricConfigs(cfg)...) {
		defined[m.Name] = m
	}
	out := make([]scorer.MetricConfig, 0, len(ids))
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			return nil, nil, fmt.Errorf("--metrics: %q given twice", id)
		}
		seen[id] = true
		mc, ok := defined[id]
		if !ok {
			mc = scorer.MetricConfig{Name: id}
		}
		if p := critParams[id]; len(p) > 0 {
			if ok {
				return nil, nil, fmt.Errorf("criteria: %q has params, but the config defines that metric already", id)
			}
			mc.Params = p
		}
		out = append(out, mc)
	}
	return out, criteria, nil
}

// judgeMetricConfigs returns the metric part of the config's judge
// metrics (their sampling and budgets apply online only).
func judgeMetricConfigs(cfg config.Config) []scorer.MetricConfig {
	out := make([]scorer.MetricConfig, len(cfg.Judge.Metrics))
	for i, m := range cfg.Judge.Metrics {
		out[i] = m.MetricConfig
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// replayRuns reads OTLP files through the assembler and returns every
// run it rebuilt.
func replayRuns(ctx context.Context, cfg extractor.Config, paths []string, logger *slog.Logger) ([]*agentrun.Trajectory, error) {
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
	asm, err := extractor.NewAssembler(cfg, sink, logger.With("component", "extractor"), nil, nil)
	if err != nil {
		return nil, err
	}
	err = otlpfile.Read(ctx, paths, func(it otlpfile.Item) error {
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
	})
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

// scoreCell formats one metric's outcome for the table.
func scoreCell(ev *scorer.Evaluation, name string) string {
	for _, r := range ev.Results {
		if r.Metric == name {
			return strconv.FormatFloat(r.Score, 'f', 4, 64)
		}
	}
	if contains(ev.NotApplicable, name) {
		return "n/a"
	}
	return "error"
}

// writeEvalTable prints one line per row and the summary.
func writeEvalTable(w io.Writer, names []string, rows []dataset.Row, evals []*scorer.Evaluation, sum *aggregate.Summary) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "row\tcase\t")
	for _, n := range names {
		fmt.Fprintf(tw, "%s\t", n)
	}
	fmt.Fprintln(tw)
	for i, r := range rows {
		cs := r.Instance.CaseID
		if cs == "" {
			cs = "-"
		}
		fmt.Fprintf(tw, "%d\t%s\t", r.Index, cs)
		for _, n := range names {
			fmt.Fprintf(tw, "%s\t", scoreCell(evals[i], n))
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprint(tw, "mean\t\t")
	for _, m := range sum.Metrics {
		if m.HasMean {
			fmt.Fprintf(tw, "%.4f\t", m.Mean)
		} else {
			fmt.Fprint(tw, "-\t")
		}
	}
	fmt.Fprintln(tw)
	fmt.Fprint(tw, "std\t\t")
	for _, m := range sum.Metrics {
		if m.HasStd {
			fmt.Fprintf(tw, "%.4f\t", m.Std)
		} else {
			fmt.Fprint(tw, "-\t")
		}
	}
	fmt.Fprintln(tw)
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "row_count: %d\n", sum.RowCount)
	for _, c := range sum.Criteria {
		status := "PASS"
		if !c.Passed {
			status = fmt.Sprintf("FAIL (rows %v)", c.FailedRows)
		}
		mean := "-"
		for _, m := range sum.Metrics {
			if m.Metric == c.Metric && m.HasMean {
				mean = strconv.FormatFloat(m.Mean, 'f', 4, 64)
			}
		}
		if _, err := fmt.Fprintf(w, "criterion %s >= %g: %s (mean %s)\n", c.Metric, c.Threshold, status, mean); err != nil {
			return err
		}
	}
	return nil
}

// writeEvalOutput writes metrics_table.jsonl and summary.json to dir.
func writeEvalOutput(dir string, names []string, rows []dataset.Row, evals []*scorer.Evaluation, sum *aggregate.Summary) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b bytes.Buffer
	for i, r := range rows {
		line, err := tableLine(r, names, evals[i])
		if err != nil {
			return fmt.Errorf("row %d: %w", r.Index, err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "metrics_table.jsonl"), b.Bytes(), 0o644); err != nil {
		return err
	}
	sb, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "summary.json"), append(sb, '\n'), 0o644)
}

// tableLine renders one row of metrics_table.jsonl: "row", the input
// columns in input order, then per metric "<metric>/score" (null when
// not scored), "<metric>/details", "<metric>/label" and
// "<metric>/explanation" when set, and "<metric>/status"
// ("not_applicable" or "error") with "<metric>/error" when not scored.
func tableLine(r dataset.Row, names []string, ev *scorer.Evaluation) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"row":`)
	b.WriteString(strconv.Itoa(r.Index))
	put := func(k string, v any) error {
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		b.WriteByte(',')
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
		return nil
	}
	for _, c := range r.Columns {
		if c.Name == "row" {
			continue
		}
		if err := put(c.Name, c.Value); err != nil {
			return nil, err
		}
	}
	for _, n := range names {
		var (
			res   *scorer.Result
			mErr  *scorer.MetricError
			isNA  = contains(ev.NotApplicable, n)
			score any
		)
		for i := range ev.Results {
			if ev.Results[i].Metric == n {
				res = &ev.Results[i]
			}
		}
		for i := range ev.Errors {
			if ev.Errors[i].Metric == n {
				mErr = &ev.Errors[i]
			}
		}
		if res != nil {
			score = res.Score
		}
		if err := put(n+"/score", score); err != nil {
			return nil, err
		}
		switch {
		case res != nil:
			if len(res.Details) > 0 {
				if err := put(n+"/details", res.Details); err != nil {
					return nil, err
				}
			}
			if res.Label != "" {
				if err := put(n+"/label", res.Label); err != nil {
					return nil, err
				}
			}
			if res.Explanation != "" {
				if err := put(n+"/explanation", res.Explanation); err != nil {
					return nil, err
				}
			}
		case isNA:
			if err := put(n+"/status", "not_applicable"); err != nil {
				return nil, err
			}
		case mErr != nil:
			if err := put(n+"/status", mErr.Reason); err != nil {
				return nil, err
			}
			if err := put(n+"/error", mErr.Err.Error()); err != nil {
				return nil, err
			}
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// evalRegistryNames lists the metric types sidecar eval can build.
func evalRegistryNames() []string {
	return config.NewMetricRegistry().Names()
}
