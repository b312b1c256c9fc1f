package sampling

import (
	"cmp"
	"context"
	"errors"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// Cache defaults.
const (
	DefaultCacheSize = 10000
	DefaultCacheTTL  = time.Hour
)

// ErrComputePanicked is returned to the callers waiting on a Cache.Do
// computation that panicked (the panic itself goes on in the caller that
// ran it).
var ErrComputePanicked = errors.New("sampling: shared judge computation panicked")

// CacheConfig sizes a Cache:
//
//	cache:
//	  size: 10000   # results kept, least recently used evicted first
//	  ttl: 1h       # a result is not used after this age
type CacheConfig struct {
	// Size bounds the results kept; unset (0) means DefaultCacheSize.
	Size int `yaml:"size,omitempty"`
	// TTL is how long a result may be used; unset (0) means
	// DefaultCacheTTL.
	TTL time.Duration `yaml:"ttl,omitempty"`
}

// Validate reports every invalid key.
func (c CacheConfig) Validate() error {
	var v errs.Checks
	v.Check(c.Size < 0, "size: must be >= 0 (0 for the default %d), got %d", DefaultCacheSize, c.Size)
	v.Check(c.TTL < 0, "ttl: must be >= 0 (0 for the default %s), got %s", DefaultCacheTTL, c.TTL)
	return v.Err()
}

// CacheStats counts a Cache's lookups since it was made.
type CacheStats struct {
	Hits      uint64 // Get or Do found a live result
	Misses    uint64 // Get or Do found none (Do then computed it)
	Shared    uint64 // Do waited for an identical computation and got its result
	Evictions uint64 // results dropped to stay within Size
	Expired   uint64 // results dropped because they were older than TTL
}

// Cache is a bounded LRU cache of judge results with a TTL. Do adds
// single-flight: identical concurrent requests are computed once. It is
// safe for concurrent use. Values are shared between callers: treat them
// as read-only.
type Cache[V any] struct {
	ttl time.Duration
	now func() time.Time

	mu    sync.Mutex
	lru   *simplelru.LRU[Key, cacheEntry[V]]
	calls map[Key]*flight[V]
	stats CacheStats
}

type cacheEntry[V any] struct {
	val     V
	expires time.Time
}

// flight is one computation in progress.
type flight[V any] struct {
	done    chan struct{} // closed when val and err are set
	val     V
	err     error
	waiters int // callers that joined the flight, for tests and stats
}

// NewCache returns an empty cache; now is its clock (nil for time.Now).
func NewCache[V any](c CacheConfig, now func() time.Time) (*Cache[V], error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	c.Size, c.TTL = cmp.Or(c.Size, DefaultCacheSize), cmp.Or(c.TTL, DefaultCacheTTL)
	if now == nil {
		now = time.Now
	}
	lru, err := simplelru.NewLRU[Key, cacheEntry[V]](c.Size, nil)
	if err != nil {
		return nil, err
	}
	return &Cache[V]{
		ttl:   c.TTL,
		now:   now,
		lru:   lru,
		calls: make(map[Key]*flight[V]),
	}, nil
}

// Get returns the live result for k.
func (c *Cache[V]) Get(k Key) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.getLocked(k)
	if ok {
		c.stats.Hits++
	} else {
		c.stats.Misses++
	}
	return v, ok
}

// Put stores v as the result for k, replacing any older one.
func (c *Cache[V]) Put(k Key, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(k, v)
}

// Len returns the number of results held, expired ones not yet dropped
// included.
func (c *Cache[V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// Stats returns the cache's counters.
func (c *Cache[V]) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// Do returns the result for k (v is the zero value on an error): the cached one (cached is true), the one
// an identical request in progress computes (cached is true: this caller
// made no call of its own), or fn's (cached is false). Only successful
// results are stored; an error of fn is returned to every caller waiting
// on it, except a context error, after which a waiter whose own context
// is still live tries again. A waiter whose context ends returns its
// context's error. If fn panics, the panic goes on in the caller that ran
// it and the waiters get ErrComputePanicked.
func (c *Cache[V]) Do(ctx context.Context, k Key, fn func(context.Context) (V, error)) (v V, cached bool, err error) {
	for {
		c.mu.Lock()
		if v, ok := c.getLocked(k); ok {
			c.stats.Hits++
			c.mu.Unlock()
			return v, true, nil
		}
		if f, ok := c.calls[k]; ok {
			f.waiters++
			c.mu.Unlock()
			select {
			case <-ctx.Done():
				return v, false, ctx.Err()
			case <-f.done:
			}
			if f.err == nil {
				c.mu.Lock()
				c.stats.Shared++
				c.mu.Unlock()
				return f.val, true, nil
			}
			if (errors.Is(f.err, context.Canceled) || errors.Is(f.err, context.DeadlineExceeded)) && ctx.Err() == nil {
				continue // the computing caller gave up, not the request
			}
			return v, false, f.err
		}
		c.stats.Misses++
		f := &flight[V]{done: make(chan struct{})}
		c.calls[k] = f
		c.mu.Unlock()
		v, err := c.compute(ctx, k, f, fn)
		return v, false, err
	}
}

// compute runs fn for the flight f and publishes its outcome, even when fn
// panics.
func (c *Cache[V]) compute(ctx context.Context, k Key, f *flight[V], fn func(context.Context) (V, error)) (v V, err error) {
	returned := false
	defer func() {
		if !returned {
			f.err = ErrComputePanicked
		}
		c.mu.Lock()
		delete(c.calls, k)
		if f.err == nil {
			c.putLocked(k, f.val)
		}
		c.mu.Unlock()
		close(f.done)
	}()
	f.val, f.err = fn(ctx)
	returned = true
	return f.val, f.err
}

// getLocked returns the live result for k, dropping it when expired.
func (c *Cache[V]) getLocked(k Key) (v V, ok bool) {
	e, ok := c.lru.Get(k)
	if ok && !c.now().Before(e.expires) {
		c.lru.Remove(k)
		c.stats.Expired++
		return v, false
	}
	return e.val, ok
}

func (c *Cache[V]) putLocked(k Key, v V) {
	if c.lru.Add(k, cacheEntry[V]{val: v, expires: c.now().Add(c.ttl)}) {
		c.stats.Evictions++
	}
}
