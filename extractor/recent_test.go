package extractor

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// recentModel is the plain statement of recentSet's behaviour: the ids in
// the order of their latest release, the oldest dropped past the capacity.
type recentModel struct {
	window time.Duration
	cap    int
	ids    [][16]byte
	at     map[[16]byte]time.Time
}

func (m *recentModel) add(id [16]byte, now time.Time) {
	if m.cap == 0 {
		return
	}
	if i := slices.Index(m.ids, id); i >= 0 {
		m.ids = slices.Delete(m.ids, i, i+1)
	}
	m.ids = append(m.ids, id)
	m.at[id] = now
	if len(m.ids) > m.cap {
		delete(m.at, m.ids[0])
		m.ids = m.ids[1:]
	}
}

func (m *recentModel) contains(id [16]byte, now time.Time) bool {
	at, ok := m.at[id]
	return ok && now.Sub(at) < m.window
}

func recentID(n uint64) [16]byte {
	var id [16]byte
	for i := range 8 {
		id[15-i] = byte(n >> (8 * i))
	}
	return id
}

// TestRecentSetMatchesModel drives recentSet and the model with the same
// adds and lookups: re-released ids, ids added twice at one instant, and
// low-entropy ids, over several capacities.
func TestRecentSetMatchesModel(t *testing.T) {
	for _, capacity := range []int{0, 1, 2, 3, 7, 16, 100, 1024} {
		for _, pool := range []int{1, 3, capacity + 1, 4 * capacity, 1 << 20} {
			if pool <= 0 {
				continue
			}
			rng := rand.New(rand.NewPCG(uint64(capacity), uint64(pool)))
			window := 50 * time.Millisecond
			r := newRecentSet(capacity, window)
			m := &recentModel{window: window, cap: capacity, at: map[[16]byte]time.Time{}}
			now := time.Unix(1700000000, 0)
			id := func() [16]byte {
				n := rng.Uint64N(uint64(pool))
				if rng.IntN(2) == 0 {
					return recentID(n) // sequential: low entropy
				}
				var id [16]byte
				id[0], id[7], id[8] = byte(n), byte(n>>8), byte(n>>16)
				return id
			}
			for step := range 20 * (capacity + 10) {
				if rng.IntN(3) != 0 {
					now = now.Add(time.Duration(rng.IntN(3)) * time.Millisecond)
				}
				switch rng.IntN(3) {
				case 0:
					x := id()
					r.add(x, now)
					m.add(x, now)
				default:
					x := id()
					if got, want := r.contains(x, now), m.contains(x, now); got != want {
						t.Fatalf("cap %d pool %d step %d: contains(%x) = %v, want %v", capacity, pool, step, x, got, want)
					}
				}
				if r.len() != len(m.at) {
					t.Fatalf("cap %d pool %d step %d: len %d, want %d", capacity, pool, step, r.len(), len(m.at))
				}
			}
			// every remembered id is found, nothing else is
			for x := range m.at {
				if r.contains(x, now) != m.contains(x, now) {
					t.Fatalf("cap %d pool %d: contains(%x) differs from the model", capacity, pool, x)
				}
			}
		}
	}
}

// TestRecentSetEviction checks the eviction order and the window on a small
// set.
func TestRecentSetEviction(t *testing.T) {
	now := time.Unix(1700000000, 0)
	r := newRecentSet(3, time.Minute)
	for n := range uint64(3) {
		r.add(recentID(n), now)
	}
	// re-released: the newer release survives the eviction of the older one
	r.add(recentID(0), now.Add(time.Second))
	if !r.contains(recentID(0), now.Add(time.Second)) {
		t.Fatal("re-released id forgotten with its older release")
	}
	if !r.contains(recentID(1), now) || r.len() != 3 {
		t.Fatalf("len %d", r.len())
	}
	r.add(recentID(3), now.Add(time.Second))
	if r.contains(recentID(1), now.Add(time.Second)) {
		t.Fatal("oldest id not evicted")
	}
	if !r.contains(recentID(2), now.Add(time.Second)) || !r.contains(recentID(3), now.Add(time.Second)) {
		t.Fatal("newer ids evicted")
	}
	if r.contains(recentID(3), now.Add(time.Second+time.Minute)) {
		t.Fatal("id outside the window still contained")
	}
	// a zero-capacity set remembers nothing
	z := newRecentSet(0, time.Minute)
	z.add(recentID(1), now)
	if z.contains(recentID(1), now) || z.len() != 0 {
		t.Fatal("zero-capacity set remembered an id")
	}
}

// BenchmarkRecentSet releases a stream of random ids through a full set and
// looks up as many unknown ones.
func BenchmarkRecentSet(b *testing.B) {
	const capacity = 10000
	r := newRecentSet(capacity, time.Hour)
	rng := rand.New(rand.NewPCG(1, 2))
	ids := make([][16]byte, 1<<16)
	for i := range ids {
		for j := range ids[i] {
			ids[i][j] = byte(rng.Uint32())
		}
	}
	now := time.Unix(1700000000, 0)
	for i := range capacity {
		r.add(ids[i%len(ids)], now)
	}
	found, i := 0, 0
	for b.Loop() {
		r.add(ids[i&(len(ids)-1)], now)
		if r.contains(ids[(i+7919)&(len(ids)-1)], now) {
			found++
		}
		i++
	}
	b.ReportMetric(float64(found)/float64(b.N), "found/op")
}

// len returns the number of ids remembered.
func (r *recentSet) len() int {
	if r.ids == nil {
		return 0
	}
	return r.ids.Len()
}
