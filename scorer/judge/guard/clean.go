package guard

import "strings"

// clean removes invisible characters from s. It returns the cleaned text,
// the ASCII text hidden in Unicode tag characters, the number of invisible
// characters seen and the number of characters in s.
func clean(s string) (out, hidden string, invisible, total int) {
	var b, h strings.Builder
	dropped := false
	for i, r := range s {
		total++
		drop, count := classify(r)
		if count {
			invisible++
		}
		if r >= 0xE0020 && r <= 0xE007E {
			h.WriteByte(byte(r - 0xE0000))
		}
		if drop && !dropped {
			dropped = true
			b.Grow(len(s))
			b.WriteString(s[:i])
		}
		if dropped && !drop {
			b.WriteRune(r)
		}
	}
	if !dropped {
		return s, h.String(), invisible, total
	}
	return b.String(), h.String(), invisible, total
}

// classify reports whether r is dropped and whether it counts as
// invisible.
func classify(r rune) (drop, count bool) {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false, false
	// Control characters; zero-width spaces, word joiners, BOM and soft
	// hyphen; bidirectional controls; tag characters; variation
	// selectors 17-256.
	case r < 0x20 || r >= 0x7F && r <= 0x9F,
		r == 0x200B || r >= 0x2060 && r <= 0x2064 || r == 0xFEFF || r == 0x180E || r == 0x00AD,
		r == 0x200E || r == 0x200F || r == 0x061C || r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069,
		r >= 0xE0000 && r <= 0xE007F,
		r >= 0xE0100 && r <= 0xE01EF:
		return true, true
	case r == 0x200C || r == 0x200D:
		return false, true // joiners: needed by some scripts and emoji
	}
	return false, false
}
