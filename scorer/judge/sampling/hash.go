package sampling

// FNV-1a 64 parameters.
const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

// Unit maps a trace id to a number in [0, 1), the same for every caller
// and every release: it is the sampling coordinate of the run.
//
// The id is lower-cased (ASCII) and hashed with FNV-1a 64; the hash goes
// through the MurmurHash3 64-bit finaliser so that every bit of the id
// reaches the top bits, and its top 53 bits are divided by 2^53.
func Unit(traceID string) float64 {
	h := uint64(fnvOffset64)
	for i := 0; i < len(traceID); i++ {
		c := traceID[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h ^= uint64(c)
		h *= fnvPrime64
	}
	return float64(mix(h)>>11) / (1 << 53)
}

// Sampled reports whether the run with this trace id is in the sample at
// rate (a fraction in [0, 1]): Unit(traceID) < rate. Rate 0 (or less, or
// NaN) never samples; rate 1 (or more) always does. Because the decision
// depends only on the trace id, the runs sampled at a rate are a subset of
// those sampled at any higher rate.
func Sampled(traceID string, rate float64) bool {
	if !(rate > 0) { // also NaN
		return false
	}
	if rate >= 1 {
		return true
	}
	return Unit(traceID) < rate
}

// mix is the 64-bit finaliser of MurmurHash3: every input bit affects
// every output bit.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}
