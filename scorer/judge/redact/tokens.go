package redact

import (
	"regexp"
	"strings"
)

// regexDetector finds one token format. Its regexp, anchored at the
// start, runs only where one of the literal prefixes occurs (ASCII case
// folded when fold is set), so text without a prefix costs one substring
// search per prefix. Group 1, when present, is the span replaced.
type regexDetector struct {
	typ      string
	prefixes []string
	fold     bool
	// wordStart requires a non-word byte (or the start) before the prefix.
	wordStart bool
	re        *regexp.Regexp
	// check, when set, must accept the matched token.
	check func(tok string) bool
	prio  int
}

// regexWindow bounds the text one anchored match may span.
const regexWindow = 8192

func (d regexDetector) find(s string, dst []match) []match {
	for _, p := range d.prefixes {
		for off := 0; off < len(s); {
			i := -1
			if d.fold {
				i = indexFold(s, p, off)
			} else if k := strings.Index(s[off:], p); k >= 0 {
				i = off + k
			}
			if i < 0 {
				break
			}
			off = i + 1
			if d.wordStart && i > 0 && isWord(s[i-1]) {
				continue
			}
			loc := d.re.FindStringSubmatchIndex(s[i:min(len(s), i+regexWindow)])
			if loc == nil {
				continue
			}
			start, end := loc[0], loc[1]
			if len(loc) >= 4 && loc[2] >= 0 {
				start, end = loc[2], loc[3]
			}
			if end <= start || d.check != nil && !d.check(s[i+start:i+end]) {
				continue
			}
			dst = append(dst, match{start: i + start, end: i + end, typ: d.typ, prio: d.prio})
			off = i + loc[1]
		}
	}
	return dst
}

// hasDigitAndLetter reports whether tok mixes digits and letters, as
// random key material does (and kebab-case words do not).
func hasDigitAndLetter(tok string) bool {
	return hasDigit(tok) && strings.ContainsFunc(tok, isAlphaRune)
}

// hasDigit reports whether s has an ASCII digit.
func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// tokenDetectors returns the API key and JWT formats.
func tokenDetectors() []regexDetector {
	return []regexDetector{
		{typ: TypeJWT, prefixes: []string{"eyJ"}, wordStart: true,
			re: regexp.MustCompile(`^eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`)},
		{typ: TypeAPIKey, prefixes: []string{"sk-"}, wordStart: true,
			re:    regexp.MustCompile(`^sk-[A-Za-z0-9_-]{20,}`),
			check: hasDigitAndLetter},
		{typ: TypeAPIKey, prefixes: []string{"AKIA", "ASIA"}, wordStart: true,
			re: regexp.MustCompile(`^(?:AKIA|ASIA)[A-Z0-9]{16}\b`)},
		{typ: TypeAPIKey, prefixes: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, wordStart: true,
			re:    regexp.MustCompile(`^(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})`),
			check: hasDigitAndLetter},
		{typ: TypeAPIKey, prefixes: []string{"xox"}, wordStart: true,
			re:    regexp.MustCompile(`^xox[abprs]-[A-Za-z0-9-]{10,}`),
			check: hasDigitAndLetter},
		{typ: TypeAPIKey, prefixes: []string{"AIza"}, wordStart: true,
			re: regexp.MustCompile(`^AIza[0-9A-Za-z_-]{30,}`)},
	}
}

// bearerDetector finds the token after "Bearer".
func bearerDetector(prio int) regexDetector {
	return regexDetector{
		typ: TypeBearer, prefixes: []string{"bearer"}, fold: true, wordStart: true,
		re:    regexp.MustCompile(`^(?i)bearer[ \t]+([A-Za-z0-9._~+/-]+=*)`),
		check: bearerToken, prio: prio,
	}
}

// bearerToken accepts tokens of at least 16 characters, or 8 with a digit,
// so that prose such as "bearer of bad news" is kept.
func bearerToken(tok string) bool {
	if len(tok) >= 16 {
		return true
	}
	return len(tok) >= 8 && hasDigit(tok)
}

// authHeaderDetector finds the value of Authorization and
// Proxy-Authorization headers.
func authHeaderDetector(prio int) regexDetector {
	return regexDetector{
		typ: TypeBearer, prefixes: []string{"authorization"}, fold: true, wordStart: true,
		re:    regexp.MustCompile(`^(?i)authorization\b["']?[ \t]*[:=][ \t]*["']?((?:[A-Za-z][A-Za-z0-9-]* +)?[A-Za-z0-9._~+/:=-]{8,})`),
		check: hasDigitOrLong, prio: prio,
	}
}

// hasDigitOrLong accepts credential-looking header values.
func hasDigitOrLong(v string) bool {
	return bearerToken(v[strings.LastIndexByte(v, ' ')+1:])
}

// customDetector is a configured extra pattern.
type customDetector struct {
	typ  string
	re   *regexp.Regexp
	prio int
}

func (d customDetector) find(s string, dst []match) []match {
	for _, loc := range d.re.FindAllStringIndex(s, -1) {
		if loc[1] > loc[0] {
			dst = append(dst, match{start: loc[0], end: loc[1], typ: d.typ, prio: d.prio})
		}
	}
	return dst
}
