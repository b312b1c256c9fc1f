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

// Register adds every Vertex judge metric to r: the pointwise templates,
// the custom "pointwise" type and the managed rubric metrics. Each
// factory resolves its judge (param "judge", else deps.DefaultJudge) and
// checks its parameters.
func Register(r *scorer.Registry, deps judgemetric.Deps) error {
	for _, bt := range builtinTemplates() {
		if err := r.Register(bt.id, templateFactory(deps, bt)); err != nil {
			return err
		}
		pairwise := scorer.Entry{Name: PairwisePrefix + bt.id, New: pairwiseFactory(deps, bt),
			Semantics: scorer.Ratio(scorer.HigherIsBetter, "the candidate against the baseline: 1 candidate better, 0.5 tie, 0 baseline better")}
		if err := r.RegisterAll(pairwise); err != nil {
			return err
		}
	}
	if err := r.Register(CustomType, func(params map[string]any) (scorer.Metric, error) {
		return newCustom(deps, params)
	}); err != nil {
		return err
	}
	for _, spec := range rubricSpecs() {
		sem := judgemetric.Share()
		if spec.id == "safety_v1" || spec.id == "final_response_match_v2" {
			sem = judgemetric.Binary()
		}
		if err := r.RegisterAll(scorer.Entry{Name: spec.id, New: rubricFactory(deps, spec), Semantics: sem}); err != nil {
			return err
		}
	}
	claims := []claimMetric{
		{id: "grounding_v1", needs: scorer.InPrompt | scorer.InResponse | scorer.InContext, evidence: groundingEvidence, system: groundingSystem},
		{id: "hallucination_v1", needs: scorer.InResponse | scorer.InPredictedTrajectory, segment: true, evidence: hallucinationEvidence, system: hallucinationSystem},
	}
	for _, cm := range claims {
		if err := r.RegisterAll(scorer.Entry{Name: cm.id, New: claimFactory(deps, cm), Semantics: judgemetric.Share()}); err != nil {
			return err
		}
	}
	return nil
}

func templateFactory(deps judgemetric.Deps, bt builtinTemplate) scorer.Factory {
	return func(params map[string]any) (scorer.Metric, error) {
		p := scorer.Params(params)
		if err := p.CheckKnown("judge"); err != nil {
			return nil, err
		}
		j, newSan, err := deps.Resolve(bt.id, p)
		if err != nil {
			return nil, err
		}
		tmpl := bt.tmpl
		return newPointwise(bt.id, &tmpl, bt.vars, j, newSan)
	}
}

func rubricFactory(deps judgemetric.Deps, spec rubricSpec) scorer.Factory {
	adaptive := spec.genInputs != nil
	configured := spec.fixed == nil // rubrics come from params or generation
	return func(params map[string]any) (scorer.Metric, error) {
		p := scorer.Params(params)
		allowed := []string{"judge", "num_samples", judgemetric.ParamTemperature}
		if configured {
			allowed = append(allowed, "rubrics")
		}
		if adaptive {
			allowed = append(allowed, "rubric_cache_size")
		}
		if err := p.CheckKnown(allowed...); err != nil {
			return nil, err
		}
		samples, err := p.PositiveInt("num_samples", 1, maxSamples)
		if err != nil {
			return nil, err
		}
		m := &rubricMetric{spec: spec, samples: samples}
		if m.temperature, err = judgemetric.SamplingTemperature(p, samples); err != nil {
			return nil, err
		}
		if configured {
			if m.rubrics, err = stringList(p, "rubrics"); err != nil {
				return nil, err
			}
			if !adaptive && len(m.rubrics) == 0 {
				return nil, fmt.Errorf(`param "rubrics": required: a list of rubric texts`)
			}
			if len(m.rubrics) > maxRubrics {
				return nil, fmt.Errorf(`param "rubrics": at most %d rubrics, got %d`, maxRubrics, len(m.rubrics))
			}
			if p["rubrics"] != nil && len(m.rubrics) == 0 {
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
		if m.judge, m.newSan, err = deps.Resolve(spec.id, p); err != nil {
			return nil, err
		}
		return m, nil
	}
}

func claimFactory(deps judgemetric.Deps, cm claimMetric) scorer.Factory {
	return func(params map[string]any) (scorer.Metric, error) {
		p := scorer.Params(params)
		known := []string{"judge"}
		if cm.segment {
			known = append(known, ParamIntermediate)
		}
		if err := p.CheckKnown(known...); err != nil {
			return nil, err
		}
		m := cm
		var err error
		if m.intermediate, err = p.Bool(ParamIntermediate, false); err != nil {
			return nil, err
		}
		if m.judge, m.newSan, err = deps.Resolve(cm.id, p); err != nil {
			return nil, err
		}
		return &m, nil
	}
}
