package facts

import (
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// responseFact is one distinct fact of the response.
type responseFact struct {
	surface   string // as written in the response
	norm      string // the normal form
	kind      factKind
	supported bool
}

// factSet holds a response's distinct facts and finds them by normal form
// or alternative reading.
type factSet struct {
	facts []responseFact
	index map[string]int // normal forms and alternative readings to facts
	// left counts the facts not yet supported, leftBySubstring those of
	// them that a substring of a source can still support.
	left, leftBySubstring int
}

// responseFacts returns the distinct facts of a response, the first
// unsupportedFactsMax of them.
func responseFacts(response string) *factSet {
	fs := &factSet{index: map[string]int{}}
	sc := factScanner{emit: fs.add}
	sc.scan(response)
	return fs
}

// add records a response fact unless its normal form already names one.
func (fs *factSet) add(kind factKind, norm, alt []byte, surface string) {
	if len(fs.facts) >= unsupportedFactsMax {
		return
	}
	if _, ok := fs.index[string(norm)]; ok {
		return
	}
	i := len(fs.facts)
	fs.facts = append(fs.facts, responseFact{surface: surface, norm: string(norm), kind: kind})
	fs.index[fs.facts[i].norm] = i
	if len(alt) > 0 {
		if _, ok := fs.index[string(alt)]; !ok {
			fs.index[string(alt)] = i
		}
	}
	fs.left++
	if kind.bySubstring() {
		fs.leftBySubstring++
	}
}

// support marks the response facts a source fact matches.
func (fs *factSet) support(_ factKind, norm, alt []byte, _ string) {
	if i, ok := fs.index[string(norm)]; ok {
		fs.markSupported(i)
	}
	if len(alt) > 0 {
		if i, ok := fs.index[string(alt)]; ok {
			fs.markSupported(i)
		}
	}
}

// markSupported marks fact i supported.
func (fs *factSet) markSupported(i int) {
	f := &fs.facts[i]
	if f.supported {
		return
	}
	f.supported = true
	fs.left--
	if f.kind.bySubstring() {
		fs.leftBySubstring--
	}
}

// supportBySubstring marks the identifiers, e-mail addresses and URLs
// whose normal form occurs in a source's text, ignoring case, reading at
// most unsupportedFactsScanBytes of source text in all (each lookup of a
// fact in a source reads the whole source).
func (fs *factSet) supportBySubstring(in *scorer.Instance) {
	budget := unsupportedFactsScanBytes
	eachFactSource(in, func(s string) bool {
		lower := ""
		for i := range fs.facts {
			f := &fs.facts[i]
			if f.supported || !f.kind.bySubstring() {
				continue
			}
			if budget -= len(s); budget < 0 {
				return false
			}
			if lower == "" {
				lower = strings.ToLower(s)
			}
			if strings.Contains(lower, strings.ToLower(f.norm)) {
				fs.markSupported(i)
			}
		}
		return fs.leftBySubstring > 0
	})
}
