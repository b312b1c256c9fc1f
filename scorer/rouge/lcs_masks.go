package rouge

import "math/bits"

// lcsMasks are the bit-parallel LCS match masks (see bitLCS) of a target
// whose tokens are numbered below vocab.
type lcsMasks struct {
	n     int      // the target's length in tokens
	w     int      // words per mask
	masks []uint64 // number id's mask is masks[id*w:][:w]
}

// build finds the masks of ids, numbered below vocab.
func (s *lcsMasks) build(ids []int32, vocab int32) {
	s.n = len(ids)
	s.w = (len(ids) + 63) / 64
	s.masks = make([]uint64, int(vocab)*s.w)
	for i, id := range ids {
		s.masks[int(id)*s.w+i/64] |= 1 << (uint(i) % 64)
	}
}

// lcsLength returns the LCS length of the target and pred; tokens
// numbered vocab or above match nothing. v is scratch space for the
// vector, returned. The loop makes no calls.
func (s *lcsMasks) lcsLength(pred []int32, vocab int32, v []uint64) (int, []uint64) {
	v = resize(v, s.w)
	for k := range v {
		v[k] = ^uint64(0)
	}
	for _, y := range pred {
		if y >= vocab {
			continue // no match: V is unchanged
		}
		// V + (V & M), with the carry, then | (V &^ M)
		m := s.masks[int(y)*len(v):][:len(v)]
		var carry uint64
		for k, vk := range v {
			u := vk & m[k]
			var sum uint64
			sum, carry = bits.Add64(vk, u, carry)
			v[k] = sum | (vk &^ u)
		}
	}
	ones := 0
	for k, vk := range v {
		if r := s.n - 64*k; r < 64 {
			vk &= 1<<uint(r) - 1 // only the target's bits count
		}
		ones += bits.OnesCount64(vk)
	}
	return s.n - ones, v
}
