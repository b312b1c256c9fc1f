package rouge

import (
	"strings"
	"sync"

	"github.com/evalsidecar/evalsidecar/scorer/rouge/porter"
)

// maxCachedStems bounds a stem cache; a full cache starts over.
const maxCachedStems = 1 << 16

// stemCache keeps the Porter stems of the words a stemming scorer has
// seen: answers repeat their vocabulary, and a stem costs several times a
// lookup. It is safe for concurrent use.
type stemCache struct {
	mu sync.RWMutex
	m  map[string]string
}

func newStemCache() *stemCache { return &stemCache{m: make(map[string]string)} }

// stemAll returns the stems of words: NLTK's Porter stem for words longer
// than three characters, the word itself otherwise. A nil cache stems
// every word.
func (c *stemCache) stemAll(words []string) []string {
	out := make([]string, len(words))
	var miss []int
	if c != nil {
		c.mu.RLock()
	}
	for i, w := range words {
		switch {
		case len(w) <= 3:
			out[i] = w
		case c == nil:
			out[i] = porter.Stem(w)
		default:
			if s, ok := c.m[w]; ok {
				out[i] = s
			} else {
				miss = append(miss, i)
			}
		}
	}
	if c == nil {
		return out
	}
	c.mu.RUnlock()
	if len(miss) == 0 {
		return out
	}
	for _, i := range miss {
		out[i] = porter.Stem(words[i])
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m)+len(miss) > maxCachedStems {
		clear(c.m)
	}
	for _, i := range miss {
		// keys and stems may be substrings of a large text: keep copies
		c.m[strings.Clone(words[i])] = strings.Clone(out[i])
	}
	return out
}
