package sampling

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

func newTestCache(t *testing.T, size int, ttl time.Duration) (*Cache[string], *fakeClock) {
	t.Helper()
	clk := newFakeClock()
	c, err := NewCache[string](CacheConfig{Size: size, TTL: ttl}, clk.Now)
	if err != nil {
		t.Fatal(err)
	}
	return c, clk
}

func key(i int) Key { return NewKey("m", "j", fmt.Sprint(i)) }

func TestCacheConfig(t *testing.T) {
	c, err := NewCache[int](CacheConfig{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range DefaultCacheSize + 1 {
		c.Put(key(i), i)
	}
	if c.Len() != DefaultCacheSize || c.ttl != DefaultCacheTTL || DefaultCacheSize != 10000 || DefaultCacheTTL != time.Hour {
		t.Errorf("defaults: size %d, ttl %s", c.Len(), c.ttl)
	}
	_, err = NewCache[int](CacheConfig{Size: -1, TTL: -time.Second}, nil)
	if err == nil || !strings.Contains(err.Error(), "size: must be >= 0") || !strings.Contains(err.Error(), "ttl: must be >= 0") {
		t.Errorf("negative config: %v", err)
	}
}

func TestCacheLRUEviction(t *testing.T) {
	c, _ := newTestCache(t, 3, time.Hour)
	for i := range 3 {
		c.Put(key(i), fmt.Sprint("v", i))
	}
	if _, ok := c.Get(key(0)); !ok { // 0 is now the most recently used
		t.Fatal("key 0 missing")
	}
	c.Put(key(3), "v3") // evicts 1, the least recently used
	if _, ok := c.Get(key(1)); ok {
		t.Error("key 1 survived eviction")
	}
	for _, i := range []int{0, 2, 3} {
		if v, ok := c.Get(key(i)); !ok || v != fmt.Sprint("v", i) {
			t.Errorf("key %d = %q, %v", i, v, ok)
		}
	}
	c.Put(key(2), "v2b") // an update is a use, not an insert
	if c.Len() != 3 {
		t.Errorf("Len = %d, want 3", c.Len())
	}
	if v, _ := c.Get(key(2)); v != "v2b" {
		t.Errorf("updated value = %q", v)
	}
	st := c.Stats()
	if st.Evictions != 1 || st.Hits != 5 || st.Misses != 1 {
		t.Errorf("stats = %+v", st)
	}
}

func TestCacheTTL(t *testing.T) {
	c, clk := newTestCache(t, 10, time.Minute)
	c.Put(key(1), "a")
	clk.Advance(59 * time.Second)
	if _, ok := c.Get(key(1)); !ok {
		t.Fatal("expired before its TTL")
	}
	c.Put(key(2), "b")
	clk.Advance(time.Second)
	if _, ok := c.Get(key(1)); ok {
		t.Error("served after its TTL")
	}
	if _, ok := c.Get(key(2)); !ok {
		t.Error("key 2 expired early")
	}
	if c.Len() != 1 || c.Stats().Expired != 1 {
		t.Errorf("Len %d, stats %+v", c.Len(), c.Stats())
	}
	c.Put(key(2), "b2") // refreshing restarts the TTL
	clk.Advance(59 * time.Second)
	if v, ok := c.Get(key(2)); !ok || v != "b2" {
		t.Errorf("refreshed entry: %q, %v", v, ok)
	}
	// Do does not serve an expired entry either.
	clk.Advance(time.Minute)
	v, cached, err := c.Do(context.Background(), key(2), func(context.Context) (string, error) { return "fresh", nil })
	if err != nil || cached || v != "fresh" {
		t.Errorf("Do after expiry = %q, cached %v, %v", v, cached, err)
	}
}

func TestCacheKeysAreDistinct(t *testing.T) {
	c, _ := newTestCache(t, 10, time.Hour)
	c.Put(NewKey("m", "j", "ab", "c"), "x")
	for _, k := range []Key{NewKey("m", "j", "a", "bc"), NewKey("m", "j2", "ab", "c"), NewKey("m2", "j", "ab", "c")} {
		if _, ok := c.Get(k); ok {
			t.Errorf("%s hit another key's entry", k)
		}
	}
}

// waitForWaiters blocks until n callers have joined the flight for k.
func waitForWaiters[V any](c *Cache[V], k Key, n int) {
	for {
		c.mu.Lock()
		f := c.calls[k]
		got := 0
		if f != nil {
			got = f.waiters
		}
		c.mu.Unlock()
		if got >= n {
			return
		}
		runtime.Gosched()
	}
}

func TestCacheDoSingleFlight(t *testing.T) {
	c, _ := newTestCache(t, 10, time.Hour)
	k := key(1)
	const callers = 8
	var calls atomic.Int32
	started, release := make(chan struct{}), make(chan struct{})
	fn := func(context.Context) (string, error) {
		calls.Add(1)
		close(started)
		<-release
		return "answer", nil
	}
	type res struct {
		v      string
		cached bool
		err    error
	}
	results := make(chan res, callers)
	go func() {
		v, cached, err := c.Do(context.Background(), k, fn)
		results <- res{v, cached, err}
	}()
	<-started
	for range callers - 1 {
		go func() {
			v, cached, err := c.Do(context.Background(), k, fn)
			results <- res{v, cached, err}
		}()
	}
	waitForWaiters(c, k, callers-1)
	close(release)
	computed := 0
	for range callers {
		r := <-results
		if r.err != nil || r.v != "answer" {
			t.Errorf("Do = %q, %v", r.v, r.err)
		}
		if !r.cached {
			computed++
		}
	}
	if calls.Load() != 1 || computed != 1 {
		t.Errorf("fn ran %d times, %d callers computed; want 1 and 1", calls.Load(), computed)
	}
	if st := c.Stats(); st.Shared != callers-1 || st.Misses != 1 {
		t.Errorf("stats = %+v", st)
	}
	// Now cached.
	v, cached, err := c.Do(context.Background(), k, func(context.Context) (string, error) {
		t.Error("computed again")
		return "", nil
	})
	if v != "answer" || !cached || err != nil {
		t.Errorf("second Do = %q, %v, %v", v, cached, err)
	}
}

func TestCacheDoDifferentKeysRunApart(t *testing.T) {
	c, _ := newTestCache(t, 10, time.Hour)
	var wg sync.WaitGroup
	var calls atomic.Int32
	for i := range 4 {
		wg.Go(func() {
			_, _, _ = c.Do(context.Background(), key(i), func(context.Context) (string, error) {
				calls.Add(1)
				return "v", nil
			})
		})
	}
	wg.Wait()
	if calls.Load() != 4 {
		t.Errorf("fn ran %d times for 4 keys", calls.Load())
	}
}

func TestCacheDoErrorsNotCached(t *testing.T) {
	c, _ := newTestCache(t, 10, time.Hour)
	boom := errors.New("judge said 500")
	_, _, err := c.Do(context.Background(), key(1), func(context.Context) (string, error) { return "", boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if c.Len() != 0 {
		t.Error("an error was cached")
	}
	v, cached, err := c.Do(context.Background(), key(1), func(context.Context) (string, error) { return "ok", nil })
	if v != "ok" || cached || err != nil {
		t.Errorf("retry = %q, %v, %v", v, cached, err)
	}
}

func TestCacheDoSharesErrors(t *testing.T) {
	c, _ := newTestCache(t, 10, time.Hour)
	k := key(1)
	boom := errors.New("judge said 500")
	started, release := make(chan struct{}), make(chan struct{})
	leader := make(chan error, 1)
	go func() {
		_, _, err := c.Do(context.Background(), k, func(context.Context) (string, error) {
			close(started)
			<-release
			return "", boom
		})
		leader <- err
	}()
	<-started
	follower := make(chan error, 1)
	go func() {
		_, _, err := c.Do(context.Background(), k, func(context.Context) (string, error) {
			return "", errors.New("the follower computed")
		})
		follower <- err
	}()
	waitForWaiters(c, k, 1)
	close(release)
	if err := <-leader; !errors.Is(err, boom) {
		t.Errorf("leader err = %v", err)
	}
	if err := <-follower; !errors.Is(err, boom) {
		t.Errorf("follower err = %v, want the leader's", err)
	}
}

// TestCacheDoLeaderCanceled checks that a waiter whose context is live
// computes the result itself when the computing caller's context ends.
func TestCacheDoLeaderCanceled(t *testing.T) {
	c, _ := newTestCache(t, 10, time.Hour)
	k := key(1)
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	leader := make(chan error, 1)
	go func() {
		_, _, err := c.Do(ctx, k, func(ctx context.Context) (string, error) {
			close(started)
			<-ctx.Done()
			return "", fmt.Errorf("judge call: %w", ctx.Err())
		})
		leader <- err
	}()
	<-started
	follower := make(chan string, 1)
	go func() {
		v, cached, err := c.Do(context.Background(), k, func(context.Context) (string, error) { return "mine", nil })
		if err != nil || cached {
			v = fmt.Sprintf("cached %v, err %v", cached, err)
		}
		follower <- v
	}()
	waitForWaiters(c, k, 1)
	cancel()
	if err := <-leader; !errors.Is(err, context.Canceled) {
		t.Errorf("leader err = %v", err)
	}
	if v := <-follower; v != "mine" {
		t.Errorf("follower got %q, want its own result", v)
	}
}

func TestCacheDoWaiterCanceled(t *testing.T) {
	c, _ := newTestCache(t, 10, time.Hour)
	k := key(1)
	started, release := make(chan struct{}), make(chan struct{})
	leader := make(chan string, 1)
	go func() {
		v, _, _ := c.Do(context.Background(), k, func(context.Context) (string, error) {
			close(started)
			<-release
			return "late", nil
		})
		leader <- v
	}()
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	waiter := make(chan error, 1)
	go func() {
		_, _, err := c.Do(ctx, k, func(context.Context) (string, error) { return "", nil })
		waiter <- err
	}()
	waitForWaiters(c, k, 1)
	cancel()
	if err := <-waiter; !errors.Is(err, context.Canceled) {
		t.Errorf("waiter err = %v", err)
	}
	close(release)
	if v := <-leader; v != "late" {
		t.Errorf("leader got %q", v)
	}
	if v, ok := c.Get(k); !ok || v != "late" {
		t.Errorf("cached %q, %v", v, ok)
	}
}

func TestCacheDoPanic(t *testing.T) {
	c, _ := newTestCache(t, 10, time.Hour)
	k := key(1)
	started, release := make(chan struct{}), make(chan struct{})
	recovered := make(chan any, 1)
	go func() {
		defer func() { recovered <- recover() }()
		_, _, _ = c.Do(context.Background(), k, func(context.Context) (string, error) {
			close(started)
			<-release
			panic("metric bug")
		})
	}()
	<-started
	waiter := make(chan error, 1)
	go func() {
		_, _, err := c.Do(context.Background(), k, func(context.Context) (string, error) { return "", nil })
		waiter <- err
	}()
	waitForWaiters(c, k, 1)
	close(release)
	if r := <-recovered; r != "metric bug" {
		t.Errorf("the computing caller recovered %v, want the panic", r)
	}
	if err := <-waiter; !errors.Is(err, ErrComputePanicked) {
		t.Errorf("waiter err = %v", err)
	}
	if _, ok := c.Get(k); ok {
		t.Error("a panicked computation was cached")
	}
	// The key is free again.
	v, _, err := c.Do(context.Background(), k, func(context.Context) (string, error) { return "ok", nil })
	if v != "ok" || err != nil {
		t.Errorf("after the panic: %q, %v", v, err)
	}
}

// TestCacheConcurrent hammers a small cache from many goroutines under the
// race detector; the size bound must hold.
func TestCacheConcurrent(t *testing.T) {
	c, clk := newTestCache(t, 16, time.Minute)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				k := key((g*7 + i) % 40)
				switch i % 4 {
				case 0:
					c.Put(k, "p")
				case 1:
					c.Get(k)
				case 2:
					_, _, _ = c.Do(context.Background(), k, func(context.Context) (string, error) { return "d", nil })
				case 3:
					if g == 0 {
						clk.Advance(time.Second)
					}
				}
				if n := c.Len(); n > 16 {
					t.Errorf("Len = %d, above the size", n)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestCacheConfigFromYAML(t *testing.T) {
	var c CacheConfig
	dec := yaml.NewDecoder(strings.NewReader("size: 500\nttl: 90s\n"))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		t.Fatal(err)
	}
	if c.Size != 500 || c.TTL != 90*time.Second {
		t.Errorf("decoded %+v", c)
	}
}
