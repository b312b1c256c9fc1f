package vertex

import (
	"fmt"
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// CustomType is the metric type of custom pointwise metrics configured
// like Vertex's PointwiseMetricPromptTemplate (params criteria,
// rating_rubric, input_variables, optional evaluation_steps and
// metric_definition; see docs/judge.md). input_variables are Instance
// fields (see lookupVariable) or dataset column names; a run lacking one
// is not applicable.
const CustomType = "pointwise"

// maxColumnName bounds a dataset column name used as an input variable.
const maxColumnName = 128

// newCustom builds a custom pointwise metric from its params.
func newCustom(p scorer.Params, deps judgemetric.Deps) (scorer.Metric, error) {
	b, err := judgemetric.NewBase(CustomType, p, deps, "criteria", "evaluation_steps", "input_variables", "judge", "metric_definition", "rating_rubric")
	if err != nil {
		return nil, err
	}
	criteria, err := stringMap(p, "criteria")
	if err != nil {
		return nil, err
	}
	if len(criteria) == 0 {
		return nil, fmt.Errorf(`param "criteria": required: a map of criterion name to description`)
	}
	rubric, err := stringMap(p, "rating_rubric")
	if err != nil {
		return nil, err
	}
	if len(rubric) == 0 {
		return nil, fmt.Errorf(`param "rating_rubric": required: a map of score to description`)
	}
	steps, err := stringMap(p, "evaluation_steps")
	if err != nil {
		return nil, err
	}
	def, err := p.String("metric_definition", "")
	if err != nil {
		return nil, err
	}
	names, err := stringList(p, "input_variables")
	if err != nil {
		return nil, err
	}
	vars, err := customVars(names)
	if err != nil {
		return nil, err
	}
	t := &Template{MetricDefinition: strings.TrimSpace(def), Criteria: criteria, RatingRubric: rubric, EvaluationSteps: steps}
	if _, err := t.scale(); err != nil {
		return nil, fmt.Errorf(`param "rating_rubric": %v`, err)
	}
	return newPointwise(b, t, vars)
}

// customVars validates input_variables. "response" is always the rated
// text, so listing it adds nothing; a name given twice is an error.
func customVars(names []string) ([]inputVar, error) {
	seen := make(map[string]bool, len(names))
	var vars []inputVar
	for _, n := range names {
		if seen[n] {
			return nil, fmt.Errorf(`param "input_variables": %q listed twice`, n)
		}
		seen[n] = true
		if n == "response" {
			continue
		}
		if _, ok := lookupVariable(n); !ok {
			if len(n) > maxColumnName || strings.ContainsAny(n, "\r\n\t") {
				return nil, fmt.Errorf(`param "input_variables": %q is not a usable column name`, n)
			}
		}
		vars = append(vars, inputVar{name: n, heading: n})
	}
	return vars, nil
}
