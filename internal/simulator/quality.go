package simulator

// Quality selects how well the simulated release behaves.
type Quality int

const (
	// Good is a healthy release: tool failures, repeated calls, invalid
	// arguments and failed runs are rare.
	Good Quality = iota
	// Degraded is a regressed release: tools fail often, calls are repeated,
	// arguments are invalid, and some runs end with an error or no answer.
	Degraded
)

// profile holds the behaviour probabilities of one Quality.
type profile struct {
	toolFail        float64 // a tool call fails
	retryAfterFail  float64 // the agent retries a failed call with the same arguments
	invalidArgs     float64 // a first attempt carries invalid arguments
	fixAfterInvalid float64 // the agent corrects invalid arguments and calls again
	repeat          float64 // a successful call is repeated redundantly
	runError        float64 // the run ends with an error (final model call fails)
	noOutput        float64 // the run ends without a final answer
	latency         float64 // multiplier on simulated durations
}

func (q Quality) profile() profile {
	if q == Degraded {
		return profile{
			toolFail:        0.25,
			retryAfterFail:  0.4,
			invalidArgs:     0.15,
			fixAfterInvalid: 0.5,
			repeat:          0.2,
			runError:        0.07,
			noOutput:        0.10,
			latency:         1.7,
		}
	}
	return profile{
		toolFail:        0.03,
		retryAfterFail:  0.6,
		invalidArgs:     0.02,
		fixAfterInvalid: 0.9,
		repeat:          0.02,
		runError:        0.01,
		noOutput:        0.01,
		latency:         1,
	}
}
