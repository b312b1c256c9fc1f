package vertex

import (
	"fmt"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// Parameter limits.
const (
	maxSamples       = 10
	defaultCacheSize = 256
	maxCacheSize     = 100000
)

// Register adds every Vertex judge metric to r: the pointwise templates
// and their pairwise forms, the custom "pointwise" type, the managed
// rubric metrics and the claim-based ones. Each factory resolves its
// judge (param "judge", else deps.DefaultJudge) and checks its
// parameters.
func Register(r *scorer.Registry, deps judgemetric.Deps) error {
	var entries []judgemetric.Entry
	for _, bt := range builtinTemplates() {
		entries = append(entries, judgemetric.Entry{ID: bt.id, New: bt.newPointwise}, judgemetric.Entry{ID: PairwisePrefix + bt.id, New: bt.newPairwise,
			Semantics: scorer.Ratio(scorer.HigherIsBetter, "the candidate against the baseline: 1 candidate better, 0.5 tie, 0 baseline better")})
	}
	entries = append(entries, judgemetric.Entry{ID: CustomType, New: newCustom})
	for _, spec := range rubricSpecs() {
		sem := judgemetric.Share()
		if spec.fixed != nil {
			sem = judgemetric.Binary()
		}
		entries = append(entries, judgemetric.Entry{ID: spec.id, New: spec.newMetric, Semantics: sem})
	}
	for _, cm := range claimMetrics() {
		entries = append(entries, judgemetric.Entry{ID: cm.ID, New: cm.newMetric, Semantics: judgemetric.Share()})
	}
	return judgemetric.RegisterAll(r, deps, entries...)
}

func (bt builtinTemplate) newPointwise(p scorer.Params, deps judgemetric.Deps) (scorer.Metric, error) {
	b, err := judgemetric.NewBase(bt.id, p, deps)
	if err != nil {
		return nil, err
	}
	return newPointwise(b, &bt.tmpl, bt.vars)
}

func (bt builtinTemplate) newPairwise(p scorer.Params, deps judgemetric.Deps) (scorer.Metric, error) {
	return newPairwise(bt, p, deps)
}

func (spec rubricSpec) newMetric(p scorer.Params, deps judgemetric.Deps) (scorer.Metric, error) {
	adaptive := spec.genInputs != nil
	configured := spec.fixed == nil // rubrics come from params or generation
	known := []string{"num_samples", judgemetric.ParamTemperature}
	if configured {
		known = append(known, "rubrics")
	}
	if adaptive {
		known = append(known, "rubric_cache_size")
	}
	b, err := judgemetric.NewBase(spec.id, p, deps, known...)
	if err != nil {
		return nil, err
	}
	m := &rubricMetric{Base: b, spec: spec}
	if m.samples, err = p.PositiveInt("num_samples", 1, maxSamples); err != nil {
		return nil, err
	}
	if m.temperature, err = judgemetric.SamplingTemperature(p, m.samples); err != nil {
		return nil, err
	}
	if configured {
		if m.rubrics, err = stringList(p, "rubrics"); err != nil {
			return nil, err
		}
		switch {
		case !adaptive && len(m.rubrics) == 0:
			return nil, fmt.Errorf(`param "rubrics": required: a list of rubric texts`)
		case len(m.rubrics) > maxRubrics:
			return nil, fmt.Errorf(`param "rubrics": at most %d rubrics, got %d`, maxRubrics, len(m.rubrics))
		case p["rubrics"] != nil && len(m.rubrics) == 0:
			return nil, fmt.Errorf(`param "rubrics": empty list`)
		}
	}
	if adaptive {
		size, err := p.Int("rubric_cache_size", defaultCacheSize)
		if err != nil {
			return nil, err
		}
		if size < 0 || size > maxCacheSize {
			return nil, fmt.Errorf(`param "rubric_cache_size": must be between 0 and %d, got %d`, maxCacheSize, size)
		}
		if size > 0 {
			// size is positive, so New cannot fail.
			m.cache, _ = lru.New[string, []string](size)
		}
	}
	return m, nil
}

func (cm claimMetric) newMetric(p scorer.Params, deps judgemetric.Deps) (scorer.Metric, error) {
	var known []string
	if cm.segment {
		known = append(known, ParamIntermediate)
	}
	var err error
	if cm.Base, err = judgemetric.NewBase(cm.ID, p, deps, known...); err != nil {
		return nil, err
	}
	if cm.intermediate, err = p.Bool(ParamIntermediate, false); err != nil {
		return nil, err
	}
	return &cm, nil
}
