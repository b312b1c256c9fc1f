package redact

// ibanDetector finds IBANs, plain or in space-separated groups, that pass
// the mod-97 check.
type ibanDetector struct{ prio int }

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

const (
	ibanMinLen = 15
	ibanMaxLen = 34
)

func (d ibanDetector) find(s string, dst []match) []match {
	for i := 0; i+ibanMinLen <= len(s); i++ {
		if !isUpper(s[i]) || !isUpper(s[i+1]) || !isDigit(s[i+2]) || !isDigit(s[i+3]) {
			continue
		}
		if i > 0 && isWord(s[i-1]) {
			continue
		}
		// Collect the IBAN characters and the positions after each one.
		var chars [ibanMaxLen]byte
		var ends [ibanMaxLen]int
		n, p := 0, i
		for p < len(s) && n < ibanMaxLen {
			c := s[p]
			if isUpper(c) || isDigit(c) {
				chars[n] = c
				n++
				p++
				ends[n-1] = p
				continue
			}
			if c == ' ' && p+1 < len(s) && (isUpper(s[p+1]) || isDigit(s[p+1])) && n >= 4 {
				p++
				continue
			}
			break
		}
		for k := n; k >= ibanMinLen; k-- {
			e := ends[k-1]
			if e < len(s) && (isWord(s[e])) {
				continue
			}
			if mod97(chars[:k]) == 1 {
				dst = append(dst, match{start: i, end: e, typ: TypeIBAN, prio: d.prio})
				i = e - 1
				break
			}
		}
	}
	return dst
}

// mod97 computes the ISO 13616 check remainder of an IBAN: the first four
// characters moved to the end, letters as 10-35.
func mod97(iban []byte) int {
	r := 0
	add := func(c byte) {
		if isDigit(c) {
			r = (r*10 + int(c-'0')) % 97
		} else {
			r = (r*100 + int(c-'A') + 10) % 97
		}
	}
	for _, c := range iban[4:] {
		add(c)
	}
	for _, c := range iban[:4] {
		add(c)
	}
	return r
}
