// Package rouge computes ROUGE-N, ROUGE-L and ROUGE-Lsum exactly as
// Google's rouge-score 0.1.2 (rouge_scorer.RougeScorer) does: its
// tokenizer, NLTK 3.8's Porter stemmer applied only to tokens longer than
// three characters, clipped n-gram counts, LCS, and the summary-level
// union-LCS with token budgets. Every score is a precision, recall and
// F-measure; the F-measure is what Vertex AI and Google ADK report.
package rouge

import (
	"unicode/utf8"

	"github.com/evalsidecar/evalsidecar/scorer/rouge/porter"
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
	return appendTokens(nil, text, newStems(stem))
}

// stems caches the Porter stems of the tokens of one scoring call: texts
// repeat their words, and a stem costs far more than a map lookup. A nil
// stems does not stem.
type stems map[string]string

// newStems returns an empty cache when stem is set, else nil.
func newStems(stem bool) stems {
	if !stem {
		return nil
	}
	return make(stems)
}

// of returns the stem of tok: NLTK's Porter stem for tokens longer than
// three characters, tok itself otherwise.
func (c stems) of(tok string) string {
	if len(tok) <= 3 {
		return tok
	}
	if s, ok := c[tok]; ok {
		return s
	}
	s := porter.Stem(tok)
	c[tok] = s
	return s
}

// appendTokens appends the tokens of text to dst, stemmed with st when it
// is not nil.
func appendTokens(dst []string, text string, st stems) []string {
	start := -1    // start of the current token in text, when it is a plain substring
	var buf []byte // the current token when it had to be rewritten
	rewrite := false
	flush := func(end int) {
		var tok string
		switch {
		case rewrite:
			tok = string(buf)
		case start >= 0:
			tok = text[start:end]
		default:
			return
		}
		start, rewrite, buf = -1, false, buf[:0]
		if tok == "" {
			return
		}
		if st != nil {
			if tok = st.of(tok); tok == "" {
				return
			}
		}
		dst = append(dst, tok)
	}
	// toRewrite switches the current token to the rewritten buffer.
	toRewrite := func(i int) {
		if !rewrite {
			buf = buf[:0]
			if start >= 0 {
				buf = append(buf, text[start:i]...)
			}
			rewrite = true
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			switch {
			case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
				if rewrite {
					buf = append(buf, c)
				} else if start < 0 {
					start = i
				}
			case c >= 'A' && c <= 'Z':
				toRewrite(i)
				buf = append(buf, c+'a'-'A')
			default:
				flush(i)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch r {
		case '\u212a': // KELVIN SIGN lowercases to ASCII 'k'
			toRewrite(i)
			buf = append(buf, 'k')
		case '\u0130': // İ lowercases to "i" + U+0307, which separates
			toRewrite(i)
			buf = append(buf, 'i')
			flush(i + size)
		default:
			flush(i)
		}
		i += size
	}
	flush(len(text))
	return dst
}
