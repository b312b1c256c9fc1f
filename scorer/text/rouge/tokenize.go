package rouge

import (
	"unicode/utf8"

	"github.com/evalsidecar/evalsidecar/scorer/text/ngram"
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
	toks := words(text)
	if !stem {
		return toks
	}
	out := toks[:0]
	for _, w := range toks {
		if t := stemmed(w); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// words returns the tokens of text before stemming (steps 1, 2 and 4 of
// Tokenize): the [a-z0-9] runs of its lowercase form.
func words(text string) []string {
	lower := make([]byte, 0, len(text)) // no character lowercases to more bytes than it has
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			lower = append(lower, c)
		case c >= 'A' && c <= 'Z':
			lower = append(lower, c+'a'-'A')
		case c < utf8.RuneSelf:
			lower = append(lower, ' ')
		default:
			r, size := utf8.DecodeRuneInString(text[i:])
			switch r {
			case '\u212a': // KELVIN SIGN
				lower = append(lower, 'k')
			case '\u0130': // LATIN CAPITAL LETTER I WITH DOT ABOVE
				lower = append(lower, 'i', ' ')
			default:
				lower = append(lower, ' ')
			}
			i += size
			continue
		}
		i++
	}
	s := string(lower)
	n := 0 // tokens: a token starts where a byte other than ' ' follows ' ' or the start
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && (i == 0 || s[i-1] == ' ') {
			n++
		}
	}
	toks := make([]string, 0, n)
	start := -1 // start of the current token, or -1
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] != ' ' && start < 0:
			start = i
		case s[i] == ' ' && start >= 0:
			toks = append(toks, s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		toks = append(toks, s[start:])
	}
	return toks
}

// stemmed is the token a word becomes with stemming: its Porter stem
// when longer than three characters, else the word.
func stemmed(word string) string {
	if len(word) > 3 {
		return porter.Stem(word)
	}
	return word
}

// stemNumbers numbers the stems of words, a vocabulary's tokens each at
// its number: ids[w] is the number of word w's stem, or -1 when the stem
// is empty, and stems holds the stems, each at its number.
func stemNumbers(words []string) (ids []int32, stems []string) {
	var v ngram.Vocabulary
	ids = make([]int32, len(words))
	for i, w := range words {
		ids[i] = -1
		if t := stemmed(w); t != "" {
			ids[i] = v.ID(t)
		}
	}
	return ids, v.Tokens()
}

// renumber returns seq with each number w replaced by ids[w], dropping
// those that are -1.
func renumber(seq, ids []int32) []int32 {
	out := make([]int32, 0, len(seq))
	for _, w := range seq {
		if ids[w] >= 0 {
			out = append(out, ids[w])
		}
	}
	return out
}
