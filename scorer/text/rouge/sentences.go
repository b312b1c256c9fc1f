package rouge

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// SplitSentences splits text into sentences for rougeLsum with
// split_summaries, where rouge-score calls nltk.sent_tokenize (the Punkt
// model for English). Punkt is a trained model that is not reproduced
// here; this splitter follows its common decisions:
//
//   - a sentence ends after a run of '.', '!' or '?', plus any closing
//     quotes or brackets, that is followed by whitespace or the end;
//   - a single '.' after a common English abbreviation (Mr., Dr., e.g.,
//     etc.) or after a one-letter initial does not end a sentence;
//   - newlines alone do not end a sentence;
//   - sentences are trimmed and empty ones dropped.
//
// Texts whose sentences are separated by ". " or newlines split as Punkt
// splits them; unusual abbreviations can differ.
func SplitSentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); {
		c := text[i]
		if c != '.' && c != '!' && c != '?' {
			i++
			continue
		}
		j := i
		for j < len(text) && (text[j] == '.' || text[j] == '!' || text[j] == '?') {
			j++
		}
		single := j-i == 1 && c == '.'
		for j < len(text) && strings.IndexByte("\"')]}", text[j]) >= 0 {
			j++
		}
		if j < len(text) {
			r, _ := utf8.DecodeRuneInString(text[j:])
			if !unicode.IsSpace(r) {
				i = j
				continue
			}
		}
		if single && isAbbreviation(text[start:i]) {
			i = j
			continue
		}
		if s := strings.TrimSpace(text[start:j]); s != "" {
			out = append(out, s)
		}
		start, i = j, j
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// abbreviations are common English abbreviations that Punkt's English
// model knows (lowercase, without the final period).
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "sr": true, "jr": true,
	"st": true, "vs": true, "etc": true, "e.g": true, "i.e": true, "inc": true, "ltd": true,
	"co": true, "corp": true, "u.s": true, "u.k": true, "no": true, "jan": true, "feb": true,
	"mar": true, "apr": true, "jun": true, "jul": true, "aug": true, "sep": true, "sept": true,
	"oct": true, "nov": true, "dec": true, "gen": true, "gov": true, "sen": true, "rep": true,
	"rev": true, "col": true, "lt": true, "sgt": true, "capt": true, "mt": true, "ft": true,
	"a.m": true, "p.m": true, "fig": true, "approx": true, "dept": true, "est": true,
}

// isAbbreviation reports whether the word before a period is a known
// abbreviation or a single-letter initial.
func isAbbreviation(before string) bool {
	k := len(before)
	for k > 0 && !isSpaceByte(before[k-1]) && before[k-1] != '(' && before[k-1] != '"' {
		k--
	}
	w := strings.ToLower(before[k:])
	if w == "" {
		return false
	}
	if len(w) == 1 && w[0] >= 'a' && w[0] <= 'z' {
		return true
	}
	return abbreviations[w]
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
