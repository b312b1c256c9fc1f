package rouge

import (
	"fmt"
	"sync"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/rouge/porter"
)

// TestStemCacheStemsAsPorter checks cached stems against porter.Stem under
// concurrent use, short words left as they are, and the bound on the
// cache's size.
func TestStemCacheStemsAsPorter(t *testing.T) {
	c := newStemCache()
	words := []string{"running", "runs", "ran", "generously", "conditional", "the", "a", "caresses", "ponies"}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				got := c.stemAll(words)
				for i, w := range words {
					want := w
					if len(w) > 3 {
						want = porter.Stem(w)
					}
					if got[i] != want {
						t.Errorf("goroutine %d: stem of %q = %q, want %q", g, w, got[i], want)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if got := len(c.m); got != 6 { // the words longer than three characters
		t.Errorf("cache holds %d stems, want 6", got)
	}
	many := make([]string, maxCachedStems+10)
	for i := range many {
		many[i] = fmt.Sprintf("word%d", i)
	}
	for start := 0; start < len(many); start += 1000 {
		c.stemAll(many[start:min(start+1000, len(many))])
	}
	if len(c.m) > maxCachedStems {
		t.Errorf("cache holds %d stems, over its bound %d", len(c.m), maxCachedStems)
	}
	var nilCache *stemCache
	if got := nilCache.stemAll([]string{"running", "ran"}); got[0] != "run" || got[1] != "ran" {
		t.Errorf("nil cache stems %q", got)
	}
}
