// Package celmetric builds custom computation metrics from CEL
// expressions (github.com/google/cel-go) over an Instance, so a metric
// like Vertex AI's essential_tools_present example is one line of config:
//
//	metrics:
//	  - name: essential_tools_present
//	    type: cel
//	    params:
//	      expression: >
//	        double(["tool1", "tool2"].filter(t,
//	          t in predicted_trajectory.map(c, c.tool_name)).size()) / 2.0
//
// The expression sees the Instance's fields under their dataset column
// names (see Variables). It must evaluate to a bool (1 or 0) or a number
// (the score). A metric needs exactly the fields its expression mentions:
// an expression over reference is not applicable to a row without one.
// Compile errors name the metric (through Registry.Build) and the line and
// column of the mistake, at start-up.
package celmetric

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// Type is the metric type to name in config: {name: ..., type: cel,
// params: {expression: ...}}.
const Type = "cel"

// costLimit bounds the work of one evaluation, so that a costly
// expression over a large instance fails instead of stalling a worker.
const costLimit = 10_000_000

// Register adds the "cel" metric type to r.
func Register(r *scorer.Registry) error {
	return r.Register(Type, Factory)
}

// Factory builds a CEL metric from its params: "expression" (required).
func Factory(params map[string]any) (scorer.Metric, error) {
	p := scorer.Params(params)
	if err := p.CheckKnown("expression"); err != nil {
		return nil, err
	}
	expr, ok := params["expression"].(string)
	if !ok || strings.TrimSpace(expr) == "" {
		return nil, errors.New(`param "expression": must be a non-empty string`)
	}
	return New(Type, expr)
}

// Metric is a compiled CEL metric.
type Metric struct {
	name  string
	needs scorer.Inputs
	prg   cel.Program
	vars  map[string]variable
	// verdict is set for a bool expression: its score is a 1/0 verdict.
	verdict bool
}

// New compiles expression into a metric named name. The error gives the
// position of a syntax or type error as line:column.
func New(name, expression string) (*Metric, error) {
	env, err := newEnv()
	if err != nil {
		return nil, err
	}
	ast, iss := env.Compile(expression)
	if iss != nil && iss.Err() != nil {
		return nil, fmt.Errorf("param \"expression\": %s", describe(iss))
	}
	switch ast.OutputType() {
	case cel.BoolType, cel.IntType, cel.UintType, cel.DoubleType, cel.DynType:
	default:
		return nil, fmt.Errorf("param \"expression\": evaluates to %s; a metric must give a bool or a number", ast.OutputType())
	}
	prg, err := env.Program(ast,
		cel.CostLimit(costLimit),
		cel.InterruptCheckFrequency(100),
		cel.EvalOptions(cel.OptOptimize),
	)
	if err != nil {
		return nil, fmt.Errorf("param \"expression\": %w", err)
	}
	vars := variables()
	m := &Metric{name: name, prg: prg, vars: vars, verdict: ast.OutputType() == cel.BoolType}
	for _, r := range ast.NativeRep().ReferenceMap() {
		if v, ok := vars[r.Name]; ok {
			m.needs |= v.needs
		}
	}
	return m, nil
}

// describe formats compile issues as "line L, column C: message", one per
// error.
func describe(iss *cel.Issues) string {
	var parts []string
	for _, e := range iss.Errors() {
		loc := e.Location
		parts = append(parts, fmt.Sprintf("line %d, column %d: %s", loc.Line(), loc.Column()+1, e.Message))
	}
	if len(parts) == 0 {
		return iss.String()
	}
	return strings.Join(parts, "; ")
}

// Name returns the metric id.
func (m *Metric) Name() string { return m.name }

// Needs returns the Instance fields the expression mentions.
func (m *Metric) Needs() scorer.Inputs { return m.needs }

// Semantics declares a bool expression a 1/0 verdict that passes at 1;
// a number means nothing until configured (direction, unit, pass keys).
func (m *Metric) Semantics() scorer.Semantics {
	if m.verdict {
		return scorer.Ratio(scorer.HigherIsBetter, "1 when the expression holds, else 0").WithPass(">=", 1)
	}
	return scorer.Semantics{}
}

// Score evaluates the expression on in.
func (m *Metric) Score(ctx context.Context, in *scorer.Instance) (scorer.Result, error) {
	out, _, err := m.prg.ContextEval(ctx, lazy{in: in, vars: m.vars})
	if err != nil {
		return scorer.Result{}, fmt.Errorf("cel: %w", err)
	}
	score, err := toScore(out)
	if err != nil {
		return scorer.Result{}, err
	}
	return scorer.Result{Metric: m.name, Score: score}, nil
}

// toScore turns a CEL value into a score.
func toScore(v ref.Val) (float64, error) {
	switch x := v.(type) {
	case types.Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case types.Int:
		return float64(x), nil
	case types.Uint:
		return float64(x), nil
	case types.Double:
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("cel: expression gave %v", f)
		}
		return f, nil
	}
	return 0, fmt.Errorf("cel: expression gave a %s, not a bool or a number", v.Type())
}

// VariableNames lists the names an expression can use, sorted.
func VariableNames() []string {
	return slices.Sorted(maps.Keys(variables()))
}
