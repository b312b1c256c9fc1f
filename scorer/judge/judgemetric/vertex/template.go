package vertex

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// defaultInstruction is the "# Instruction" section of every pointwise
// template.
const defaultInstruction = `You are an expert evaluator of AI-generated text. You will be given user inputs and a response written by an AI model.
First read the user inputs carefully to understand the task, then judge the response against the Criteria in the Evaluation section.
Rate the response following the Rating Rubric and the Evaluation Steps. Explain your rating step by step, and choose the rating only from the values the Rating Rubric lists.`

// Template is a pointwise metric prompt template, laid out as Vertex's
// PointwiseMetricPromptTemplate does: "# Instruction", "# Evaluation" with
// "## Metric Definition", "## Criteria", "## Rating Rubric" and
// "## Evaluation Steps" (each map serialized as "key: value" lines sorted
// by key), then the user inputs and the response.
type Template struct {
	// MetricDefinition is a one-paragraph definition; optional.
	MetricDefinition string
	// Criteria maps a criterion name to its description.
	Criteria map[string]string
	// RatingRubric maps a score (its decimal text, e.g. "5" or "-1") to
	// the description of that rating. The keys are the allowed scores.
	// A description that starts with "(Label)" gives the rating's label.
	RatingRubric map[string]string
	// EvaluationSteps maps a step name to its text; optional.
	EvaluationSteps map[string]string
}

// scalePoint is one allowed score of a rating rubric.
type scalePoint struct {
	key   string
	value float64
	label string
}

// scale returns the rubric's allowed scores, ascending. It rejects keys
// that are not finite numbers and duplicate values.
func (t *Template) scale() ([]scalePoint, error) {
	if len(t.RatingRubric) < 2 {
		return nil, fmt.Errorf("rating rubric needs at least 2 scores, got %d", len(t.RatingRubric))
	}
	pts := make([]scalePoint, 0, len(t.RatingRubric))
	for k, desc := range t.RatingRubric {
		v, err := strconv.ParseFloat(strings.TrimSpace(k), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("rating rubric key %q is not a number", k)
		}
		if strings.TrimSpace(desc) == "" {
			return nil, fmt.Errorf("rating rubric score %q has an empty description", k)
		}
		pts = append(pts, scalePoint{key: k, value: v, label: ratingLabel(k, desc)})
	}
	slices.SortFunc(pts, func(a, b scalePoint) int { return cmp.Compare(a.value, b.value) })
	for i := 1; i < len(pts); i++ {
		if pts[i].value == pts[i-1].value {
			return nil, fmt.Errorf("rating rubric keys %q and %q are the same score", pts[i-1].key, pts[i].key)
		}
	}
	return pts, nil
}

// ratingLabel is the "(Label)" prefix of a rubric description, or the
// score text when there is none.
func ratingLabel(key, desc string) string {
	d := strings.TrimSpace(desc)
	if strings.HasPrefix(d, "(") {
		if end := strings.IndexByte(d, ')'); end > 1 {
			return strings.TrimSpace(d[1:end])
		}
	}
	return strings.TrimSpace(key)
}

// serializeInOrder renders m as "key: value" lines sorted by key, as
// PointwiseMetricPromptTemplate does.
func serializeInOrder(m map[string]string) string {
	var lines []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		lines = append(lines, k+": "+m[k])
	}
	return strings.Join(lines, "\n")
}

// system renders the trusted part of the template: instruction,
// evaluation sections and the answer format.
func (t *Template) system(pts []scalePoint) string {
	return evaluationSystem(defaultInstruction, t.MetricDefinition, t.Criteria, serializeInOrder(t.RatingRubric), serializeInOrder(t.EvaluationSteps),
		`Answer with one JSON object and nothing else: {"explanation": "<your step-by-step reasoning>", "score": <your rating>}. The score must be exactly one of: `+scaleList(pts)+".")
}

// evaluationSystem lays out a Vertex metric prompt template's trusted
// sections; the metric definition and the evaluation steps are optional.
func evaluationSystem(instruction, definition string, criteria map[string]string, rubric, steps, answerFormat string) string {
	var b strings.Builder
	b.WriteString("# Instruction\n" + instruction + "\n\n# Evaluation")
	if definition != "" {
		b.WriteString("\n## Metric Definition\n" + definition + "\n")
	}
	b.WriteString("\n## Criteria\n" + serializeInOrder(criteria) + "\n\n## Rating Rubric\n" + rubric)
	if steps != "" {
		b.WriteString("\n\n## Evaluation Steps\n" + steps)
	}
	b.WriteString("\n\n# Answer Format\n" + answerFormat)
	return b.String()
}

// scaleList renders the allowed scores, ascending.
func scaleList(pts []scalePoint) string {
	vals := make([]string, len(pts))
	for i, p := range pts {
		vals[i] = strconv.FormatFloat(p.value, 'f', -1, 64)
	}
	return strings.Join(vals, ", ")
}

// ratingSchema is the structured-output schema of a rating answer.
func ratingSchema(pts []scalePoint) *judge.Schema {
	return judgemetric.ObjectSchema("pointwise_rating",
		"explanation", judgemetric.Type("string"),
		"score", map[string]any{"type": "number", "description": "one of: " + scaleList(pts)})
}
