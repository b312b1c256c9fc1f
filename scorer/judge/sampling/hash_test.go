package sampling

import (
	"encoding/hex"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomTraceIDs returns n random 32-hex-digit trace ids from a fixed seed.
func randomTraceIDs(n int) []string {
	rng := rand.New(rand.NewPCG(1, 2))
	ids := make([]string, n)
	var b [16]byte
	for i := range ids {
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		ids[i] = hex.EncodeToString(b[:])
	}
	return ids
}

// referenceUnit is Unit written from its documentation with the standard
// library's FNV-1a.
func referenceUnit(id string) float64 {
	h := fnv.New64a()
	h.Write([]byte(strings.ToLower(id)))
	x := h.Sum64()
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return float64(x>>11) / (1 << 53)
}

func TestUnitMatchesDocumentedAlgorithm(t *testing.T) {
	ids := append(randomTraceIDs(1000), "", "A", "4BF92F3577B34DA6A3CE929D0E0E4736")
	for _, id := range ids {
		if got, want := Unit(id), referenceUnit(id); got != want {
			t.Fatalf("Unit(%q) = %v, want %v", id, got, want)
		}
	}
}

// TestUnitStable pins sampling coordinates: a change here reshuffles which
// runs every deployed rate judges.
func TestUnitStable(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want float64
	}{
		{"4bf92f3577b34da6a3ce929d0e0e4736", 8106830961245787.0 / (1 << 53)},
		{"00000000000000000000000000000001", 8816786392159633.0 / (1 << 53)},
		{"", 8437669077406501.0 / (1 << 53)},
	} {
		if got := Unit(tc.id); got != tc.want {
			t.Errorf("Unit(%q) = %v (%d/2^53), want %v", tc.id, got, uint64(got*(1<<53)), tc.want)
		}
	}
}

func TestUnitCaseInsensitive(t *testing.T) {
	for _, id := range randomTraceIDs(100) {
		if Unit(id) != Unit(strings.ToUpper(id)) {
			t.Fatalf("Unit(%q) differs from its upper-case form", id)
		}
	}
}

func TestUnitRange(t *testing.T) {
	for _, id := range randomTraceIDs(10000) {
		if u := Unit(id); !(u >= 0 && u < 1) {
			t.Fatalf("Unit(%q) = %v, outside [0, 1)", id, u)
		}
	}
}

func TestSampledEdgeRates(t *testing.T) {
	ids := randomTraceIDs(2000)
	for _, tc := range []struct {
		rate float64
		want bool
	}{
		{0, false}, {-0.5, false}, {math.NaN(), false}, {math.Inf(-1), false},
		{1, true}, {1.5, true}, {math.Inf(1), true},
	} {
		for _, id := range ids {
			if got := Sampled(id, tc.rate); got != tc.want {
				t.Fatalf("Sampled(%q, %v) = %v, want %v", id, tc.rate, got, tc.want)
			}
		}
	}
}

// TestSampledCohorts checks that every run a metric samples at a rate is
// sampled by every metric at a higher rate.
func TestSampledCohorts(t *testing.T) {
	rates := []float64{0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 0.9, 0.999}
	ids := randomTraceIDs(20000)
	for _, id := range ids {
		for i, lo := range rates {
			if !Sampled(id, lo) {
				continue
			}
			for _, hi := range rates[i+1:] {
				if !Sampled(id, hi) {
					t.Fatalf("trace %s sampled at %v but not at %v", id, lo, hi)
				}
			}
		}
	}
	// The 5% cohort is a proper, non-empty subset of the 10% one.
	var n5, n10 int
	for _, id := range ids {
		if Sampled(id, 0.05) {
			n5++
		}
		if Sampled(id, 0.10) {
			n10++
		}
	}
	if n5 == 0 || n5 >= n10 {
		t.Fatalf("cohorts: %d runs at 5%%, %d at 10%%", n5, n10)
	}
}

func TestSampledRateAccuracy(t *testing.T) {
	ids := randomTraceIDs(100000)
	for _, rate := range []float64{0.001, 0.01, 0.05, 0.1, 0.3, 0.5, 0.9} {
		n := 0
		for _, id := range ids {
			if Sampled(id, rate) {
				n++
			}
		}
		got := float64(n) / float64(len(ids))
		if math.Abs(got-rate) > 0.01 {
			t.Errorf("rate %v: sampled %v of 100k random ids, want within 0.01", rate, got)
		}
		// Relative accuracy too, where the sample is big enough for it.
		if rate >= 0.05 && math.Abs(got-rate)/rate > 0.05 {
			t.Errorf("rate %v: sampled %v, more than 5%% off relative", rate, got)
		}
	}
}

// TestUnitUniform checks that sequential ids (as some test clients make)
// spread evenly over ten buckets.
func TestUnitUniform(t *testing.T) {
	const n = 100000
	var buckets [10]int
	for i := range n {
		id := strings.Repeat("0", 16) + hex.EncodeToString([]byte{byte(i >> 24), byte(i >> 16), byte(i >> 8), byte(i)}) + "00000000"
		buckets[int(Unit(id)*10)]++
	}
	for b, c := range buckets {
		if math.Abs(float64(c)-n/10) > 0.03*n/10 {
			t.Errorf("bucket %d holds %d of %d sequential ids, want about %d", b, c, n, n/10)
		}
	}
}
