// Package porter is the Porter stemmer exactly as NLTK 3.8's
// nltk.stem.porter.PorterStemmer computes it in its default
// NLTK_EXTENSIONS mode: the 1980 algorithm plus NLTK's irregular-form
// pool, its 'ies'/'ied' rules for four-letter words, its y->i condition,
// the early 'alli' rule, 'fulli' and 'logi', and its treatment of one- and
// two-letter words (returned unchanged).
//
// It is neither Snowball (Porter2) nor the original algorithm: for
// example dying -> die, skies -> sky, news -> news, generously -> gener.
package porter

// irregular returns the stem of w from NLTK's pool of irregular forms,
// checked before any rule.
func irregular(w string) (string, bool) {
	switch w {
	case "sky", "skies":
		return "sky", true
	case "dying":
		return "die", true
	case "lying":
		return "lie", true
	case "tying":
		return "tie", true
	case "news":
		return "news", true
	case "innings", "inning":
		return "inning", true
	case "outings", "outing":
		return "outing", true
	case "cannings", "canning":
		return "canning", true
	case "howe", "proceed", "exceed", "succeed":
		return w, true
	}
	return "", false
}

// Stem returns the NLTK_EXTENSIONS Porter stem of word. ASCII letters are
// lowercased first, as NLTK does. The algorithm is defined on letters;
// digits and other bytes count as consonants, exactly as in NLTK for
// ASCII input. Non-ASCII bytes are treated one byte at a time, so callers
// that need NLTK's behaviour on non-ASCII words must not rely on Stem
// (the ROUGE tokenizer only ever passes [a-z0-9] tokens).
func Stem(word string) string {
	w := lowerASCII(word)
	if s, ok := irregular(w); ok {
		return s
	}
	if len(w) <= 2 {
		return w
	}
	var arr [48]byte
	b := append(arr[:0], w...)
	b = step1a(b)
	b = step1b(b)
	b = step1c(b)
	b = step2(b)
	b = step3(b)
	b = step4(b)
	b = step5a(b)
	b = step5b(b)
	if len(b) <= len(w) && string(b) == w[:len(b)] {
		return w[:len(b)] // most stems cut a suffix: no copy
	}
	return string(b)
}

// lowerASCII lowercases A-Z, returning s itself when nothing changes.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// isConsonant reports whether w[i] is a consonant: not a, e, i, o, u, and
// y only when it starts the word or follows a vowel.
func isConsonant(w []byte, i int) bool {
	switch w[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		if i == 0 {
			return true
		}
		return !isConsonant(w, i-1)
	}
	return true
}

// measure is m in [C](VC)^m[V]: the number of vowel-consonant transitions.
func measure(w []byte) int {
	m := 0
	prevVowel := false
	for i := range w {
		c := isConsonant(w, i)
		if c && prevVowel {
			m++
		}
		prevVowel = !c
	}
	return m
}

func containsVowel(w []byte) bool {
	for i := range w {
		if !isConsonant(w, i) {
			return true
		}
	}
	return false
}

func endsDoubleConsonant(w []byte) bool {
	n := len(w)
	return n >= 2 && w[n-1] == w[n-2] && isConsonant(w, n-1)
}

// endsCVC is *o: consonant-vowel-consonant with the last not w, x or y;
// NLTK also accepts a two-letter vowel-consonant word.
func endsCVC(w []byte) bool {
	n := len(w)
	if n >= 3 && isConsonant(w, n-3) && !isConsonant(w, n-2) && isConsonant(w, n-1) &&
		w[n-1] != 'w' && w[n-1] != 'x' && w[n-1] != 'y' {
		return true
	}
	return n == 2 && !isConsonant(w, 0) && isConsonant(w, 1)
}

// hasSuffix reports whether w ends with suf (not empty). The last bytes
// are compared first: most suffixes of the rules differ there.
func hasSuffix(w []byte, suf string) bool {
	n := len(w) - len(suf)
	return n >= 0 && w[len(w)-1] == suf[len(suf)-1] && string(w[n:]) == suf
}

// replace swaps the suffix of length n for repl.
func replace(w []byte, n int, repl string) []byte {
	return append(w[:len(w)-n], repl...)
}

// rule is one suffix rule: when the word ends with suffix and cond holds
// for the stem (the word without the suffix), the suffix becomes repl.
type rule struct {
	suffix, repl string
	cond         cond
}

// cond is a rule's condition on the stem. It is a value, not a function,
// so that the word buffer of Stem stays on the stack.
type cond uint8

// Conditions of the rules.
const (
	always      cond = iota
	measureGT0       // measure(stem) > 0
	measureGT1       // measure(stem) > 1
	logiMeasure      // measure(stem + 'l') > 0 (NLTK's 'logi' rule)
	ionMeasure       // measure(stem) > 1 and stem ends in 's' or 't'
)

// holds reports whether c holds for stem.
func (c cond) holds(stem []byte) bool {
	switch c {
	case measureGT0:
		return measure(stem) > 0
	case measureGT1:
		return measure(stem) > 1
	case logiMeasure:
		return measure(stem[:len(stem)+1]) > 0
	case ionMeasure:
		return measure(stem) > 1 && (stem[len(stem)-1] == 's' || stem[len(stem)-1] == 't')
	}
	return true
}

// applyRules applies the first rule whose suffix matches; when that rule's
// condition fails, the word is returned unchanged (no later rule is tried).
func applyRules(w []byte, rules []rule) []byte {
	for _, r := range rules {
		if hasSuffix(w, r.suffix) {
			stem := w[:len(w)-len(r.suffix)]
			if r.cond.holds(stem) {
				return append(stem, r.repl...)
			}
			return w
		}
	}
	return w
}

func positiveMeasure(stem []byte) bool { return measure(stem) > 0 }

func step1a(w []byte) []byte {
	if hasSuffix(w, "ies") && len(w) == 4 {
		return replace(w, 3, "ie")
	}
	switch {
	case hasSuffix(w, "sses"):
		return replace(w, 4, "ss")
	case hasSuffix(w, "ies"):
		return replace(w, 3, "i")
	case hasSuffix(w, "ss"):
		return w
	case hasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

func step1b(w []byte) []byte {
	if hasSuffix(w, "ied") {
		if len(w) == 4 {
			return replace(w, 3, "ie")
		}
		return replace(w, 3, "i")
	}
	if hasSuffix(w, "eed") {
		if measure(w[:len(w)-3]) > 0 {
			return w[:len(w)-1]
		}
		return w
	}
	var stem []byte
	ok := false
	for _, suf := range [...]string{"ed", "ing"} {
		if hasSuffix(w, suf) {
			s := w[:len(w)-len(suf)]
			if containsVowel(s) {
				stem, ok = s, true
				break
			}
		}
	}
	if !ok {
		return w
	}
	switch {
	case hasSuffix(stem, "at"):
		return append(stem, 'e')
	case hasSuffix(stem, "bl"):
		return append(stem, 'e')
	case hasSuffix(stem, "iz"):
		return append(stem, 'e')
	case endsDoubleConsonant(stem):
		last := stem[len(stem)-1]
		if last != 'l' && last != 's' && last != 'z' {
			return stem[:len(stem)-1]
		}
		return stem
	case measure(stem) == 1 && endsCVC(stem):
		return append(stem, 'e')
	}
	return stem
}

func step1c(w []byte) []byte {
	if hasSuffix(w, "y") {
		stem := w[:len(w)-1]
		if len(stem) > 1 && isConsonant(stem, len(stem)-1) {
			return replace(w, 1, "i")
		}
	}
	return w
}

var step2Rules = []rule{
	{"ational", "ate", measureGT0},
	{"tional", "tion", measureGT0},
	{"enci", "ence", measureGT0},
	{"anci", "ance", measureGT0},
	{"izer", "ize", measureGT0},
	{"bli", "ble", measureGT0},
	{"alli", "al", measureGT0},
	{"entli", "ent", measureGT0},
	{"eli", "e", measureGT0},
	{"ousli", "ous", measureGT0},
	{"ization", "ize", measureGT0},
	{"ation", "ate", measureGT0},
	{"ator", "ate", measureGT0},
	{"alism", "al", measureGT0},
	{"iveness", "ive", measureGT0},
	{"fulness", "ful", measureGT0},
	{"ousness", "ous", measureGT0},
	{"aliti", "al", measureGT0},
	{"iviti", "ive", measureGT0},
	{"biliti", "ble", measureGT0},
	{"fulli", "ful", measureGT0},
	// NLTK keeps the 'l' of 'logi' with the stem for the measure, so that
	// short stems such as 'geo' and 'theo' behave like 'archaeo'.
	{"logi", "log", logiMeasure},
}

func step2(w []byte) []byte {
	if hasSuffix(w, "alli") && positiveMeasure(w[:len(w)-4]) {
		return step2(replace(w, 4, "al"))
	}
	return applyRules(w, step2Rules)
}

var step3Rules = []rule{
	{"icate", "ic", measureGT0},
	{"ative", "", measureGT0},
	{"alize", "al", measureGT0},
	{"iciti", "ic", measureGT0},
	{"ical", "ic", measureGT0},
	{"ful", "", measureGT0},
	{"ness", "", measureGT0},
}

func step3(w []byte) []byte { return applyRules(w, step3Rules) }

var step4Rules = []rule{
	{"al", "", measureGT1},
	{"ance", "", measureGT1},
	{"ence", "", measureGT1},
	{"er", "", measureGT1},
	{"ic", "", measureGT1},
	{"able", "", measureGT1},
	{"ible", "", measureGT1},
	{"ant", "", measureGT1},
	{"ement", "", measureGT1},
	{"ment", "", measureGT1},
	{"ent", "", measureGT1},
	{"ion", "", ionMeasure},
	{"ou", "", measureGT1},
	{"ism", "", measureGT1},
	{"ate", "", measureGT1},
	{"iti", "", measureGT1},
	{"ous", "", measureGT1},
	{"ive", "", measureGT1},
	{"ize", "", measureGT1},
}

func step4(w []byte) []byte { return applyRules(w, step4Rules) }

func step5a(w []byte) []byte {
	if hasSuffix(w, "e") {
		stem := w[:len(w)-1]
		m := measure(stem)
		if m > 1 || (m == 1 && !endsCVC(stem)) {
			return stem
		}
	}
	return w
}

func step5b(w []byte) []byte {
	if hasSuffix(w, "ll") && measure(w[:len(w)-1]) > 1 {
		return w[:len(w)-1]
	}
	return w
}
