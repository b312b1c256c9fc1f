package rouge

import "math/bits"

// maxMaskWords bounds the words of match masks a target keeps for one
// form (8 MiB): a mask per distinct word, each a bit per target position,
// grows with the product of the two, so a long reference with a large
// vocabulary is scored without kept masks instead.
const maxMaskWords = 1 << 20

// lcsMasks are the bit-parallel LCS match masks (see bitLCS) of a target
// whose tokens are numbered below vocab.
type lcsMasks struct {
	n     int      // the target's length in tokens
	w     int      // words per mask
	masks []uint64 // number id's mask is masks[id*w:][:w]
	// When the target has at most 256 tokens, the masks are in short
	// instead, padded to four words, and the vector is kept in four
	// variables.
	short [][4]uint64
	// tooBig is set when the masks would take more than maxMaskWords;
	// none are kept then.
	tooBig bool
}

// build finds the masks of ids, numbered below vocab.
func (s *lcsMasks) build(ids []int32, vocab int32) {
	s.n = len(ids)
	s.w = (len(ids) + 63) / 64
	if s.w > 4 && int(vocab)*s.w > maxMaskWords {
		s.tooBig = true
		return
	}
	if s.w <= 4 {
		s.short = make([][4]uint64, vocab)
		for i, id := range ids {
			s.short[id][i/64] |= 1 << (uint(i) % 64)
		}
		return
	}
	s.masks = make([]uint64, int(vocab)*s.w)
	for i, id := range ids {
		s.masks[int(id)*s.w+i/64] |= 1 << (uint(i) % 64)
	}
}

// lcsLength returns the LCS length of the target and pred; tokens
// numbered vocab or above match nothing. v is scratch space for the
// vector, returned. The loop makes no calls.
func (s *lcsMasks) lcsLength(pred []int32, vocab int32, v []uint64) (int, []uint64) {
	if s.short != nil {
		v = resize(v, 4)
		v[0], v[1], v[2], v[3] = lcsShort(s.short, pred)
		return s.n - onesBelow(v, s.n), v
	}
	v = resize(v, s.w)
	for k := range v {
		v[k] = ^uint64(0)
	}
	for _, y := range pred {
		if y >= vocab {
			continue // no match: V is unchanged
		}
		advance(v, v, s.masks[int(y)*len(v):][:len(v)])
	}
	return s.n - onesBelow(v, s.n), v
}

// lcsShort steps the four words of the LCS vector on the tokens of pred;
// those numbered past masks match nothing.
func lcsShort(masks [][4]uint64, pred []int32) (v0, v1, v2, v3 uint64) {
	v0, v1, v2, v3 = ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)
	for _, y := range pred {
		if uint32(y) >= uint32(len(masks)) {
			continue // no match: V is unchanged
		}
		m := &masks[y]
		u0, u1, u2, u3 := v0&m[0], v1&m[1], v2&m[2], v3&m[3]
		s0, c := bits.Add64(v0, u0, 0)
		s1, c := bits.Add64(v1, u1, c)
		s2, c := bits.Add64(v2, u2, c)
		s3, _ := bits.Add64(v3, u3, c)
		v0, v1, v2, v3 = s0|(v0&^u0), s1|(v1&^u1), s2|(v2&^u2), s3|(v3&^u3)
	}
	return v0, v1, v2, v3
}

// onesBelow counts the ones among the first n bits of v.
func onesBelow(v []uint64, n int) int {
	ones := 0
	for k, vk := range v {
		if r := n - 64*k; r < 64 {
			if r <= 0 {
				break
			}
			vk &= 1<<uint(r) - 1
		}
		ones += bits.OnesCount64(vk)
	}
	return ones
}
