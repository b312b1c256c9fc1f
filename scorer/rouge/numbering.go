package rouge

import "github.com/evalsidecar/evalsidecar/internal/intern"

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

// number writes to ids the numbers of the tokens spans of text; buf is
// scratch space for rewritten tokens.
func (n *numbering) number(text string, spans []tokenSpan, ids []int32, buf []byte) []byte {
	if n.v == nil {
		n.table.lookupSpans(spans, ids)
	}
	for k, sp := range spans {
		switch {
		case n.v == nil && ids[k] >= 0:
		case n.v == nil && ids[k] == spanUnknown:
			ids[k] = n.unknownWord(text[sp.start:sp.end])
		case sp.end < 0:
			buf = lowerToken(buf[:0], text[sp.start:^sp.end])
			ids[k] = n.bytes(buf)
		case n.v != nil:
			ids[k] = n.v.ID(text[sp.start:sp.end])
		default:
			s := text[sp.start:sp.end]
			id, ok := n.table.lookup(s)
			if !ok {
				id = n.unknownWord(s)
			}
			ids[k] = id
		}
	}
	return buf
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
