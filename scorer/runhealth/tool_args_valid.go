package runhealth

import (
	"context"
	"strings"

	"github.com/evalsidecar/evalsidecar/internal/jsonobj"
	"github.com/evalsidecar/evalsidecar/internal/truncate"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// MetricToolArgsValid is the id of the tool-argument validity metric.
const MetricToolArgsValid = "tool_args_valid"

// Parameters of tool_args_valid, with their defaults.
const (
	// ParamMaxReasons is how many invalid-call reasons the details keep.
	ParamMaxReasons   = "max_reasons"
	defaultMaxReasons = 3
	// ParamSchemaCacheSize bounds the compiled-schema cache.
	ParamSchemaCacheSize   = "schema_cache_size"
	defaultSchemaCacheSize = 256
	// maxReasonBytes truncates one reason.
	maxReasonBytes = 200
)

// toolArgsValid scores the share of tool calls whose arguments are valid.
//
// Formula: (calls - invalid) / calls. A call is valid when its arguments
// parse as one JSON object and, when the instance declares a tool of that
// name with a non-empty parameter schema, validate against that JSON
// Schema (draft 2020-12 unless the schema says otherwise; external $refs
// are refused). A schema that does not compile is "unusable": the call
// falls back to the JSON-object check and is counted in the details; it
// never fails the metric. Empty arguments are not a JSON object and so are
// invalid. Edge case: zero calls is not applicable (ErrNotApplicable).
// Details: "calls", "invalid", "schema_validated", "schema_unusable" and,
// when some call is invalid, "reasons": the first max_reasons of
// "tool: message", each truncated.
type toolArgsValid struct {
	schemas    *schemaCache
	maxReasons int
}

// newToolArgsValid builds tool_args_valid from its params.
func newToolArgsValid(params map[string]any) (scorer.Metric, error) {
	p := scorer.Params(params)
	if err := p.CheckKnown(ParamMaxReasons, ParamSchemaCacheSize); err != nil {
		return nil, err
	}
	maxReasons, err := p.Int(ParamMaxReasons, defaultMaxReasons)
	if err != nil {
		return nil, err
	}
	if maxReasons < 0 || maxReasons > 100 {
		return nil, scorer.ParamRangeError(ParamMaxReasons, 0, 100, maxReasons)
	}
	size, err := p.PositiveInt(ParamSchemaCacheSize, defaultSchemaCacheSize, 1<<16)
	if err != nil {
		return nil, err
	}
	return &toolArgsValid{schemas: newSchemaCache(size), maxReasons: maxReasons}, nil
}

// Name returns "tool_args_valid".
func (*toolArgsValid) Name() string { return MetricToolArgsValid }

// Needs requires the predicted trajectory; tool declarations are optional.
func (*toolArgsValid) Needs() scorer.Inputs { return scorer.InPredictedTrajectory }

// Inline marks the metric as one that never blocks (scorer.Inline).
func (*toolArgsValid) Inline() {}

// Score returns the share of calls with valid arguments.
func (m *toolArgsValid) Score(_ context.Context, in *scorer.Instance) (scorer.Result, error) {
	calls := in.PredictedTrajectory
	if len(calls) == 0 {
		return scorer.Result{}, scorer.ErrNotApplicable
	}
	var invalid, validated, unusable int
	var reasons []string
	// bad counts an invalid call; msg is only formatted for kept reasons.
	bad := func(name string, msg func() string) {
		invalid++
		if len(reasons) < m.maxReasons {
			reasons = append(reasons, truncate.Ellipsis(name+": "+msg(), maxReasonBytes))
		}
	}
	for i := range calls {
		c := &calls[i]
		text := declaredSchema(in.ToolDeclarations, c.Name)
		if text != "" {
			sch, err := m.schemas.get(text)
			if err == nil {
				v, perr := jsonschema.UnmarshalJSON(strings.NewReader(c.Arguments))
				if _, obj := v.(map[string]any); perr != nil || !obj {
					bad(c.Name, notObject)
					continue
				}
				validated++
				if verr := sch.Validate(v); verr != nil {
					bad(c.Name, func() string { return validationMessage(verr) })
				}
				continue
			}
			unusable++
		}
		// ArgumentsValid is set only by a JSON-object check (the
		// extractor's or the dataset reader's); without it, check here.
		if !c.ArgumentsValid && !jsonobj.Valid(c.Arguments) {
			bad(c.Name, notObject)
		}
	}
	details := map[string]any{
		"calls":            len(calls),
		"invalid":          invalid,
		"schema_validated": validated,
		"schema_unusable":  unusable,
	}
	if len(reasons) > 0 {
		details["reasons"] = reasons
	}
	return scorer.Result{
		Metric:  MetricToolArgsValid,
		Score:   float64(len(calls)-invalid) / float64(len(calls)),
		Details: details,
	}, nil
}

// notObject is the reason for arguments that are not a JSON object.
func notObject() string { return "arguments are not a JSON object" }

// declaredSchema returns the first non-empty parameter schema declared for
// the tool name, or "".
func declaredSchema(defs []agentrun.ToolDefinition, name string) string {
	for i := range defs {
		if defs[i].Name == name {
			if t := strings.TrimSpace(defs[i].Parameters); t != "" {
				return t
			}
		}
	}
	return ""
}

// validationMessage flattens a validator error to one line, dropping the
// header that names the schema URL.
func validationMessage(err error) string {
	lines := strings.Split(err.Error(), "\n")
	if len(lines) > 1 {
		lines = lines[1:]
	}
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(strings.TrimSpace(l), "- ")
	}
	return strings.Join(lines, "; ")
}
