package rouge

import "github.com/evalsidecar/evalsidecar/internal/intern"

// numbering gives the tokens of a text their numbers. It numbers new
// words in v, or, when frozen, only looks words up in v (which then may be
// shared by concurrent readers): a word v does not hold gets the next
// number from base up and is kept in unknown, base+k for unknown[k], so
// that its text stays available for stemming.
type numbering struct {
	v       *intern.Strings
	frozen  bool
	base    int32
	unknown []string
}

// id returns the number of the token s, a substring of the text.
func (n *numbering) id(s string) int32 {
	if !n.frozen {
		return n.v.ID(s)
	}
	if id, ok := n.v.Lookup(s); ok {
		return id
	}
	n.unknown = append(n.unknown, s)
	return n.base + int32(len(n.unknown)-1)
}

// idBytes returns the number of the token held in b, copying b only for a
// new word.
func (n *numbering) idBytes(b []byte) int32 {
	if !n.frozen {
		return n.v.IDBytes(b)
	}
	if id, ok := n.v.LookupBytes(b); ok {
		return id
	}
	n.unknown = append(n.unknown, string(b))
	return n.base + int32(len(n.unknown)-1)
}
