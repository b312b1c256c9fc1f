package prometheus

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unicode/utf8"
)

func TestCapper(t *testing.T) {
	var overflows int
	c := NewCapper(3, func() { overflows++ })
	f := func(in, want string) {
		t.Helper()
		if got := c.Value(in); got != want {
			t.Errorf("Value(%q) = %q, want %q", in, got, want)
		}
	}
	f("", ValueUnknown)
	f("a", "a")
	f("other", ValueOther)     // takes no slot
	f("unknown", ValueUnknown) // takes no slot
	f("b", "b")
	f("a", "a")
	f("c", "c")
	f("d", ValueOther) // 4th distinct value
	f("e", ValueOther)
	f("b", "b") // admitted values stay admitted
	f("", ValueUnknown)
	if overflows != 2 {
		t.Errorf("overflow callback ran %d times, want 2", overflows)
	}
	if c.Len() != 3 {
		t.Errorf("Len = %d, want 3", c.Len())
	}
}

func TestCapperCleansValues(t *testing.T) {
	c := NewCapper(10, nil)
	long := strings.Repeat("é", 100) // 200 bytes
	got := c.Value(long)
	if len(got) > maxLabelValueBytes || !utf8.ValidString(got) || !strings.HasPrefix(long, got) {
		t.Errorf("long value became %q (%d bytes)", got, len(got))
	}
	if again := c.Value(long); again != got {
		t.Errorf("same long value mapped to %q then %q", got, again)
	}
	if got := c.Value("a\xffb"); got != "a\uFFFDb" {
		t.Errorf("invalid UTF-8 became %q", got)
	}
	if c.Len() != 2 {
		t.Errorf("Len = %d, want 2", c.Len())
	}
}

func TestCapperConcurrent(t *testing.T) {
	const max, workers, perWorker = 50, 8, 200
	var overflows atomic.Int64
	c := NewCapper(max, func() { overflows.Add(1) })
	var mu sync.Mutex
	passed := map[string]bool{}
	var others int
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				v := fmt.Sprintf("v%d", (i*7+w)%120) // overlapping values
				got := c.Value(v)
				mu.Lock()
				if got == ValueOther {
					others++
				} else if got != v {
					t.Errorf("Value(%q) = %q", v, got)
				} else {
					passed[v] = true
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(passed) != max || c.Len() != max {
		t.Errorf("%d distinct values passed, Len %d; want %d", len(passed), c.Len(), max)
	}
	if int64(others) != overflows.Load() {
		t.Errorf("%d values became other but overflow counted %d", others, overflows.Load())
	}
}
