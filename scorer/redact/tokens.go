package redact

import (
	"regexp"
	"strings"
)

// regexDetector finds one token format. The regexp runs only when s
// contains one of the literal prefixes; group 1, when present, is the span
// replaced.
type regexDetector struct {
	typ      string
	prefixes []string
	re       *regexp.Regexp
	// check, when set, must accept the matched token.
	check func(tok string) bool
	prio  int
}

func (d regexDetector) find(s string, dst []match) []match {
	if len(d.prefixes) > 0 {
		hit := false
		for _, p := range d.prefixes {
			if strings.Contains(s, p) {
				hit = true
				break
			}
		}
		if !hit {
			return dst
		}
	}
	for _, loc := range d.re.FindAllStringSubmatchIndex(s, -1) {
		start, end := loc[0], loc[1]
		if len(loc) >= 4 && loc[2] >= 0 {
			start, end = loc[2], loc[3]
		}
		if d.check != nil && !d.check(s[start:end]) {
			continue
		}
		dst = append(dst, match{start: start, end: end, typ: d.typ, prio: d.prio})
	}
	return dst
}

// hasDigitAndLetter reports whether tok mixes digits and letters, as
// random key material does (and kebab-case words do not).
func hasDigitAndLetter(tok string) bool {
	d, l := false, false
	for i := 0; i < len(tok); i++ {
		d = d || isDigit(tok[i])
		l = l || isAlpha(tok[i])
	}
	return d && l
}

// tokenDetectors returns the API key and JWT formats.
func tokenDetectors() []regexDetector {
	return []regexDetector{
		{typ: TypeJWT, prefixes: []string{"eyJ"},
			re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`)},
		{typ: TypeAPIKey, prefixes: []string{"sk-"},
			re:    regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{20,}`),
			check: hasDigitAndLetter},
		{typ: TypeAPIKey, prefixes: []string{"AKIA", "ASIA"},
			re: regexp.MustCompile(`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`)},
		{typ: TypeAPIKey, prefixes: []string{"gh"},
			re:    regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})`),
			check: hasDigitAndLetter},
		{typ: TypeAPIKey, prefixes: []string{"xox"},
			re:    regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9-]{10,}`),
			check: hasDigitAndLetter},
		{typ: TypeAPIKey, prefixes: []string{"AIza"},
			re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{30,}`)},
	}
}

// bearerDetector finds the token after "Bearer".
type bearerDetector struct{ prio int }

var bearerRE = regexp.MustCompile(`(?i)\bbearer[ \t]+([A-Za-z0-9._~+/-]+=*)`)

func (d bearerDetector) find(s string, dst []match) []match {
	if !containsFold(s, "bearer") {
		return dst
	}
	return regexDetector{typ: TypeBearer, re: bearerRE, check: bearerToken, prio: d.prio}.find(s, dst)
}

// bearerToken accepts tokens of at least 16 characters, or 8 with a digit,
// so that prose such as "bearer of bad news" is kept.
func bearerToken(tok string) bool {
	if len(tok) >= 16 {
		return true
	}
	return len(tok) >= 8 && strings.ContainsAny(tok, "0123456789")
}

// authHeaderDetector finds the value of Authorization headers.
type authHeaderDetector struct{ prio int }

var authRE = regexp.MustCompile(`(?i)\b(?:proxy-)?authorization\b["']?[ \t]*[:=][ \t]*["']?((?:[A-Za-z][A-Za-z0-9-]* +)?[A-Za-z0-9._~+/:=-]{8,})`)

func (d authHeaderDetector) find(s string, dst []match) []match {
	if !containsFold(s, "authorization") {
		return dst
	}
	return regexDetector{typ: TypeBearer, re: authRE, check: hasDigitOrLong, prio: d.prio}.find(s, dst)
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
