package scorer

// This file keeps the first implementation of unsupported_facts, which
// tokenises the response and every source in full, as the oracle the
// differential tests compare the metric with. It is deliberately left as
// it was: simple and slow. Which texts are sources is not under test; the
// oracle reads them with the metric's own eachFactSource.

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// oracleUnsupportedFacts is unsupported_facts as first written: every
// source is tokenised into facts, then identifiers, e-mail addresses and
// URLs are looked up as substrings, with the same bounds.
type oracleUnsupportedFacts struct{}

// oracleResponseFact is one distinct fact of the response.
type oracleResponseFact struct {
	surface   string // as written in the response
	norm      string
	kind      factKind
	supported bool
}

// oracleFactSet holds a response's distinct facts, keyed by normal form and
// alternative reading.
type oracleFactSet struct {
	facts []oracleResponseFact
	index map[string]int
}

// add records a response fact unless its normal form is already known.
func (fs *oracleFactSet) add(kind factKind, norm, alt []byte, surface string) {
	if len(fs.facts) >= unsupportedFactsMax {
		return
	}
	if _, ok := fs.index[string(norm)]; ok {
		return
	}
	i := len(fs.facts)
	n := string(norm)
	fs.facts = append(fs.facts, oracleResponseFact{surface: surface, norm: n, kind: kind})
	fs.index[n] = i
	if len(alt) > 0 {
		if _, ok := fs.index[string(alt)]; !ok {
			fs.index[string(alt)] = i
		}
	}
}

// support marks the response facts a source fact matches.
func (fs *oracleFactSet) support(_ factKind, norm, alt []byte, _ string) {
	if i, ok := fs.index[string(norm)]; ok {
		fs.facts[i].supported = true
	}
	if len(alt) > 0 {
		if i, ok := fs.index[string(alt)]; ok {
			fs.facts[i].supported = true
		}
	}
}

// pending counts the facts not yet supported; with bySubstring, only those
// a substring of a source can still support.
func (fs *oracleFactSet) pending(bySubstring bool) int {
	n := 0
	for i := range fs.facts {
		if !fs.facts[i].supported && (!bySubstring || fs.facts[i].kind.bySubstring()) {
			n++
		}
	}
	return n
}

// Score returns unsupported / checkable facts of the response.
func (oracleUnsupportedFacts) Score(_ context.Context, in *Instance) (Result, error) {
	hint := min(len(in.Response)/24+1, 256) // about one fact per 24 bytes
	fs := oracleFactSet{index: make(map[string]int, hint), facts: make([]oracleResponseFact, 0, hint)}
	sc := oracleFactScanner{emit: fs.add}
	sc.scan(in.Response)
	if len(fs.facts) == 0 {
		return Result{}, ErrNotApplicable
	}
	sc.emit, sc.source = fs.support, true
	eachFactSource(in, func(s string) bool {
		sc.scan(s)
		return fs.pending(false) > 0
	})
	if fs.pending(true) > 0 {
		budget := unsupportedFactsScanBytes
		eachFactSource(in, func(s string) bool {
			for i := range fs.facts {
				f := &fs.facts[i]
				if f.supported || !f.kind.bySubstring() {
					continue
				}
				if budget -= len(s); budget < 0 {
					return false
				}
				f.supported = oracleContainsFold(s, f.norm)
			}
			return fs.pending(true) > 0
		})
	}

	var unsupported []string
	k := 0
	for _, f := range fs.facts {
		if f.supported {
			continue
		}
		k++
		if len(unsupported) < unsupportedFactsDetailed {
			unsupported = append(unsupported, f.surface)
		}
	}
	r := Result{
		Metric: MetricUnsupportedFacts,
		Score:  float64(k) / float64(len(fs.facts)),
		Label:  "supported",
		Details: map[string]any{
			"facts":             len(fs.facts),
			"unsupported":       k,
			"unsupported_facts": unsupported,
		},
	}
	if k == 0 {
		r.Details["unsupported_facts"] = []string{}
		r.Explanation = fmt.Sprintf("all %d facts of the response appear in the run's inputs or tool results", len(fs.facts))
		return r, nil
	}
	r.Label = "unsupported"
	r.Explanation = oracleExplainUnsupported(unsupported, k, len(fs.facts))
	return r, nil
}

// oracleExplainUnsupported names the first unsupported facts and counts the rest.
func oracleExplainUnsupported(listed []string, k, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d facts of the response appear nowhere in the run's inputs or tool results: ", k, n)
	shown := min(len(listed), unsupportedFactsExplained)
	for i, s := range listed[:shown] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", s)
	}
	if k > shown {
		fmt.Fprintf(&b, " and %d more", k-shown)
	}
	return b.String()
}

// oracleFactToken is one candidate fact word of a text: a run of letters and
// ASCII digits joined by interior connectors, or a URL.
type oracleFactToken struct {
	text      string // without leading or trailing connectors
	start     int    // offset of text in the scanned string
	prev      rune   // the rune just before text (0 at the start)
	next      rune   // the rune just after text (0 at the end)
	lineStart bool   // only blanks and list bullets precede it on its line
	url       bool
	// mayHoldFact is false for a word without a digit or an '@', which
	// holds no fact on its own.
	mayHoldFact bool
	whole       bool // text is the word found at start, not a part of it
}

// oracleDateRole is what a token can be in a month-name date.
type oracleDateRole struct {
	month int // 1-12 for a month name
	day   int // 1-31 for a day number ("5", "5th")
	year  int // a four-digit year
}

// oracleFactScanner turns text into normalised facts in one pass. It holds
// scratch buffers only, so one scanner serves many texts; it is not safe
// for concurrent use.
//
// Normal forms:
//   - numbers: thousands commas removed, trailing fractional zeros removed
//     ("$1,250.00", "1250", "1,250" are all "1250"); currency symbols and
//     "%" are separators, so "15%" is "15"; a number followed by a short
//     unit or ordinal ("20GB", "5th") is its number. Single-digit integers
//     (0-9, leading zeros ignored) are not facts unless marked as an amount ("$5") or a
//     percentage ("5%"); a single comma not followed by three digits is a
//     decimal comma ("42,50" is "42.5"); ordered-list markers ("10." or "10)" opening a
//     line) are never facts.
//   - dates: YYYY-MM-DD, from ISO dates (also with a time), YYYY/MM/DD,
//     "5 March 2026", "March 5, 2026" (English month names and their
//     abbreviations) and MM/DD/YYYY or DD/MM/YYYY; a slash date whose
//     day and month are both <= 12 is ambiguous and matches either order.
//     A date in a source also supports its year on its own.
//   - identifiers: a token mixing letters and digits, with at least two
//     digits and three characters, or five characters with a '-', '_' or
//     '#' (ORD-12345, TKT_889, ORD-7, A1B2C3, UUIDs, hex ids; not H2O or
//     mp3), or of digits and separators holding at least 4 digits
//     (555-0134), except an ascending range such as 100-200, which is two
//     numbers; lower-cased.
//   - e-mail addresses: lower-cased.
//   - URLs: http(s):// or www. links, scheme dropped, host lower-cased,
//     trailing punctuation and slash removed.
type oracleFactScanner struct {
	buf, alt []byte
	text     string // the string being scanned
	emit     func(kind factKind, norm, alt []byte, surface string)
	source   bool // also emit the year of each date
	window   [3]oracleFactToken
	roles    [3]oracleDateRole
	n        int
}

// scan feeds every fact of s to sc.emit.
func (sc *oracleFactScanner) scan(s string) {
	sc.n, sc.text = 0, s
	lineStart := true
	var prev rune
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if oracleIsFactRune(r) {
			if c := r | 0x20; c == 'h' || c == 'w' {
				if n := oracleUrlLen(s[i:]); n > 0 {
					sc.push(oracleFactToken{text: s[i : i+n], start: i, prev: prev, url: true})
					i += n
					prev, lineStart = '/', false
					continue
				}
			}
			j, mayHold := oracleFactTokenEnd(s, i)
			tok := oracleFactToken{text: s[i:j], start: i, prev: prev, lineStart: lineStart, mayHoldFact: mayHold, whole: true}
			if j < len(s) {
				tok.next, _ = utf8.DecodeRuneInString(s[j:])
			}
			sc.push(tok)
			prev, _ = utf8.DecodeLastRuneInString(s[:j])
			i, lineStart = j, false
			continue
		}
		switch {
		case r == '\n':
			lineStart = true
		case r == ' ' || r == '\t' || r == '\r' || r == '-' || r == '*' || r == '#' || r == '>' || r == '+':
		default:
			lineStart = false
		}
		prev = r
		i += size
	}
	for sc.n > 0 {
		sc.shift()
	}
}

// oracleIsFactRune reports whether r can be part of a fact word: a letter, a
// digit or a combining mark, except letters of scripts written without
// spaces between words (Han, kana, Thai, ...), which separate words.
func oracleIsFactRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return oracleIsWideFactRune(r)
}

// oracleIsWideFactRune is oracleIsFactRune for non-ASCII runes.
func oracleIsWideFactRune(r rune) bool {
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) {
		return false
	}
	return !unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// oracleIsConnector reports whether c may join two fact runes inside a word.
func oracleIsConnector(c byte) bool {
	switch c {
	case '-', '_', '.', ',', '/', '@', '+', '#':
		return true
	}
	return false
}

// oracleFactTokenEnd returns the end of the word starting at i: fact runes and
// connectors that are followed by a fact rune. mayHold reports whether the
// word has an ASCII digit or an '@'.
func oracleFactTokenEnd(s string, i int) (end int, mayHold bool) {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
				i++
				continue
			case '0' <= c && c <= '9':
				mayHold = true
				i++
				continue
			}
			if oracleIsConnector(c) && i+1 < len(s) {
				n := s[i+1]
				if n < utf8.RuneSelf && oracleIsFactRune(rune(n)) {
					mayHold = mayHold || c == '@'
					i++
					continue
				}
				if n >= utf8.RuneSelf {
					if r, _ := utf8.DecodeRuneInString(s[i+1:]); oracleIsWideFactRune(r) {
						mayHold = mayHold || c == '@'
						i++
						continue
					}
				}
			}
			return i, mayHold
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !oracleIsWideFactRune(r) {
			return i, mayHold
		}
		i += size
	}
	return i, mayHold
}

// oracleUrlLen returns the length of the URL at the start of s, or 0: an
// http://, https:// or www. prefix and what follows up to a blank, a
// quote, a bracket or a non-ASCII character, without trailing punctuation.
func oracleUrlLen(s string) int {
	var p int
	switch {
	case oracleHasPrefixFold(s, "https://"):
		p = len("https://")
	case oracleHasPrefixFold(s, "http://"):
		p = len("http://")
	case oracleHasPrefixFold(s, "www."):
		p = len("www.")
	default:
		return 0
	}
	end := p
	for end < len(s) {
		c := s[end]
		if c <= ' ' || c >= utf8.RuneSelf || strings.IndexByte("\"'<>`()[]{}|\\^", c) >= 0 {
			break
		}
		end++
	}
	for end > p && strings.IndexByte(".,;:!?/*", s[end-1]) >= 0 {
		end--
	}
	if end == p || !oracleIsFactRune(rune(s[p])) {
		return 0
	}
	return end
}

// oracleHasPrefixFold is strings.HasPrefix ignoring ASCII case; prefix is lower case.
func oracleHasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if oracleLowerASCII(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

func oracleLowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// push adds a token to the date window and emits what can no longer be
// part of a month-name date.
func (sc *oracleFactScanner) push(tok oracleFactToken) {
	role := oracleRoleOf(tok)
	if sc.n == 0 && role == (oracleDateRole{}) {
		sc.classify(tok)
		return
	}
	sc.window[sc.n] = tok
	sc.roles[sc.n] = role
	sc.n++
	for sc.n > 0 {
		switch sc.n {
		case 1:
			if r := sc.roles[0]; r.month > 0 || r.day > 0 {
				return
			}
		case 2:
			a, b := sc.roles[0], sc.roles[1]
			if a.day > 0 && b.month > 0 || a.month > 0 && b.day > 0 {
				return
			}
		case 3:
			a, b, c := sc.roles[0], sc.roles[1], sc.roles[2]
			if c.year > 0 {
				switch {
				case a.day > 0 && b.month > 0:
					sc.emitDate(c.year, b.month, a.day, 0, 0, sc.windowText())
					sc.n = 0
					return
				case a.month > 0 && b.day > 0:
					sc.emitDate(c.year, a.month, b.day, 0, 0, sc.windowText())
					sc.n = 0
					return
				}
			}
		}
		sc.shift()
	}
}

// shift classifies the oldest token of the window on its own.
func (sc *oracleFactScanner) shift() {
	tok := sc.window[0]
	copy(sc.window[:], sc.window[1:sc.n])
	copy(sc.roles[:], sc.roles[1:sc.n])
	sc.n--
	sc.window[sc.n] = oracleFactToken{}
	sc.classify(tok)
}

// oracleIsOrdinalSuffix reports whether s is "st", "nd", "rd" or "th".
func oracleIsOrdinalSuffix(s string) bool {
	return strings.EqualFold(s, "st") || strings.EqualFold(s, "nd") || strings.EqualFold(s, "rd") || strings.EqualFold(s, "th")
}

// oracleMonthOf returns the month (1-12) an English month name or its
// abbreviation ("Mar", "Sept") names, case-insensitively, or 0.
func oracleMonthOf(t string) int {
	if len(t) < 3 || len(t) > len("september") {
		return 0
	}
	m := 0
	switch string([]byte{oracleLowerASCII(t[0]), oracleLowerASCII(t[1]), oracleLowerASCII(t[2])}) {
	case "jan":
		m = 1
	case "feb":
		m = 2
	case "mar":
		m = 3
	case "apr":
		m = 4
	case "may":
		m = 5
	case "jun":
		m = 6
	case "jul":
		m = 7
	case "aug":
		m = 8
	case "sep":
		m = 9
	case "oct":
		m = 10
	case "nov":
		m = 11
	case "dec":
		m = 12
	default:
		return 0
	}
	name := oracleMonthNames[m-1]
	switch {
	case len(t) == 3,
		len(t) == len(name) && strings.EqualFold(t[3:], name[3:]),
		m == 9 && len(t) == 4 && oracleLowerASCII(t[3]) == 't':
		return m
	}
	return 0
}

var oracleMonthNames = [...]string{
	"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december",
}

// oracleRoleOf tells whether tok can be a month, day or year of a date.
func oracleRoleOf(tok oracleFactToken) oracleDateRole {
	t := tok.text
	if tok.url || len(t) < 1 || len(t) > 9 {
		return oracleDateRole{}
	}
	if c := t[0]; c >= '0' && c <= '9' {
		d := 0
		i := 0
		for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
			d = d*10 + int(t[i]-'0')
		}
		rest := t[i:]
		switch {
		case i == 4 && rest == "":
			return oracleDateRole{year: d}
		case i <= 2 && d >= 1 && d <= 31 && (rest == "" || oracleIsOrdinalSuffix(rest)):
			return oracleDateRole{day: d}
		}
		return oracleDateRole{}
	}
	if m := oracleMonthOf(t); m > 0 {
		return oracleDateRole{month: m}
	}
	return oracleDateRole{}
}

// windowText is the text of the three words of the date window.
func (sc *oracleFactScanner) windowText() string {
	last := sc.window[2]
	return sc.text[sc.window[0].start : last.start+len(last.text)]
}

// emitDate emits a date (and its alternative reading when am > 0) written
// as surface.
func (sc *oracleFactScanner) emitDate(y, m, d, am, ad int, surface string) {
	if !oracleValidDate(y, m, d) {
		return
	}
	sc.buf = oracleAppendDate(sc.buf[:0], y, m, d)
	sc.alt = sc.alt[:0]
	if am > 0 && oracleValidDate(y, am, ad) && (am != m || ad != d) {
		sc.alt = oracleAppendDate(sc.alt, y, am, ad)
	}
	sc.emit(factDate, sc.buf, sc.alt, surface)
	if sc.source {
		sc.buf = oracleAppendInt(sc.buf[:0], y, 4)
		sc.emit(factNumber, sc.buf, nil, surface)
	}
}

func oracleValidDate(y, m, d int) bool {
	return y >= 1 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= 31
}

func oracleAppendDate(b []byte, y, m, d int) []byte {
	b = oracleAppendInt(b, y, 4)
	b = append(b, '-')
	b = oracleAppendInt(b, m, 2)
	b = append(b, '-')
	return oracleAppendInt(b, d, 2)
}

// oracleAppendInt appends n (>= 0) zero-padded to width digits.
func oracleAppendInt(b []byte, n, width int) []byte {
	var tmp [20]byte
	i := len(tmp)
	for n > 0 || i == len(tmp) {
		i--
		tmp[i] = byte('0' + n%10)
		n /= 10
	}
	for len(tmp)-i < width {
		i--
		tmp[i] = '0'
	}
	return append(b, tmp[i:]...)
}

// amountSurface returns how a number was written: t with the currency
// symbol before it or the percent sign after it, when t is a whole word.
func (sc *oracleFactScanner) amountSurface(tok oracleFactToken, t string) string {
	if !tok.whole || t != tok.text {
		return t
	}
	start, end := tok.start, tok.start+len(t)
	if oracleIsAmountMark(tok.prev) && tok.prev != '%' && tok.prev != '‰' {
		start -= utf8.RuneLen(tok.prev)
	}
	if tok.next == '%' || tok.next == '‰' {
		end += utf8.RuneLen(tok.next)
	}
	if start < 0 || end > len(sc.text) {
		return t
	}
	return sc.text[start:end]
}

// oracleIsAmountMark reports whether r marks the number next to it as an amount
// or a percentage.
func oracleIsAmountMark(r rune) bool {
	switch r {
	case '$', '€', '£', '¥', '₹', '₩', '₽', '₺', '₪', '¢', '%', '‰':
		return true
	}
	return false
}

// classify emits the facts of one word outside a month-name date.
func (sc *oracleFactScanner) classify(tok oracleFactToken) {
	t := tok.text
	if tok.url {
		sc.emitURL(t)
		return
	}
	if !tok.mayHoldFact {
		return
	}
	sc.classifyPart(tok, t, true)
}

// classifyPart emits the facts of t; split allows one level of splitting
// at commas and slashes.
func (sc *oracleFactScanner) classifyPart(tok oracleFactToken, t string, split bool) {
	var letters, digits int
	var at, slash, comma, other bool
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(t[i:])
			if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) {
				letters++
			}
			i += size
			continue
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			letters++
		case c == '@':
			at = true
		case c == '/':
			slash = true
		case c == ',':
			comma = true
		default:
			other = true
		}
		i++
	}
	if digits == 0 && !at {
		return // a plain word
	}
	if at && sc.emitEmail(t) {
		return
	}
	if digits > 0 && sc.emitISODate(t) {
		return
	}
	if slash {
		if sc.emitSlashDate(t) || !split {
			return
		}
		sc.splitAt(t, '/')
		return
	}
	if letters == 0 {
		if norm, ok := oracleAppendNumber(sc.buf[:0], t); ok {
			sc.buf = norm
			if len(norm) == 1 && !oracleIsAmountMark(tok.prev) && !oracleIsAmountMark(tok.next) {
				return // a trivial count
			}
			if tok.lineStart && (tok.next == '.' || tok.next == ')') && !other && !comma {
				return // an ordered-list marker
			}
			sc.emit(factNumber, norm, nil, sc.amountSurface(tok, t))
			return
		}
		if norm, ok := oracleAppendDecimalComma(sc.buf[:0], t); ok {
			sc.buf = norm
			sc.emit(factNumber, norm, nil, sc.amountSurface(tok, t))
			return
		}
		if comma && split {
			sc.splitAt(t, ',')
			return
		}
		if digits >= 4 && !oracleIsRange(t) {
			sc.emitIdentifier(t)
			return
		}
		sc.splitDigits(t)
		return
	}
	if comma && split {
		sc.splitAt(t, ',')
		return
	}
	if k := oracleNumberPrefix(t); k > 0 && !oracleIsHexID(t) {
		if norm, ok := oracleAppendNumber(sc.buf[:0], t[:k]); ok {
			sc.buf = norm
			if len(norm) > 1 || oracleIsAmountMark(tok.prev) {
				sc.emit(factNumber, norm, nil, sc.amountSurface(tok, t))
			}
			return
		}
	}
	if digits >= 2 && utf8.RuneCountInString(t) >= 3 || strings.ContainsAny(t, "-_#") && utf8.RuneCountInString(t) >= 5 {
		sc.emitIdentifier(t)
	}
}

// oracleIsRange reports whether t is a numeric range such as "100-200" or
// "2020-2024": two groups of 1 to 4 digits joined by '-', ascending.
func oracleIsRange(t string) bool {
	a, b, ok := strings.Cut(t, "-")
	if !ok || len(a) > 4 || len(b) > 4 {
		return false
	}
	x, ok1 := oracleDigitsAt(a, 0, len(a))
	y, ok2 := oracleDigitsAt(b, 0, len(b))
	return ok1 && ok2 && x < y
}

// splitAt classifies the parts of t between seps.
func (sc *oracleFactScanner) splitAt(t string, sep byte) {
	for part := range strings.SplitSeq(t, string(sep)) {
		part = strings.Trim(part, "-_.,/@+#")
		if part != "" {
			sc.classifyPart(oracleFactToken{text: part}, part, false)
		}
	}
}

// splitDigits classifies the digit runs of a short digits-and-separators
// word such as "1-2".
func (sc *oracleFactScanner) splitDigits(t string) {
	for i := 0; i < len(t); {
		if t[i] < '0' || t[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		sc.classifyPart(oracleFactToken{text: t[i:j]}, t[i:j], false)
		i = j
	}
}

// oracleNumberPrefix returns the length of a leading number followed only by
// letters ("20GB", "5th"), or 0.
func oracleNumberPrefix(t string) int {
	k := 0
	for k < len(t) && (t[k] >= '0' && t[k] <= '9' || t[k] == '.' || t[k] == ',') {
		k++
	}
	if k == 0 || k == len(t) {
		return 0
	}
	for _, r := range t[k:] {
		if !unicode.IsLetter(r) {
			return 0
		}
	}
	return k
}

// oracleIsHexID reports whether t is a hexadecimal id: at least 6 hex digits,
// with both letters and digits.
func oracleIsHexID(t string) bool {
	if len(t) < 6 {
		return false
	}
	var l, d bool
	for i := 0; i < len(t); i++ {
		switch c := oracleLowerASCII(t[i]); {
		case c >= '0' && c <= '9':
			d = true
		case c >= 'a' && c <= 'f':
			l = true
		default:
			return false
		}
	}
	return l && d
}

// oracleAppendNumber appends the normal form of the number t (digits, optional
// thousands commas in groups of three, optional decimal point) to b.
func oracleAppendNumber(b []byte, t string) ([]byte, bool) {
	if t == "" || t[0] < '0' || t[0] > '9' {
		return b, false
	}
	start := len(b)
	intDigits, group := 0, -1 // group: digits since the last comma, -1 before any
	i := 0
	for ; i < len(t); i++ {
		c := t[i]
		if c >= '0' && c <= '9' {
			b = append(b, c)
			intDigits++
			if group >= 0 {
				group++
			}
			continue
		}
		if c == ',' {
			if group == -1 && (intDigits < 1 || intDigits > 3) || group >= 0 && group != 3 {
				return b[:start], false
			}
			group = 0
			continue
		}
		break
	}
	if group >= 0 && group != 3 {
		return b[:start], false
	}
	lead := 0 // leading zeros to drop, keeping one digit
	for lead < intDigits-1 && b[start+lead] == '0' {
		lead++
	}
	b = append(b[:start], b[start+lead:]...)
	if i == len(t) {
		return b, true
	}
	if t[i] != '.' || i+1 == len(t) {
		return b[:start], false
	}
	frac := len(b)
	b = append(b, '.')
	for i++; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return b[:start], false
		}
		b = append(b, t[i])
	}
	for len(b) > frac+1 && b[len(b)-1] == '0' {
		b = b[:len(b)-1]
	}
	if len(b) == frac+1 {
		b = b[:frac]
	}
	return b, true
}

// oracleAppendDecimalComma appends the normal form of a number written with a
// decimal comma ("42,50", "0,5"): one comma, not followed by exactly three
// digits, and no point.
func oracleAppendDecimalComma(b []byte, t string) ([]byte, bool) {
	whole, frac, ok := strings.Cut(t, ",")
	if !ok || len(frac) == 3 || frac == "" || whole == "" || strings.ContainsAny(frac, ",.") || strings.IndexByte(whole, '.') >= 0 {
		return b, false
	}
	if _, ok := oracleDigitsAt(whole, 0, len(whole)); !ok || len(whole) > 18 {
		return b, false
	}
	if _, ok := oracleDigitsAt(frac, 0, len(frac)); !ok || len(frac) > 18 {
		return b, false
	}
	start := len(b)
	b = append(b, whole...)
	b = append(b, '.')
	b = append(b, frac...)
	return oracleAppendNumber(b[:start], string(b[start:]))
}

// emitEmail emits t as an e-mail address when it is one.
func (sc *oracleFactScanner) emitEmail(t string) bool {
	at := strings.IndexByte(t, '@')
	if at <= 0 || strings.IndexByte(t[at+1:], '@') >= 0 {
		return false
	}
	domain := t[at+1:]
	dot := strings.LastIndexByte(domain, '.')
	if dot <= 0 || dot == len(domain)-1 {
		return false
	}
	sc.buf = oracleAppendLower(sc.buf[:0], t)
	sc.emit(factEmail, sc.buf, nil, t)
	return true
}

// emitISODate emits t as a date when it starts with YYYY-MM-DD or
// YYYY/MM/DD (optionally followed by a time).
func (sc *oracleFactScanner) emitISODate(t string) bool {
	if len(t) < 10 || !(t[4] == '-' && t[7] == '-' || t[4] == '/' && t[7] == '/') {
		return false
	}
	if len(t) > 10 && t[10] != 'T' && t[10] != 't' {
		return false
	}
	y, ok1 := oracleDigitsAt(t, 0, 4)
	m, ok2 := oracleDigitsAt(t, 5, 2)
	d, ok3 := oracleDigitsAt(t, 8, 2)
	if !ok1 || !ok2 || !ok3 || !oracleValidDate(y, m, d) {
		return false
	}
	sc.emitDate(y, m, d, 0, 0, t)
	if len(t) > 11 { // the hour of a date-time ("2026-03-05T10")
		sc.classifyPart(oracleFactToken{text: t[11:]}, t[11:], false)
	}
	return true
}

// emitSlashDate emits t as a date when it is D/M/YYYY or M/D/YYYY.
func (sc *oracleFactScanner) emitSlashDate(t string) bool {
	a, rest, ok := strings.Cut(t, "/")
	b, c, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 || len(a) > 2 || len(b) > 2 || len(c) != 4 {
		return false
	}
	x, ok1 := oracleDigitsAt(a, 0, len(a))
	z, ok2 := oracleDigitsAt(b, 0, len(b))
	y, ok3 := oracleDigitsAt(c, 0, 4)
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	switch {
	case x > 12 && z <= 12:
		sc.emitDate(y, z, x, 0, 0, t)
	case z > 12 && x <= 12:
		sc.emitDate(y, x, z, 0, 0, t)
	case x <= 12 && z <= 12:
		sc.emitDate(y, x, z, z, x, t) // ambiguous: month first, or day first
	default:
		return false
	}
	return true
}

// oracleDigitsAt parses the n ASCII digits of s at i.
func oracleDigitsAt(s string, i, n int) (int, bool) {
	if n == 0 || i+n > len(s) {
		return 0, false
	}
	v := 0
	for _, c := range []byte(s[i : i+n]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

func (sc *oracleFactScanner) emitIdentifier(t string) {
	sc.buf = oracleAppendLower(sc.buf[:0], t)
	sc.emit(factIdentifier, sc.buf, nil, t)
}

// emitURL emits a URL as host and path: scheme dropped, host lower-cased.
func (sc *oracleFactScanner) emitURL(t string) {
	u := t
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	host := u
	if i := strings.IndexAny(u, "/?#"); i >= 0 {
		host = u[:i]
	}
	sc.buf = oracleAppendLower(sc.buf[:0], host)
	sc.buf = append(sc.buf, u[len(host):]...)
	for len(sc.buf) > 0 && sc.buf[len(sc.buf)-1] == '/' {
		sc.buf = sc.buf[:len(sc.buf)-1]
	}
	if len(sc.buf) == 0 {
		return
	}
	sc.emit(factURL, sc.buf, nil, t)
}

// oracleAppendLower appends s lower-cased (Unicode simple folding to lower).
func oracleAppendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			b = append(b, oracleLowerASCII(c))
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b = utf8.AppendRune(b, unicode.ToLower(r))
		i += size
	}
	return b
}

// oracleContainsFold reports whether s contains sub (already lower-cased by
// oracleAppendLower), ignoring case.
func oracleContainsFold(s, sub string) bool {
	sub = string(oracleAppendLower(nil, sub))
	if sub == "" {
		return true
	}
	ascii := true
	for i := 0; i < len(sub); i++ {
		if sub[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if !ascii {
		return strings.Contains(string(oracleAppendLower(nil, s)), sub)
	}
	first := sub[0]
	for i := 0; i+len(sub) <= len(s); i++ {
		if oracleLowerASCII(s[i]) != first {
			continue
		}
		j := 1
		for j < len(sub) && oracleLowerASCII(s[i+j]) == sub[j] {
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}
