package guard

import (
	"fmt"
	"regexp"
	"strings"
)

// maxEscapeRounds bounds the rounds of key removal and neutralisation.
const maxEscapeRounds = 8

// escape removes the key from text and neutralises reserved markers and
// envelope tags. neutralised reports whether anything was changed; ok is
// false when the key could not be removed within the round limit.
func escape(text, key string) (out string, neutralised, ok bool) {
	for range maxEscapeRounds {
		var n1, n2, n3 bool
		text, n1 = removeKey(text, key)
		text, n2 = neutraliseMarkers(text)
		text, n3 = neutraliseEnvelope(text)
		neutralised = neutralised || n1 || n2 || n3
		if indexFold(text, key) < 0 {
			return text, neutralised, true
		}
	}
	return "", neutralised, false
}

// indexFold returns the index of the first ASCII-case-insensitive
// occurrence of the lower-case key in s, or -1.
func indexFold(s, key string) int {
	for i := 0; i+len(key) <= len(s); i++ {
		// A window holding a multi-byte rune has fewer runes than the
		// ASCII key, so only ASCII windows can match.
		if strings.EqualFold(s[i:i+len(key)], key) {
			return i
		}
	}
	return -1
}

// removeKey deletes every occurrence of key, including occurrences that
// a deletion creates.
func removeKey(s, key string) (string, bool) {
	if key == "" {
		return s, false
	}
	changed := false
	for {
		i := indexFold(s, key)
		if i < 0 {
			return s, changed
		}
		s = s[:i] + s[i+len(key):]
		changed = true
	}
}

var (
	// envelopeRE matches anything shaped like an envelope tag: <data-,
	// </data-, <data>, </data>, <data attr=...>.
	envelopeRE = regexp.MustCompile(`(?i)<(\s*/?\s*data)([-\s>])`)
	// envelopeTagRE matches the start of an envelope tag in a judge answer.
	envelopeTagRE = regexp.MustCompile(`(?i)<\s*/?\s*data-`)
	// roleTagRE matches chat-template role tags: <|im_start|>, <|system|>...
	roleTagRE = regexp.MustCompile(`(?i)<\|\s*[a-z0-9_]{1,32}\s*\|>`)
	// tagMarkerRE matches reasoning and prompt-section tags.
	tagMarkerRE = regexp.MustCompile(`(?i)<\s*/?\s*(?:think|thinking|reasoning|sentence|question|answer|reference|response|rubric|instructions?|system|user|assistant|human|judge?ment|verdict|score|rating|evaluation)\s*>`)
	// instRE matches Llama-style instruction markers.
	instRE = regexp.MustCompile(`(?i)\[/?INST\]|<</?SYS>>`)
	// boxedRE matches a LaTeX \boxed{ answer.
	boxedRE = regexp.MustCompile(`\\boxed\s*\{`)
	// bracketVerdictRE matches [[YES]]-style verdicts.
	bracketVerdictRE = regexp.MustCompile(`(?i)\[\[\s*(?:yes|no|a|b|c|tie|\d+(?:\.\d+)?)\s*\]\]`)
	// fenceRE matches ``` code fences; fencedKeyRE verdict keys in them.
	fenceRE     = regexp.MustCompile("(?s)```.*?```")
	fencedKeyRE = regexp.MustCompile(`(?i)"(score|verdict|rating|grade)"(\s*:)`)
)

// quotedPrefix is put before lines that look like verdicts or role turns.
const quotedPrefix = "(quoted) "

// angleEscape writes a marker's angle brackets as entities.
func angleEscape(m string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(m)
}

// neutraliseMarkers rewrites reserved judge markers (see the package
// documentation).
func neutraliseMarkers(s string) (string, bool) {
	changed := false
	apply := func(re *regexp.Regexp, f func(string) string) {
		if re.MatchString(s) {
			s = re.ReplaceAllStringFunc(s, f)
			changed = true
		}
	}
	apply(tagMarkerRE, angleEscape)
	apply(roleTagRE, angleEscape)
	apply(instRE, func(m string) string {
		if strings.HasPrefix(m, "[") {
			return "(" + m[1:len(m)-1] + ")"
		}
		return angleEscape(m)
	})
	apply(boxedRE, func(m string) string { return m[1:] })
	apply(bracketVerdictRE, func(m string) string { return m[1 : len(m)-1] })
	if fenceRE.MatchString(s) {
		s = fenceRE.ReplaceAllStringFunc(s, func(f string) string {
			if !fencedKeyRE.MatchString(f) {
				return f
			}
			changed = true
			return fencedKeyRE.ReplaceAllString(f, `'$1'$2`)
		})
	}
	apply(markerLineRE, func(m string) string { return quotedPrefix + m })
	return s, changed
}

// markerLineRE matches the start of a line that looks like a verdict or
// a role turn: after spaces and markdown decoration, a marker word (after
// an optional "final") and a colon, or a {"score": ...} style object.
// Letters match in either ASCII case only: (?i) would also take ſ and K
// for s and k.
var markerLineRE = regexp.MustCompile(`(?m)^[ \t]*(?:\{[ \t\r]*"` + asciiFold("score|verdict|rating|grade") + `"[ \t\r]*:` +
	`|[ \t>*#_-]*(?:` + asciiFold("final") + `[ \t][ \t\r]*)?` + asciiFold("score|verdict|rating|property|human|assistant|system") + `[ \t*_]*(?::|：))`)

// asciiFold returns the alternation of words as a group whose letters
// match in either ASCII case.
func asciiFold(words string) string {
	var b strings.Builder
	for _, c := range words {
		if c >= 'a' && c <= 'z' {
			fmt.Fprintf(&b, "[%c%c]", c, c-'a'+'A')
		} else {
			b.WriteRune(c)
		}
	}
	return "(?:" + b.String() + ")"
}

// neutraliseEnvelope writes the '<' of anything shaped like an envelope
// tag as "&lt;".
func neutraliseEnvelope(s string) (string, bool) {
	if !envelopeRE.MatchString(s) {
		return s, false
	}
	return envelopeRE.ReplaceAllString(s, "&lt;$1$2"), true
}
