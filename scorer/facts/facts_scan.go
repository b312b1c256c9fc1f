package facts

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// factKind classifies a checkable fact.
type factKind uint8

// Fact kinds. Identifiers, e-mail addresses and URLs are also supported
// by a case-insensitive substring of a source's text.
const (
	factNumber factKind = iota
	factDate
	factIdentifier
	factEmail
	factURL
)

// bySubstring reports whether a fact of kind k is also supported when its
// normal form occurs anywhere in a source's text.
func (k factKind) bySubstring() bool { return k >= factIdentifier }

// factToken is one candidate fact word of a text: a run of letters and
// ASCII digits joined by interior connectors, or a URL.
type factToken struct {
	text      string // without leading or trailing connectors
	start     int    // offset of text in the scanned string
	prev      rune   // the rune just before text (0 at the start)
	next      rune   // the rune just after text (0 at the end)
	lineStart bool   // only blanks and list bullets precede it on its line
	url       bool
	// mayHoldFact is false for a word without an ASCII digit or an '@',
	// which holds no fact on its own.
	mayHoldFact bool
	whole       bool // text is the word found at start, not a part of it
}

// dateRole is what a token can be in a month-name date.
type dateRole struct {
	month int // 1-12 for a month name
	day   int // 1-31 for a day number ("5", "5th")
	year  int // a four-digit year
}

// factScanner turns text into normalised facts in one pass. It holds
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
type factScanner struct {
	buf, alt []byte
	text     string // the string being scanned
	emit     func(kind factKind, norm, alt []byte, surface string)
	source   bool // also emit the year of each date
	window   [3]factToken
	roles    [3]dateRole
	n        int
}

// scan feeds every fact of s to sc.emit.
//
// A fact needs an ASCII digit or an '@', or is a URL (with "://" or
// "www."): text without these holds none. So while no date is under way,
// scan skips to the next byte that may be part of a fact, keeping only the
// word before it (see skipTo), and restores what it tracks there: the
// rune before and whether the line has only blanks and bullets so far.
func (sc *factScanner) scan(s string) {
	sc.n, sc.text = 0, s
	var prev rune
	lineStart := true
	hot := -1 // the first byte at or after i that may be part of a fact
	for i := 0; i < len(s); {
		if sc.n == 0 && hot < i {
			hot = nextHotByte(s, i)
			if p := skipTo(s, i, hot); p > i {
				i, prev, lineStart = p, rune(s[p-1]), lineStartAt(s, p)
				continue
			}
		}
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if !isFactRune(r) {
			switch {
			case r == '\n':
				lineStart = true
			case r < utf8.RuneSelf && isLineStartByte(byte(r)):
				// blanks and list bullets keep the start of a line
			default:
				lineStart = false
			}
			prev = r
			i += size
			continue
		}
		if c := s[i] | 0x20; c == 'h' || c == 'w' { // http://, https://, www.
			if n := urlLen(s[i:]); n > 0 {
				sc.push(factToken{text: s[i : i+n], start: i, prev: prev, url: true})
				i += n
				prev, lineStart = '/', false
				continue
			}
		}
		j, mayHold := factTokenEnd(s, i)
		// A word without a digit or an '@' holds no fact; unless a date is
		// under way or it is a month name, push would drop it unread.
		if mayHold || sc.n > 0 || monthOf(s[i:j]) > 0 {
			tok := factToken{text: s[i:j], start: i, prev: prev, lineStart: lineStart, mayHoldFact: mayHold, whole: true}
			if j < len(s) {
				tok.next, _ = utf8.DecodeRuneInString(s[j:])
			}
			sc.push(tok)
		}
		if prev = rune(s[j-1]); prev >= utf8.RuneSelf {
			prev, _ = utf8.DecodeLastRuneInString(s[:j])
		}
		i, lineStart = j, false
	}
	for sc.n > 0 {
		sc.shift()
	}
}

// nextHotByte returns the index of the first byte of s at or after i that
// may be part of a fact, or len(s): an ASCII digit, an '@', the ':' of
// "://" or the '.' of "www." (any case).
func nextHotByte(s string, i int) int {
	for ; i < len(s); i++ {
		c := s[i]
		if c-'.' > '@'-'.' {
			continue // outside '.' to '@', the range of every byte below
		}
		switch {
		case isASCIIDigit(c), c == '@':
			return i
		case c == ':':
			if strings.HasPrefix(s[i+1:], "//") {
				return i
			}
		case c == '.':
			if i >= 3 && hasPrefixFold(s[i-3:], "www") {
				return i
			}
		}
	}
	return len(s)
}

// skipTo returns where scan, at i with no date under way, may go on
// reading s when s[i:hot] holds no byte that may be part of a fact.
//
// The words of s[i:hot] emit nothing; a month name among them can only
// matter as the last word before hot's field ("March 5"), and the first
// word read after a skip leaves the date window as it would be anyway (a
// month name replaces a month name, any other word empties it). So scan
// may go on at the field of that last word: a field is text between ASCII
// blanks and control bytes, which no word or URL spans, so the rune
// before it is the blank that scan would have read last.
func skipTo(s string, i, hot int) int {
	p := fieldStart(s, i, hot)
	for k := p; k > i; {
		r, size := utf8.DecodeLastRuneInString(s[i:k])
		if isFactRune(r) {
			return fieldStart(s, i, k-size)
		}
		k -= size
	}
	return p
}

// fieldStart returns the start of the field holding s[k], not before i.
func fieldStart(s string, i, k int) int {
	for k > i && s[k-1] > ' ' {
		k--
	}
	return k
}

// lineStartAt reports whether only blanks and list bullets precede s[p:]
// on its line.
func lineStartAt(s string, p int) bool {
	for k := p - 1; k >= 0 && s[k] != '\n'; k-- {
		if !isLineStartByte(s[k]) {
			return false
		}
	}
	return true
}

// isLineStartByte reports whether c, a blank or a list bullet, keeps the
// start of a line.
func isLineStartByte(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '-', '*', '#', '>', '+':
		return true
	}
	return false
}

// isFactRune reports whether r can be part of a fact word: a letter, a
// digit or a combining mark, except letters of scripts written without
// spaces between words (Han, kana, Thai, ...), which separate words.
func isFactRune(r rune) bool {
	if r < utf8.RuneSelf {
		return uint32(r|0x20)-'a' < 26 || uint32(r)-'0' < 10
	}
	return isWideFactRune(r)
}

// isWideFactRune is isFactRune for non-ASCII runes.
func isWideFactRune(r rune) bool {
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) {
		return false
	}
	return !unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func isASCIIDigit(c byte) bool { return '0' <= c && c <= '9' }

// isConnector reports whether c may join two fact runes inside a word:
// one of - _ . , / @ + #.
func isConnector(c byte) bool {
	switch c {
	case '-', '_', '.', ',', '/', '@', '+', '#':
		return true
	}
	return false
}

// factTokenEnd returns the end of the word starting at i: fact runes and
// connectors that are followed by a fact rune. mayHold reports whether the
// word has an ASCII digit or an '@'.
func factTokenEnd(s string, i int) (end int, mayHold bool) {
	for i < len(s) {
		switch c := s[i]; {
		case isASCIILetter(c):
			i++
		case isASCIIDigit(c):
			mayHold = true
			i++
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !isWideFactRune(r) {
				return i, mayHold
			}
			i += size
		case isConnector(c) && i+1 < len(s) && startsWithFactRune(s[i+1:]):
			mayHold = mayHold || c == '@'
			i++
		default:
			return i, mayHold
		}
	}
	return i, mayHold
}

// startsWithFactRune reports whether the non-empty s starts with a fact rune.
func startsWithFactRune(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isFactRune(r)
}

// urlLen returns the length of the URL at the start of s, or 0: an
// http://, https:// or www. prefix and what follows up to a blank, a
// quote, a bracket or a non-ASCII character, without trailing punctuation.
func urlLen(s string) int {
	var p int
	switch {
	case hasPrefixFold(s, "https://"):
		p = len("https://")
	case hasPrefixFold(s, "http://"):
		p = len("http://")
	case hasPrefixFold(s, "www."):
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
	if end == p || !isFactRune(rune(s[p])) {
		return 0
	}
	return end
}

// hasPrefixFold is strings.HasPrefix ignoring ASCII case; prefix is lower
// case ASCII. It is strings.EqualFold on the prefix's length, byte by byte:
// nextHotByte asks it at every '.' of a text, where EqualFold's Unicode
// path cost a quarter of unsupported_facts on prose, and a non-ASCII
// letter that folds to an ASCII one is longer than it, so it never
// matches within the prefix's bytes either way.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lowerASCII(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// push adds a token to the date window and emits what can no longer be
// part of a month-name date.
func (sc *factScanner) push(tok factToken) {
	role := roleOf(tok)
	if sc.n == 0 && role == (dateRole{}) {
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
func (sc *factScanner) shift() {
	tok := sc.window[0]
	copy(sc.window[:], sc.window[1:sc.n])
	copy(sc.roles[:], sc.roles[1:sc.n])
	sc.n--
	sc.window[sc.n] = factToken{}
	sc.classify(tok)
}

// isOrdinalSuffix reports whether s is "st", "nd", "rd" or "th".
func isOrdinalSuffix(s string) bool {
	return strings.EqualFold(s, "st") || strings.EqualFold(s, "nd") || strings.EqualFold(s, "rd") || strings.EqualFold(s, "th")
}

// monthOf returns the month (1-12) an English month name or its
// abbreviation ("Mar", "Sept") names, case-insensitively, or 0.
func monthOf(t string) int {
	var b [len("september")]byte
	if len(t) < 3 || len(t) > len(b) {
		return 0
	}
	switch lowerASCII(t[0]) {
	case 'a', 'd', 'f', 'j', 'm', 'n', 'o', 's':
	default:
		return 0
	}
	for i := range len(t) {
		b[i] = lowerASCII(t[i])
	}
	switch string(b[:len(t)]) {
	case "jan", "january":
		return 1
	case "feb", "february":
		return 2
	case "mar", "march":
		return 3
	case "apr", "april":
		return 4
	case "may":
		return 5
	case "jun", "june":
		return 6
	case "jul", "july":
		return 7
	case "aug", "august":
		return 8
	case "sep", "sept", "september":
		return 9
	case "oct", "october":
		return 10
	case "nov", "november":
		return 11
	case "dec", "december":
		return 12
	}
	return 0
}

// roleOf tells whether tok can be a month, day or year of a date.
func roleOf(tok factToken) dateRole {
	t := tok.text
	if tok.url || len(t) < 1 || len(t) > 9 {
		return dateRole{}
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
			return dateRole{year: d}
		case i <= 2 && d >= 1 && d <= 31 && (rest == "" || isOrdinalSuffix(rest)):
			return dateRole{day: d}
		}
		return dateRole{}
	}
	if m := monthOf(t); m > 0 {
		return dateRole{month: m}
	}
	return dateRole{}
}

// windowText is the text of the three words of the date window.
func (sc *factScanner) windowText() string {
	last := sc.window[2]
	return sc.text[sc.window[0].start : last.start+len(last.text)]
}

// emitDate emits a date (and its alternative reading when am > 0) written
// as surface.
func (sc *factScanner) emitDate(y, m, d, am, ad int, surface string) {
	if !validDate(y, m, d) {
		return
	}
	sc.buf = appendDate(sc.buf[:0], y, m, d)
	sc.alt = sc.alt[:0]
	if am > 0 && validDate(y, am, ad) && (am != m || ad != d) {
		sc.alt = appendDate(sc.alt, y, am, ad)
	}
	sc.emit(factDate, sc.buf, sc.alt, surface)
	if sc.source {
		sc.buf = appendDate(sc.buf[:0], y, m, d)[:4] // the year
		sc.emit(factNumber, sc.buf, nil, surface)
	}
}

func validDate(y, m, d int) bool {
	return y >= 1 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= 31
}

// appendDate appends YYYY-MM-DD; validDate(y, m, d) holds.
func appendDate(b []byte, y, m, d int) []byte {
	return append(b,
		byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-',
		byte('0'+d/10), byte('0'+d%10))
}

// amountSurface returns how a number was written: t with the currency
// symbol before it or the percent sign after it, when t is a whole word.
func (sc *factScanner) amountSurface(tok *factToken, t string) string {
	if !tok.whole || t != tok.text {
		return t
	}
	start, end := tok.start, tok.start+len(t)
	if isAmountMark(tok.prev) && tok.prev != '%' && tok.prev != '‰' {
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

// isAmountMark reports whether r marks the number next to it as an amount
// or a percentage.
func isAmountMark(r rune) bool {
	switch r {
	case '$', '€', '£', '¥', '₹', '₩', '₽', '₺', '₪', '¢', '%', '‰':
		return true
	}
	return false
}

// classify emits the facts of one word outside a month-name date.
func (sc *factScanner) classify(tok factToken) {
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

// partShape counts what a word part is made of.
type partShape struct {
	letters, digits  int
	at, slash, comma bool
	other            bool // any other ASCII rune, a connector such as '-' or '.'
}

// shapeOf reads the shape of t.
func shapeOf(t string) partShape {
	var sh partShape
	for _, r := range t {
		switch {
		case r >= utf8.RuneSelf:
			if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) {
				sh.letters++
			}
		case isASCIIDigit(byte(r)):
			sh.digits++
		case isASCIILetter(byte(r)):
			sh.letters++
		case r == '@':
			sh.at = true
		case r == '/':
			sh.slash = true
		case r == ',':
			sh.comma = true
		default:
			sh.other = true
		}
	}
	return sh
}

// classifyPart emits the facts of t; split allows one level of splitting
// at commas and slashes.
func (sc *factScanner) classifyPart(tok factToken, t string, split bool) {
	sh := shapeOf(t)
	if sh.digits == 0 && !sh.at {
		return // a plain word
	}
	if sh.at && sc.emitEmail(t) {
		return
	}
	if sh.digits > 0 && sc.emitISODate(t) {
		return
	}
	if sh.slash {
		if !sc.emitSlashDate(t) && split {
			sc.splitAt(t, '/')
		}
		return
	}
	if sh.letters == 0 {
		sc.classifyNumeric(&tok, t, &sh, split)
		return
	}
	if sh.comma && split {
		sc.splitAt(t, ',')
		return
	}
	sc.classifyMixed(&tok, t, &sh)
}

// classifyNumeric emits the facts of a part of digits and separators
// without a slash: a number, an identifier such as a phone number, or the
// facts of its parts.
func (sc *factScanner) classifyNumeric(tok *factToken, t string, sh *partShape, split bool) {
	if norm, ok := appendNumber(sc.buf[:0], t); ok {
		sc.buf = norm
		if len(norm) == 1 && !isAmountMark(tok.prev) && !isAmountMark(tok.next) {
			return // a trivial count
		}
		if tok.lineStart && (tok.next == '.' || tok.next == ')') && !sh.other && !sh.comma {
			return // an ordered-list marker
		}
		sc.emit(factNumber, norm, nil, sc.amountSurface(tok, t))
		return
	}
	if norm, ok := appendDecimalComma(sc.buf[:0], t); ok {
		sc.buf = norm
		sc.emit(factNumber, norm, nil, sc.amountSurface(tok, t))
		return
	}
	switch {
	case sh.comma && split:
		sc.splitAt(t, ',')
	case sh.digits >= 4 && !isRange(t):
		sc.emitIdentifier(t)
	default:
		sc.splitDigits(t)
	}
}

// classifyMixed emits the facts of a part of letters and digits without a
// slash or a comma to split at: a number with a unit or ordinal, or an
// identifier.
func (sc *factScanner) classifyMixed(tok *factToken, t string, sh *partShape) {
	if k := numberPrefix(t); k > 0 && !isHexID(t) {
		if norm, ok := appendNumber(sc.buf[:0], t[:k]); ok {
			sc.buf = norm
			if len(norm) > 1 || isAmountMark(tok.prev) {
				sc.emit(factNumber, norm, nil, sc.amountSurface(tok, t))
			}
			return
		}
	}
	if sh.digits >= 2 && utf8.RuneCountInString(t) >= 3 || strings.ContainsAny(t, "-_#") && utf8.RuneCountInString(t) >= 5 {
		sc.emitIdentifier(t)
	}
}

// isRange reports whether t is a numeric range such as "100-200" or
// "2020-2024": two groups of 1 to 4 digits joined by '-', ascending.
func isRange(t string) bool {
	a, b, ok := strings.Cut(t, "-")
	if !ok || len(a) > 4 || len(b) > 4 {
		return false
	}
	x, ok1 := digitsAt(a, 0, len(a))
	y, ok2 := digitsAt(b, 0, len(b))
	return ok1 && ok2 && x < y
}

// splitAt classifies the parts of t between seps.
func (sc *factScanner) splitAt(t string, sep byte) {
	for part := range strings.SplitSeq(t, string(sep)) {
		part = strings.Trim(part, "-_.,/@+#")
		if part != "" {
			sc.classifyPart(factToken{text: part}, part, false)
		}
	}
}

// splitDigits classifies the digit runs of a short digits-and-separators
// word such as "1-2".
func (sc *factScanner) splitDigits(t string) {
	for i := 0; i < len(t); {
		if t[i] < '0' || t[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		sc.classifyPart(factToken{text: t[i:j]}, t[i:j], false)
		i = j
	}
}

// numberPrefix returns the length of a leading number followed only by
// letters ("20GB", "5th"), or 0.
func numberPrefix(t string) int {
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

// isHexID reports whether t is a hexadecimal id: at least 6 hex digits,
// with both letters and digits.
func isHexID(t string) bool {
	if len(t) < 6 {
		return false
	}
	var l, d bool
	for i := 0; i < len(t); i++ {
		switch c := lowerASCII(t[i]); {
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

// appendNumber appends the normal form of the number t (digits, optional
// thousands commas in groups of three, optional decimal point) to b.
func appendNumber(b []byte, t string) ([]byte, bool) {
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

// appendDecimalComma appends the normal form of a number written with a
// decimal comma ("42,50", "0,5"): one comma, not followed by exactly three
// digits, and no point.
func appendDecimalComma(b []byte, t string) ([]byte, bool) {
	whole, frac, ok := strings.Cut(t, ",")
	if !ok || len(frac) == 3 || frac == "" || whole == "" || strings.ContainsAny(frac, ",.") || strings.IndexByte(whole, '.') >= 0 {
		return b, false
	}
	if _, ok := digitsAt(whole, 0, len(whole)); !ok || len(whole) > 18 {
		return b, false
	}
	if _, ok := digitsAt(frac, 0, len(frac)); !ok || len(frac) > 18 {
		return b, false
	}
	start := len(b)
	b = append(b, whole...)
	b = append(b, '.')
	b = append(b, frac...)
	return appendNumber(b[:start], string(b[start:]))
}

// emitEmail emits t as an e-mail address when it is one.
func (sc *factScanner) emitEmail(t string) bool {
	at := strings.IndexByte(t, '@')
	if at <= 0 || strings.IndexByte(t[at+1:], '@') >= 0 {
		return false
	}
	domain := t[at+1:]
	dot := strings.LastIndexByte(domain, '.')
	if dot <= 0 || dot == len(domain)-1 {
		return false
	}
	sc.buf = appendLower(sc.buf[:0], t)
	sc.emit(factEmail, sc.buf, nil, t)
	return true
}

// emitISODate emits t as a date when it starts with YYYY-MM-DD or
// YYYY/MM/DD (optionally followed by a time).
func (sc *factScanner) emitISODate(t string) bool {
	if len(t) < 10 {
		return false
	}
	if sep := t[4]; sep != '-' && sep != '/' || t[7] != sep {
		return false
	}
	if len(t) > 10 && t[10] != 'T' && t[10] != 't' {
		return false
	}
	y, ok1 := digitsAt(t, 0, 4)
	m, ok2 := digitsAt(t, 5, 2)
	d, ok3 := digitsAt(t, 8, 2)
	if !ok1 || !ok2 || !ok3 || !validDate(y, m, d) {
		return false
	}
	sc.emitDate(y, m, d, 0, 0, t)
	if len(t) > 11 { // the hour of a date-time ("2026-03-05T10")
		sc.classifyPart(factToken{text: t[11:]}, t[11:], false)
	}
	return true
}

// emitSlashDate emits t as a date when it is D/M/YYYY or M/D/YYYY.
func (sc *factScanner) emitSlashDate(t string) bool {
	a, rest, ok := strings.Cut(t, "/")
	b, c, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 || len(a) > 2 || len(b) > 2 || len(c) != 4 {
		return false
	}
	x, ok1 := digitsAt(a, 0, len(a))
	z, ok2 := digitsAt(b, 0, len(b))
	y, ok3 := digitsAt(c, 0, 4)
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

// digitsAt parses the n ASCII digits of s at i.
func digitsAt(s string, i, n int) (int, bool) {
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

func (sc *factScanner) emitIdentifier(t string) {
	sc.buf = appendLower(sc.buf[:0], t)
	sc.emit(factIdentifier, sc.buf, nil, t)
}

// emitURL emits a URL as host and path: scheme dropped, host lower-cased.
func (sc *factScanner) emitURL(t string) {
	u := t
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	host := u
	if i := strings.IndexAny(u, "/?#"); i >= 0 {
		host = u[:i]
	}
	sc.buf = appendLower(sc.buf[:0], host)
	sc.buf = append(sc.buf, u[len(host):]...)
	for len(sc.buf) > 0 && sc.buf[len(sc.buf)-1] == '/' {
		sc.buf = sc.buf[:len(sc.buf)-1]
	}
	if len(sc.buf) == 0 {
		return
	}
	sc.emit(factURL, sc.buf, nil, t)
}

// appendLower appends s lower-cased (Unicode simple folding to lower).
func appendLower(b []byte, s string) []byte {
	for _, r := range s {
		b = utf8.AppendRune(b, unicode.ToLower(r))
	}
	return b
}
