package bleu

import (
	"strings"
	"unicode/utf8"
)

// oracleTokenizers are the tokenizers written plainly: 13a as one pass per
// regex substitution, none as strings.FieldsFunc with Python's
// whitespace, char as one token per character (an invalid byte being a
// character of its own).
var oracleTokenizers = map[string]func(string) []string{
	Tokenizer13a: tokenize13aRef,
	TokenizerNone: func(s string) []string {
		return strings.FieldsFunc(s, isPySpace)
	},
	TokenizerChar: func(s string) []string {
		var out []string
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			if !isPySpace(r) {
				out = append(out, s[i:i+size])
			}
			i += size
		}
		return out
	},
}

// oracleGram is an n-gram of tokens, n <= MaxOrder.
type oracleGram struct {
	toks [MaxOrder]string
	n    int
}

// oracleNgrams counts the 1- to 4-grams of toks with a map.
func oracleNgrams(toks []string) map[oracleGram]int {
	m := make(map[oracleGram]int)
	for i := range toks {
		var g oracleGram
		for n := 0; n < MaxOrder && i+n < len(toks); n++ {
			g.toks[n] = toks[i+n]
			g.n = n + 1
			m[g]++
		}
	}
	return m
}

// oracleStats is sacrebleu's segment statistics written plainly with
// maps: references right-stripped and tokenized, empty ones skipped, each
// n-gram's highest count in one reference, hypothesis n-grams clipped to
// it, and the closest reference length (the shorter on a tie).
func oracleStats(tokenizer, hyp string, refs []string) (Stats, error) {
	tok := oracleTokenizers[tokenizer]
	refMax := make(map[oracleGram]int)
	var refLens []int
	for _, r := range refs {
		if r == "" {
			continue
		}
		toks := tok(rstrip(r))
		refLens = append(refLens, len(toks))
		for g, c := range oracleNgrams(toks) {
			refMax[g] = max(refMax[g], c)
		}
	}
	if len(refLens) == 0 {
		return Stats{}, ErrEmptyReference
	}
	h := tok(rstrip(hyp))
	st := Stats{SysLen: len(h), RefLen: refLens[0]}
	for _, l := range refLens {
		d, best := abs(l-len(h)), abs(st.RefLen-len(h))
		if d < best || d == best && l < st.RefLen {
			st.RefLen = l
		}
	}
	for g, c := range oracleNgrams(h) {
		st.Total[g.n-1] += c
		st.Correct[g.n-1] += min(c, refMax[g])
	}
	return st, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
