package offline

import (
	"errors"
	"fmt"
	"slices"

	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/aggregate"
	"github.com/evalsidecar/evalsidecar/scorer/text"
	"github.com/evalsidecar/evalsidecar/scorer/toolmatch"
)

// adkDefaultCriteria are ADK's default thresholds, used for an eval set
// when neither metrics nor criteria are given.
var adkDefaultCriteria = []aggregate.Criterion{
	{Metric: toolmatch.MetricToolTrajectoryAvgScore, Threshold: 1.0},
	{Metric: text.MetricResponseMatchScore, Threshold: 0.8},
}

// selectMetrics resolves the metrics to run: the given ids, then the
// criteria's metrics; with neither, ADK's default criteria for an eval
// set, or the config's scorer and judge metrics when a config was given.
// An id defined in the config takes its definition (type and params) from
// there; any other id is a built-in with default params, or the
// criterion's params.
func selectMetrics(o Options, criteria []aggregate.Criterion, critParams map[string]map[string]any) ([]scorer.MetricConfig, []aggregate.Criterion, error) {
	configured := append(slices.Clone(o.Config.Scorer.Metrics), judgeMetricConfigs(o.Config)...)
	var ids []string
	for _, id := range o.Metrics {
		if id != "" {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 && len(criteria) == 0 {
		switch {
		case o.EvalSet != "":
			criteria = adkDefaultCriteria
		case o.ConfigGiven:
			return configured, nil, nil
		default:
			return nil, nil, errors.New("no metrics: give --metrics, --criteria, or a --config with scorer.metrics")
		}
	}
	for _, c := range criteria {
		if !slices.Contains(ids, c.Metric) {
			ids = append(ids, c.Metric)
		}
	}
	defined := map[string]scorer.MetricConfig{}
	for _, m := range configured {
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
