package loadgen

import (
	"testing"
	"time"
)

func TestReportLatency(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // 100 ms down to 1 ms
	}
	for _, c := range []struct {
		name string
		lat  []time.Duration
		q    float64
		want time.Duration
	}{
		{"none", nil, 0.99, 0},
		{"one", ms(7), 0.5, 7 * time.Millisecond},
		{"median of odd count", ms(5, 1, 3), 0.5, 3 * time.Millisecond},
		{"p99 of 100 by nearest rank", ms(hundred...), 0.99, 99 * time.Millisecond},
		{"max", ms(hundred...), 1, 100 * time.Millisecond},
		{"tiny quantile is the minimum", ms(4, 2, 9), 0.0001, 2 * time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &Report{Latencies: c.lat}
			if got := r.Latency(c.q); got != c.want {
				t.Errorf("Latency(%v) = %v, want %v", c.q, got, c.want)
			}
		})
	}
}
