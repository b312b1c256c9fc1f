package sampling

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
)

// Key identifies a judge result: the metric, the judge that gives it and a
// SHA-256 hash of everything the judge is shown. It is comparable.
type Key struct {
	Metric string
	Judge  string
	// Content is the SHA-256 of the parts given to NewKey, each preceded
	// by its length, so that ("ab", "c") and ("a", "bc") differ.
	Content [sha256.Size]byte
}

// NewKey returns the key of a judge request: parts are the inputs that
// decide the answer (prompt template version, model, rendered fields...),
// in a fixed order.
func NewKey(metric, judge string, parts ...string) Key {
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	for _, p := range parts {
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(p)))])
		h.Write([]byte(p))
	}
	k := Key{Metric: metric, Judge: judge}
	h.Sum(k.Content[:0])
	return k
}

// String returns "metric/judge/<first 16 hex digits of the hash>", for
// logs.
func (k Key) String() string {
	return k.Metric + "/" + k.Judge + "/" + hex.EncodeToString(k.Content[:8])
}
