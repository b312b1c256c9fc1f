package judgemetrictest

import (
	"slices"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/guard"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// RegisterFunc registers a judge metric package's metrics (the Register
// of vertex, adk and ragas).
type RegisterFunc func(*scorer.Registry, judgemetric.Deps) error

// Deps returns judge metric dependencies with j as the only and default
// judge, named JudgeName, and sanitizers from s.
func Deps(j judge.Judge, s *Sanitizers) judgemetric.Deps {
	return judgemetric.Deps{
		Judges:       map[string]judge.Judge{JudgeName: j},
		DefaultJudge: JudgeName,
		Sanitizers:   s.ForMetric,
	}
}

// Build registers a package on a fresh registry and builds the one
// configured metric.
func Build(register RegisterFunc, deps judgemetric.Deps, cfg scorer.MetricConfig) (scorer.Metric, error) {
	r := scorer.NewRegistry()
	if err := register(r, deps); err != nil {
		return nil, err
	}
	ms, err := r.Build([]scorer.MetricConfig{cfg})
	if err != nil {
		return nil, err
	}
	return ms[0], nil
}

// Env is a judge metric package wired to a scripted Judge and recording
// Sanitizers.
type Env struct {
	// Judge is the only judge, named JudgeName and the default.
	Judge *Judge
	// Sanitizers makes the sanitizer of every judge call.
	Sanitizers *Sanitizers
	// Deps are what the package's factories are built with.
	Deps     judgemetric.Deps
	register RegisterFunc
}

// NewEnv returns an Env for the package of register whose judge answers
// answers in order and whose sanitizers mark with env.
func NewEnv(register RegisterFunc, env Envelope, answers ...string) *Env {
	return newEnv(register, NewSanitizers(env), answers)
}

// NewGuardEnv returns an Env for the package of register whose judge
// answers answers in order and whose sanitizers are the project's real
// ones (NewGuardSanitizers).
func NewGuardEnv(register RegisterFunc, answers ...string) *Env {
	return newEnv(register, NewGuardSanitizers(), answers)
}

func newEnv(register RegisterFunc, s *Sanitizers, answers []string) *Env {
	e := &Env{Judge: NewJudge(), Sanitizers: s, register: register}
	e.Judge.QueueText(answers...)
	e.Deps = Deps(e.Judge, s)
	return e
}

// Build builds the metric configured as cfg; it fails the test when
// that is an error.
func (e *Env) Build(t testing.TB, cfg scorer.MetricConfig) scorer.Metric {
	t.Helper()
	m, err := Build(e.register, e.Deps, cfg)
	if err != nil {
		t.Fatalf("build %s: %v", cfg.Name, err)
	}
	return m
}

// Score builds metric name with params and scores in.
func (e *Env) Score(t testing.TB, name string, params map[string]any, in *scorer.Instance) (scorer.Result, error) {
	t.Helper()
	return e.Build(t, scorer.MetricConfig{Name: name, Params: params}).Score(t.Context(), in)
}

// Requests returns the requests the judge received.
func (e *Env) Requests() []*judge.Request { return e.Judge.Requests() }

// AssertSanitized checks the judge's requests with AssertSanitized and
// the sanitizers' envelope.
func (e *Env) AssertSanitized(t testing.TB, rawTokens []string) {
	t.Helper()
	AssertSanitized(t, e.Sanitizers.Envelope(), e.Requests(), rawTokens)
}

// Golden compares the judge's requests with GoldenFile(name); with
// update it rewrites the file.
func (e *Env) Golden(t testing.TB, name string, update bool) {
	t.Helper()
	Golden(t, GoldenFile(name), e.Requests(), update)
}

// GuardGolden scores in with metric name through NewGuardEnv, the judge
// answering answers in order, and compares the requests with
// GoldenFile(file) (update rewrites it): golden prompts show what the
// project's real sanitizer sends. Clean content must pass the guard
// unchanged, so the test fails when the guard neutralised a reserved
// marker.
func GuardGolden(t testing.TB, register RegisterFunc, file, name string, params map[string]any, in *scorer.Instance, update bool, answers ...string) {
	t.Helper()
	e := NewGuardEnv(register, answers...)
	if _, err := e.Score(t, name, params, in); err != nil {
		t.Fatal(err)
	}
	AssertNoReservedMarker(t, e.Sanitizers)
	e.Golden(t, file, update)
}

// AssertNoReservedMarker fails the test when a sanitizer of s raised
// guard.FlagReservedMarker.
func AssertNoReservedMarker(t testing.TB, s *Sanitizers) {
	t.Helper()
	if slices.Contains(s.Flags(), guard.FlagReservedMarker) {
		t.Errorf("the guard rewrote clean content (flags %v)", s.Flags())
	}
}
