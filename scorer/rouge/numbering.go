package rouge

import (
	"github.com/evalsidecar/evalsidecar/internal/intern"

	"github.com/evalsidecar/evalsidecar/internal/swar"
)

// numbering gives the tokens of a text their numbers. It numbers new
// words in v, or, when v is nil, only looks words up in table (which may
// be shared by concurrent readers): a word table does not hold gets the
// next number from base up and is kept in unknown, base+k for unknown[k],
// so that its text stays available for stemming.
type numbering struct {
	v       *intern.Strings
	table   *wordTable
	base    int32
	unknown []string
}

// number numbers the tokens spans of text that wordTable.lookupSpans
// left in ids (the negative numbers); buf is scratch space for rewritten
// tokens.
func (n *numbering) number(text string, ids []int32, spans []tokenSpan, buf []byte) []byte {
	for k, id := range ids {
		if id >= 0 {
			continue
		}
		sp := spans[k]
		if n.v != nil && sp.end >= 0 && !hasUpper(text, sp.start, sp.end) {
			ids[k] = n.v.ID(text[sp.start:sp.end])
			continue
		}
		if n.v == nil && sp.end >= 0 {
			if id == spanOther {
				var ok bool
				if id, ok = n.table.lookupText(text, sp.start, sp.end); ok {
					ids[k] = id
					continue
				}
			}
			if s := text[sp.start:sp.end]; !hasUpper(text, sp.start, sp.end) {
				ids[k] = n.unknownWord(s)
				continue
			}
		}
		end := sp.end
		if end < 0 {
			end = ^end
		}
		buf = lowerToken(buf[:0], text[sp.start:end])
		ids[k] = n.bytes(buf)
	}
	return buf
}

// hasUpper reports whether the token text[start:end], of ASCII letters
// and digits, holds a capital: a byte without 0x20, read eight at a time
// where the text allows.
func hasUpper(text string, start, end int) bool {
	for at := start; at < end; at += 8 {
		if at+8 > len(text) {
			for ; at < end; at++ {
				if text[at]&0x20 == 0 {
					return true
				}
			}
			return false
		}
		if ^swar.Load64(text, at)&(lowBits*0x20)&swar.LowBytes(min(end-at, 8)) != 0 {
			return true
		}
	}
	return false
}

// bytes returns the number of the token held in b, copying b only for a
// new word.
func (n *numbering) bytes(b []byte) int32 {
	if n.v != nil {
		return n.v.IDBytes(b)
	}
	if id, ok := n.table.lookupBytes(b); ok {
		return id
	}
	return n.unknownWord(string(b))
}

// unknownWord numbers a word that table does not hold.
func (n *numbering) unknownWord(s string) int32 {
	n.unknown = append(n.unknown, s)
	return n.base + int32(len(n.unknown)-1)
}
