package guard

import (
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
	if key == "" {
		return 0
	}
	for i := 0; i+len(key) <= len(s); i++ {
		j := 0
		for j < len(key) {
			c := s[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != key[j] {
				break
			}
			j++
		}
		if j == len(key) {
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
	if out, ok := quoteMarkerLines(s); ok {
		s, changed = out, true
	}
	return s, changed
}

// lineMarkerWords start lines that look like a verdict or a role turn.
var lineMarkerWords = []string{"score", "verdict", "rating", "property", "human", "assistant", "system"}

// jsonMarkerKeys are the keys of verdict objects.
var jsonMarkerKeys = []string{"score", "verdict", "rating", "grade"}

// quoteMarkerLines prefixes with quotedPrefix every line that starts (after
// spaces and markdown decoration) with a marker word and a colon, or with
// a {"score": ...} style object.
func quoteMarkerLines(s string) (string, bool) {
	var b strings.Builder
	last := 0
	for start := 0; start < len(s); {
		end := strings.IndexByte(s[start:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		if isMarkerLine(s[start:end]) {
			b.WriteString(s[last:start])
			b.WriteString(quotedPrefix)
			last = start
		}
		start = end + 1
	}
	if last == 0 && b.Len() == 0 {
		return s, false
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// isMarkerLine reports whether line starts like a verdict, a role turn or
// a verdict object.
func isMarkerLine(line string) bool {
	i := 0
	for i < len(line) && line[i] == ' ' || i < len(line) && line[i] == '\t' {
		i++
	}
	if i < len(line) && line[i] == '{' {
		j := skipSpaces(line, i+1)
		if j < len(line) && line[j] == '"' {
			if k := matchWord(line, j+1, jsonMarkerKeys); k > 0 && k < len(line) && line[k] == '"' {
				k = skipSpaces(line, k+1)
				return k < len(line) && line[k] == ':'
			}
		}
		return false
	}
	for i < len(line) && strings.IndexByte(" \t>*#_-", line[i]) >= 0 {
		i++
	}
	if hasPrefixFold(line[i:], "final") {
		if j := i + len("final"); j < len(line) && (line[j] == ' ' || line[j] == '\t') {
			i = skipSpaces(line, j)
		}
	}
	k := matchWord(line, i, lineMarkerWords)
	if k < 0 {
		return false
	}
	for k < len(line) && strings.IndexByte(" \t*_", line[k]) >= 0 {
		k++
	}
	return strings.HasPrefix(line[k:], ":") || strings.HasPrefix(line[k:], "：")
}

// matchWord returns the index after the word of words (ASCII case
// ignored) that starts line[i:], or -1.
func matchWord(line string, i int, words []string) int {
	for _, w := range words {
		if hasPrefixFold(line[i:], w) {
			return i + len(w)
		}
	}
	return -1
}

func skipSpaces(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
		i++
	}
	return i
}

// hasPrefixFold reports whether s starts with the lower-case ASCII word w,
// ignoring case.
func hasPrefixFold(s, w string) bool {
	return len(s) >= len(w) && indexFold(s[:len(w)], w) == 0
}

// neutraliseEnvelope writes the '<' of anything shaped like an envelope
// tag as "&lt;".
func neutraliseEnvelope(s string) (string, bool) {
	if !envelopeRE.MatchString(s) {
		return s, false
	}
	return envelopeRE.ReplaceAllString(s, "&lt;$1$2"), true
}
