package extractor

// shareMin is the length from which an attribute value, event body or
// log body equal to one its trace already holds is replaced by that one:
// agent frameworks repeat long values across the spans of a run (a chain's
// input on every nested chain, the tool definitions and instructions on
// every model call), and the buffer then keeps one copy.
const shareMin = 256

// shareEntryBytes estimates what one entry of a trace's value index costs.
const shareEntryBytes = 64

// shareSpan replaces the long values of s equal to ones t holds by those,
// indexes the others, and returns the bytes the buffer saves (net of the
// index).
func (t *Trace) shareSpan(s *span) int64 {
	saved := t.shareAttrs(s.attrs)
	for i := range s.events {
		saved += t.shareEvent(&s.events[i])
	}
	return saved
}

// shareEvent is shareSpan for an event or log record.
func (t *Trace) shareEvent(e *event) int64 {
	return t.shareAttrs(e.attrs) + t.share(&e.body)
}

func (t *Trace) shareAttrs(as attrs) int64 {
	var saved int64
	for i := range as {
		saved += t.share(&as[i].value)
	}
	return saved
}

// share replaces *v by the equal value t holds, when it is long enough,
// and returns the bytes saved; a long value seen for the first time is
// indexed.
func (t *Trace) share(v *string) int64 {
	if len(*v) < shareMin {
		return 0
	}
	if old, ok := t.values[*v]; ok {
		*v = old
		return int64(len(old))
	}
	if t.values == nil {
		t.values = make(map[string]string)
	}
	t.values[*v] = *v
	return -shareEntryBytes
}
