package redact

import (
	"errors"
	"slices"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// Redactor replaces personal data and credentials in text. It is safe for
// concurrent use.
type Redactor struct {
	detectors []detector
	counters  map[string]prometheus.Counter
}

// detector finds the spans of one or more types in s and appends them to
// dst.
type detector interface {
	find(s string, dst []match) []match
}

// match is a span of s to replace with [REDACTED:typ]. An empty typ marks
// text that is already a redaction marker and must stay as it is.
type match struct {
	start, end int
	typ        string
	// prio breaks ties between matches with the same span: lower wins.
	prio int
}

// markerPrefix starts every replacement.
const markerPrefix = "[REDACTED:"

// maxPasses bounds the passes Redact makes to reach a fixed point.
const maxPasses = 4

// New builds a Redactor from cfg. Redaction counts go to the
// evalsidecar_judge_redactions_total counter registered with
// set.Registerer (nil: not registered); a counter already registered there
// by another Redactor is shared. It returns the errors of cfg.Validate.
func New(cfg Config, set telemetry.Settings) (*Redactor, error) {
	customs, err := cfg.compile()
	if err != nil {
		return nil, err
	}
	vec := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "evalsidecar_judge_redactions_total",
		Help: "Values replaced before a judge request left the process, by detector type (counts only, never values).",
	}, []string{"type"})
	if rerr := telemetry.Register(set.Registerer, "redaction", vec); rerr != nil {
		are := prometheus.AlreadyRegisteredError{}
		if !errors.As(rerr, &are) {
			return nil, rerr
		}
		existing, ok := are.ExistingCollector.(*prometheus.CounterVec)
		if !ok {
			return nil, rerr
		}
		vec = existing
	}
	r := &Redactor{counters: map[string]prometheus.Counter{}}
	if !cfg.Enabled {
		return r, nil
	}
	on := cfg.enabled
	prio := 0
	add := func(d detector) {
		r.detectors = append(r.detectors, d)
		prio++
	}
	// Order is the tie-break priority: specific formats before the
	// generic key-value rule.
	for _, d := range tokenDetectors() {
		if on(d.typ) {
			d.prio = prio
			add(d)
		}
	}
	if on(TypeBearer) {
		add(bearerDetector(prio))
		add(authHeaderDetector(prio))
	}
	if on(TypeIBAN) {
		add(ibanDetector{prio: prio})
	}
	if on(TypeEmail) {
		add(emailDetector{prio: prio})
	}
	if on(TypeIP) {
		add(ipDetector{prio: prio})
	}
	if on(TypeCard) || on(TypePhone) {
		add(numberDetector{cards: on(TypeCard), phones: on(TypePhone), prio: prio})
	}
	if on(TypeSecret) {
		add(cloudKeyDetector{prio: prio})
	}
	if on(TypeSecret) || on(TypePhone) {
		add(secretDetector{secrets: on(TypeSecret), phones: on(TypePhone), prio: prio})
	}
	for _, c := range customs {
		c.prio = prio
		add(c)
	}
	for _, t := range Types() {
		r.counters[t] = vec.WithLabelValues(t)
	}
	for _, c := range customs {
		r.counters[c.typ] = vec.WithLabelValues(c.typ)
	}
	return r, nil
}

// Redact returns s with every detected value replaced by
// "[REDACTED:<type>]". Text without anything to redact is returned as is.
// Redact(Redact(s)) == Redact(s).
func (r *Redactor) Redact(s string) string {
	if r == nil || len(r.detectors) == 0 || s == "" {
		return s
	}
	var counts map[string]int
	for range maxPasses {
		out, changed := r.pass(s, &counts)
		if !changed {
			break
		}
		s = out
	}
	for t, n := range counts {
		if c := r.counters[t]; c != nil {
			c.Add(float64(n))
		}
	}
	return s
}

// pass runs every detector once over s.
func (r *Redactor) pass(s string, counts *map[string]int) (string, bool) {
	var ms []match
	ms = findMarkers(s, ms)
	for _, d := range r.detectors {
		ms = d.find(s, ms)
	}
	if len(ms) == 0 {
		return s, false
	}
	slices.SortFunc(ms, func(a, b match) int {
		if a.start != b.start {
			return a.start - b.start
		}
		if a.end != b.end {
			return b.end - a.end
		}
		return a.prio - b.prio
	})
	var b strings.Builder
	last, changed := 0, false
	for _, m := range ms {
		if m.start < last || m.end <= m.start {
			continue
		}
		if m.typ == "" {
			// An existing marker: kept, and it blocks overlapping matches.
			b.WriteString(s[last:m.end])
			last = m.end
			continue
		}
		if !changed {
			b.Grow(len(s))
			changed = true
		}
		b.WriteString(s[last:m.start])
		b.WriteString(markerPrefix)
		b.WriteString(m.typ)
		b.WriteByte(']')
		last = m.end
		if *counts == nil {
			*counts = map[string]int{}
		}
		(*counts)[m.typ]++
	}
	if !changed {
		return s, false
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// findMarkers appends the spans of existing "[REDACTED:<type>]" markers.
func findMarkers(s string, dst []match) []match {
	off := 0
	for {
		i := strings.Index(s[off:], markerPrefix)
		if i < 0 {
			return dst
		}
		start := off + i
		j := start + len(markerPrefix)
		for j < len(s) && j-start < 96 && isMarkerTypeByte(s[j]) {
			j++
		}
		if j < len(s) && s[j] == ']' && j > start+len(markerPrefix) {
			dst = append(dst, match{start: start, end: j + 1, prio: -1})
			off = j + 1
		} else {
			off = start + 1
		}
	}
}

func isMarkerTypeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == ':'
}
