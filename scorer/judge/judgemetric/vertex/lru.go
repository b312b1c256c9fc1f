package vertex

import (
	"container/list"
	"sync"
)

// rubricCache is a bounded LRU of generated rubrics by input hash. It is
// safe for concurrent use.
type rubricCache struct {
	mu    sync.Mutex
	size  int
	order *list.List // front = most recently used; values are *cacheEntry
	items map[string]*list.Element
}

type cacheEntry struct {
	key     string
	rubrics []string
}

// newRubricCache returns a cache holding at most size entries; size 0
// disables caching.
func newRubricCache(size int) *rubricCache {
	return &rubricCache{size: size, order: list.New(), items: make(map[string]*list.Element)}
}

// get returns the rubrics cached under key.
func (c *rubricCache) get(key string) ([]string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cacheEntry).rubrics, true
}

// put stores rubrics under key, evicting the least recently used entry
// when full. The slice must not be modified afterwards.
func (c *rubricCache) put(key string, rubrics []string) {
	if c.size <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		e.Value.(*cacheEntry).rubrics = rubrics
		c.order.MoveToFront(e)
		return
	}
	c.items[key] = c.order.PushFront(&cacheEntry{key: key, rubrics: rubrics})
	for c.order.Len() > c.size {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*cacheEntry).key)
	}
}

// len returns the number of cached entries.
func (c *rubricCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
