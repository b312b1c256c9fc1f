// Package telemetry holds the sidecar's own metrics that several stages share.
package telemetry

import (
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// Drops counts data dropped by any stage, by stage and reason. Every path
// that discards accepted data must count here.
type Drops struct {
	vec *prometheus.CounterVec
}

// NewDrops registers evalsidecar_dropped_total with reg. A nil reg gives a
// working, unregistered counter (for tests and offline commands).
func NewDrops(reg prometheus.Registerer) *Drops {
	vec := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "evalsidecar_dropped_total",
		Help: "Data items dropped after they were accepted, by pipeline stage and reason.",
	}, []string{"stage", "reason"})
	if reg != nil {
		reg.MustRegister(vec)
	}
	return &Drops{vec: vec}
}

// Add counts n dropped items. A nil *Drops discards the count.
func (d *Drops) Add(stage, reason string, n int) {
	if d == nil || n <= 0 {
		return
	}
	d.vec.WithLabelValues(stage, reason).Add(float64(n))
}

// Vec exposes the underlying vector for tests.
func (d *Drops) Vec() *prometheus.CounterVec { return d.vec }

// Count is the number of items dropped by one stage for one reason.
type Count struct {
	Stage, Reason string
	N             float64
}

// Counts returns the drops counted so far, one entry per stage and reason.
func (d *Drops) Counts() []Count {
	if d == nil {
		return nil
	}
	ch := make(chan prometheus.Metric)
	go func() { d.vec.Collect(ch); close(ch) }()
	var out []Count
	for m := range ch {
		var pb dto.Metric
		if m.Write(&pb) != nil {
			continue
		}
		c := Count{N: pb.GetCounter().GetValue()}
		for _, l := range pb.GetLabel() {
			switch l.GetName() {
			case "stage":
				c.Stage = l.GetValue()
			case "reason":
				c.Reason = l.GetValue()
			}
		}
		out = append(out, c)
	}
	return out
}
