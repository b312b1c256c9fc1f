package redact

import (
	"math"
	"slices"
	"strings"
)

// cloudKeyDetector finds cloud credentials that carry no prefix, bare in
// free text: AWS secret access keys (40 base64 characters mixing upper
// and lower case, random enough, and more random still without AWS or
// secret wording just before), Azure storage account keys
// (86 base64 characters and "==") and Azure AD client secrets (3
// characters, a digit, "Q~", 31 to 34 more). Git hashes, trace ids and
// UUIDs are hex and never mix cases, so they are kept.
type cloudKeyDetector struct{ prio int }

// Entropy floors, in bits per character, for a 40-character AWS secret
// key: random base64 of that length averages about 4.9.
const (
	awsEntropyWithContext = 4.3
	awsEntropyBare        = 4.5
	awsContextWindow      = 160
)

// b64 marks the bytes of standard base64 text, padding aside.
var b64 = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isAlpha(byte(c)) || isDigit(byte(c)) || c == '+' || c == '/'
	}
	return t
}()

func isAzureSecretByte(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '_' || c == '~' || c == '.' || c == '-'
}

func (d cloudKeyDetector) find(s string, dst []match) []match {
	for i := 0; i < len(s); {
		for i < len(s) && !b64[s[i]] {
			i++
		}
		j := i
		for j < len(s) && b64[s[j]] {
			j++
		}
		if j-i < 40 {
			i = j
			continue
		}
		start := i
		if start > 0 && s[start-1] == '\\' && j-start > 1 {
			start++ // the letter of an escape such as \n
		}
		pad := j
		for pad < len(s) && pad-j < 2 && s[pad] == '=' {
			pad++
		}
		if pad == len(s) || !isAzureSecretByte(s[pad]) {
			switch n := j - start; {
			case n == 40 && pad == j && d.awsSecret(s, start, j):
				dst = append(dst, match{start: start, end: j, typ: TypeSecret, prio: d.prio})
			case n == 86 && pad-j == 2 && mixedCase(s[start:j]) && hasDigit(s[start:j]):
				dst = append(dst, match{start: start, end: pad, typ: TypeSecret, prio: d.prio})
			}
		}
		i = max(j, i+1)
	}
	for off := 0; ; {
		k := strings.Index(s[off:], "Q~")
		if k < 0 {
			break
		}
		q := off + k
		off = q + 2
		if start, end, ok := azureClientSecret(s, q); ok {
			dst = append(dst, match{start: start, end: end, typ: TypeSecret, prio: d.prio})
			off = end
		}
	}
	return dst
}

// awsSecret reports whether s[i:j], 40 base64 characters, is an AWS
// secret access key.
func (d cloudKeyDetector) awsSecret(s string, i, j int) bool {
	tok := s[i:j]
	if !mixedCase(tok) {
		return false
	}
	e := entropy(tok)
	if e >= awsEntropyBare {
		return true
	}
	return e >= awsEntropyWithContext && awsContext(s[max(0, i-awsContextWindow):i])
}

// awsContext reports AWS or credential wording.
func awsContext(before string) bool {
	return slices.ContainsFunc([]string{"aws", "secret", "credential", "akia", "asia"}, func(w string) bool { return indexFold(before, w, 0) >= 0 })
}

// azureClientSecret matches an Azure AD client secret around the "Q~" at
// s[q]: [A-Za-z0-9_~.]{3}, a digit, Q~, then [A-Za-z0-9_~.-]{31,34},
// standing alone.
func azureClientSecret(s string, q int) (start, end int, ok bool) {
	start = q - 4
	if start < 0 || !isDigit(s[q-1]) || start > 0 && isAzureSecretByte(s[start-1]) {
		return 0, 0, false
	}
	for p := start; p < q-1; p++ {
		if c := s[p]; !isAlpha(c) && !isDigit(c) && c != '_' && c != '~' && c != '.' {
			return 0, 0, false
		}
	}
	end = q + 2
	for end < len(s) && isAzureSecretByte(s[end]) {
		end++
	}
	if n := end - q - 2; n < 31 || n > 34 {
		return 0, 0, false
	}
	return start, end, true
}

// mixedCase reports whether tok has upper and lower case letters.
func mixedCase(tok string) bool {
	return strings.ContainsAny(tok, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && strings.ContainsAny(tok, "abcdefghijklmnopqrstuvwxyz")
}

// entropy is the Shannon entropy of tok's bytes, in bits per byte.
func entropy(tok string) float64 {
	var counts [256]int
	for i := 0; i < len(tok); i++ {
		counts[tok[i]]++
	}
	e, n := 0.0, float64(len(tok))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			e -= p * math.Log2(p)
		}
	}
	return e
}
