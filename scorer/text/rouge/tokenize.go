package rouge

import (
	"strings"
	"unicode/utf8"

	"github.com/evalsidecar/evalsidecar/scorer/text/ngram"
	"github.com/evalsidecar/evalsidecar/scorer/text/rouge/porter"
)

// words returns the tokens of text before stemming (steps 1 and 2 below):
// the [a-z0-9] runs of its lowercase form. breaks[k] is the number of
// tokens before the k-th newline. Text is tokenized as rouge-score's
// tokenize.tokenize does:
//
//  1. Python str.lower();
//  2. every run of characters outside [a-z0-9] becomes a separator, so
//     any non-ASCII letter splits a word ("Café" -> "caf", "naïve" ->
//     "na", "ve") and CJK text vanishes;
//  3. with stemming, tokens longer than three characters are replaced by
//     their NLTK Porter stem (never empty: rouge-score's final filter of
//     empty tokens has nothing to drop; see stemmed).
//
// The only non-ASCII characters whose Python lowercase contains [a-z0-9]
// are U+0130 (İ -> "i" + U+0307, so "İstanbul" gives "i", "stanbul") and
// U+212A KELVIN SIGN (-> "k"); both are handled. Invalid UTF-8 bytes are
// separators.
func words(text string) (toks []string, breaks []int) {
	var lower strings.Builder // its String is the text without a copy
	lower.Grow(len(text))     // no character lowercases to more bytes than it has
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case isKept(c): // copied with the run of such bytes it starts
			j := i + 1
			for j < len(text) && isKept(text[j]) {
				j++
			}
			lower.WriteString(text[i:j])
			i = j
			continue
		case c >= 'A' && c <= 'Z':
			lower.WriteByte(c + 'a' - 'A')
		case c < utf8.RuneSelf:
			lower.WriteByte(' ')
		default:
			r, size := utf8.DecodeRuneInString(text[i:])
			switch r {
			case '\u212a': // KELVIN SIGN
				lower.WriteByte('k')
			case '\u0130': // LATIN CAPITAL LETTER I WITH DOT ABOVE
				lower.WriteString("i ")
			default:
				lower.WriteByte(' ')
			}
			i += size
			continue
		}
		i++
	}
	// lower holds tokens separated by ' ' and '\n'
	s := lower.String()
	n := 0 // tokens: a token starts where a byte other than a separator follows one or the start
	for i := 0; i < len(s); i++ {
		if !isSeparator(s[i]) && (i == 0 || isSeparator(s[i-1])) {
			n++
		}
	}
	toks = make([]string, 0, n)
	for i := 0; i < len(s); {
		switch s[i] {
		case ' ':
			i++
		case '\n':
			breaks = append(breaks, len(toks))
			i++
		default: // a token: up to the next separator
			j := i + 1
			for j < len(s) && !isSeparator(s[j]) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks, breaks
}

func isSeparator(c byte) bool { return c == ' ' || c == '\n' }

// isKept reports whether c stays as it is in the lowercase text.
func isKept(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '\n' }

// stemmed is the token a word becomes with stemming: its Porter stem
// when longer than three characters, else the word.
func stemmed(word string) string {
	if len(word) > 3 {
		return porter.Stem(word)
	}
	return word
}

// stemNumbers numbers the stems of words, a vocabulary's tokens each at
// its number: ids[w] is the number of word w's stem, and stems holds the
// stems, each at its number.
func stemNumbers(words []string) (ids []int32, stems []string) {
	stems = make([]string, len(words))
	for i, w := range words {
		stems[i] = stemmed(w)
	}
	var v ngram.Vocabulary
	return v.IDs(stems), v.Tokens()
}
