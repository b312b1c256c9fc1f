package rouge

import (
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer/text/rouge/porter"
)

// Tokenize splits text as rouge-score's tokenize.tokenize does:
//
//  1. Python str.lower();
//  2. every run of characters outside [a-z0-9] becomes a separator, so
//     any non-ASCII letter splits a word ("Café" -> "caf", "naïve" ->
//     "na", "ve") and CJK text vanishes;
//  3. with stem set, tokens longer than three characters are replaced by
//     their NLTK Porter stem;
//  4. empty tokens are dropped.
//
// The only non-ASCII characters whose Python lowercase contains [a-z0-9]
// are U+0130 (İ -> "i" + U+0307, so "İstanbul" gives "i", "stanbul") and
// U+212A KELVIN SIGN (-> "k"); both are handled. Invalid UTF-8 bytes are
// separators.
func Tokenize(text string, stem bool) []string {
	lower := make([]byte, 0, len(text))
	for _, r := range text {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			lower = append(lower, byte(r))
		case r >= 'A' && r <= 'Z':
			lower = append(lower, byte(r)+'a'-'A')
		case r == '\u212a': // KELVIN SIGN
			lower = append(lower, 'k')
		case r == '\u0130': // LATIN CAPITAL LETTER I WITH DOT ABOVE
			lower = append(lower, 'i', ' ')
		default:
			lower = append(lower, ' ')
		}
	}
	toks := strings.Fields(string(lower))
	if !stem {
		return toks
	}
	stems := make(map[string]string) // a text repeats its words
	out := toks[:0]
	for _, t := range toks {
		if len(t) > 3 {
			s, ok := stems[t]
			if !ok {
				s = porter.Stem(t)
				stems[t] = s
			}
			t = s
		}
		if t != "" {
			out = append(out, t)
		}
	}
	return out
}
