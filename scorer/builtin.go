package scorer

// builtin names one deterministic metric shipped with the scorer.
type builtin struct {
	name    string
	factory Factory
}

// builtins lists the deterministic metrics in their default order.
func builtins() []builtin {
	return []builtin{
		{MetricLatency, noParams(latency{})},
		{MetricFailure, noParams(failure{})},
		{MetricToolCallCount, noParams(toolCallCount{})},
		{MetricToolErrorRate, noParams(toolErrorRate{})},
		{MetricRepeatedToolCallRate, noParams(repeatedToolCallRate{})},
		{MetricToolArgsValid, newToolArgsValid},
		{MetricUnsupportedFacts, noParams(unsupportedFacts{})},
	}
}

// catalog lists every metric the registry knows: the default deterministic
// metrics first, then the metrics that are registered but run only when
// configured (reference-based and parameterised metrics).
func catalog() []builtin {
	all := builtins()
	all = append(all, textMetrics()...)
	all = append(all, trajectoryMetrics()...)
	return all
}

// BuiltinMetricNames returns the ids of the built-in deterministic metrics
// in their default order.
func BuiltinMetricNames() []string {
	bs := builtins()
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = b.name
	}
	return names
}

// noParams is the factory body of a metric that takes no parameters.
func noParams(m Metric) Factory {
	return func(params map[string]any) (Metric, error) {
		if err := Params(params).CheckKnown(); err != nil {
			return nil, err
		}
		return m, nil
	}
}
