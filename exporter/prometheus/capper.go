package prometheus

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/evalsidecar/evalsidecar/internal/truncate"
)

// Label values that stand in for others.
const (
	// ValueOther replaces a value once the label's cap is reached.
	ValueOther = "other"
	// ValueUnknown replaces an empty value.
	ValueUnknown = "unknown"
)

// maxLabelValueBytes bounds the length of one label value; longer values are
// cut at a rune boundary.
const maxLabelValueBytes = 128

// Capper bounds the number of distinct values one label takes. The first
// Max distinct values pass through; later new values become ValueOther. Empty
// values become ValueUnknown. ValueOther and ValueUnknown never use up a
// slot. Values are made valid UTF-8 and cut to 128 bytes first. A Capper is
// safe for concurrent use.
type Capper struct {
	max        int
	onOverflow func() // called once per value mapped to ValueOther; may be nil

	mu sync.RWMutex
	// seen holds the admitted values with their ids (lookup).
	seen map[string]uint32
}

// Ids of label values (Capper.lookup): ValueUnknown and ValueOther have
// fixed ids, admitted values are numbered from firstValueID in the order
// they were admitted. Within one Capper, equal ids are equal values.
const (
	idUnknown uint32 = iota
	idOther
	firstValueID
)

// NewCapper returns a Capper that admits max distinct values and calls
// onOverflow (when not nil) every time a value is replaced by ValueOther.
func NewCapper(max int, onOverflow func()) *Capper {
	return &Capper{max: max, onOverflow: onOverflow, seen: make(map[string]uint32)}
}

// Value returns the label value to use for v.
func (c *Capper) Value(v string) string {
	s, _ := c.lookup(v)
	return s
}

// lookup returns the label value to use for v and its id.
func (c *Capper) lookup(v string) (string, uint32) {
	switch v {
	case "", ValueUnknown:
		return ValueUnknown, idUnknown
	case ValueOther:
		return v, idOther
	}
	c.mu.RLock()
	id, ok := c.seen[v]
	c.mu.RUnlock()
	if ok {
		return v, id
	}
	v = clean(v)
	c.mu.Lock()
	if id, ok := c.seen[v]; ok {
		c.mu.Unlock()
		return v, id
	}
	if len(c.seen) >= c.max {
		c.mu.Unlock()
		if c.onOverflow != nil {
			c.onOverflow()
		}
		return ValueOther, idOther
	}
	v = strings.Clone(v) // do not pin a larger string the value was cut from
	id = firstValueID + uint32(len(c.seen))
	c.seen[v] = id
	c.mu.Unlock()
	return v, id
}

// label returns the label value to use for v with its id.
func (c *Capper) label(v string) label {
	s, id := c.lookup(v)
	return label{s, id}
}

// Len returns the number of distinct values admitted so far.
func (c *Capper) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.seen)
}

// clean makes v valid UTF-8 of at most maxLabelValueBytes bytes. Only
// values not yet admitted go through it, so the hot path stays a map lookup.
func clean(v string) string {
	if !utf8.ValidString(v) {
		v = strings.ToValidUTF8(v, "\uFFFD")
	}
	return truncate.String(v, maxLabelValueBytes)
}
