package redact

import "strings"

// numberDetector finds payment card numbers and phone numbers in runs of
// digit groups (see the package documentation for the rules).
type numberDetector struct {
	cards, phones bool
	prio          int
}

// digitGroup is one group of a digit run: the digits s[start:end], the
// group's span s[pstart:pend] (with its parentheses, if any), and the
// separator before it (0 for the first group).
type digitGroup struct {
	pstart, start, end, pend int
	paren                    bool
	sep                      byte
}

// maxGroups bounds the groups of one run.
const maxGroups = 16

func (d numberDetector) find(s string, dst []match) []match {
	var gs []digitGroup
	i := 0
	for i < len(s) {
		c := s[i]
		if !isDigit(c) && c != '+' && c != '(' {
			i++
			continue
		}
		p, plus := i, false
		if c == '+' {
			plus = true
			p++
			if p < len(s) && s[p] == ' ' {
				p++
			}
		}
		gs = parseGroups(s, p, gs[:0])
		if len(gs) == 0 {
			i++
			continue
		}
		dst = d.scanRun(s, i, plus, gs, dst)
		i = gs[len(gs)-1].pend
	}
	return dst
}

// parseGroups reads the digit groups of a run starting at p.
func parseGroups(s string, p int, gs []digitGroup) []digitGroup {
	var sep byte
	for len(gs) < maxGroups {
		q, paren := p, false
		if q < len(s) && s[q] == '(' {
			paren = true
			q++
		}
		ds := q
		for q < len(s) && isDigit(s[q]) {
			q++
		}
		if q == ds || (paren && q-ds > 5) {
			break
		}
		de := q
		if paren {
			if q >= len(s) || s[q] != ')' {
				break
			}
			q++
		}
		gs = append(gs, digitGroup{pstart: p, start: ds, end: de, pend: q, paren: paren, sep: sep})
		p = q
		if p+1 < len(s) && (s[p] == ' ' || s[p] == '-' || s[p] == '.') && (isDigit(s[p+1]) || s[p+1] == '(') {
			sep = s[p]
			p++
			continue
		}
		if p < len(s) && (s[p] == '(' || paren && isDigit(s[p])) {
			sep = ')'
			continue
		}
		break
	}
	return gs
}

// scanRun looks for cards and phones in the groups gs of the run that
// starts at runStart, preferring the longest match from the earliest group.
func (d numberDetector) scanRun(s string, runStart int, plus bool, gs []digitGroup, dst []match) []match {
	afterMatch := false
	for a := 0; a < len(gs); {
		found := false
		for b := len(gs) - 1; b >= a; b-- {
			if d.cards && isCard(s, gs, a, b, plus) {
				dst = append(dst, match{start: gs[a].start, end: gs[b].end, typ: TypeCard, prio: d.prio})
				found = true
			} else if d.phones && (a == 0 || afterMatch) && isPhone(s, runStart, gs, a, b, plus) {
				start := gs[a].pstart
				if a == 0 {
					start = runStart
				}
				dst = append(dst, match{start: start, end: gs[b].pend, typ: TypePhone, prio: d.prio})
				found = true
			}
			if found {
				a = b + 1
				break
			}
		}
		afterMatch = found
		if !found {
			a++
		}
	}
	return dst
}

// countDigits returns the number of digits in groups a..b.
func countDigits(gs []digitGroup, a, b int) int {
	n := 0
	for k := a; k <= b; k++ {
		n += gs[k].end - gs[k].start
	}
	return n
}

// isCard reports whether groups a..b form a card number: 13-19 digits
// starting with 2-6, grouped only by spaces or dashes, Luhn-valid.
func isCard(s string, gs []digitGroup, a, b int, plus bool) bool {
	if plus && a == 0 {
		return false
	}
	if a > 0 && gs[a].sep != ' ' && gs[a].sep != '-' {
		return false
	}
	if b+1 < len(gs) && gs[b+1].sep != ' ' && gs[b+1].sep != '-' {
		return false
	}
	n := countDigits(gs, a, b)
	if n < 13 || n > 19 {
		return false
	}
	for k := a; k <= b; k++ {
		if gs[k].paren || k > a && gs[k].sep != ' ' && gs[k].sep != '-' {
			return false
		}
		if l := gs[k].end - gs[k].start; b > a && (l < 3 || l > 6 || k == a && l != 4) {
			return false
		}
	}
	if f := s[gs[a].start]; f < '2' || f > '6' {
		return false
	}
	return luhn(s, gs, a, b)
}

// luhn reports whether the digits of groups a..b pass the Luhn check.
func luhn(s string, gs []digitGroup, a, b int) bool {
	sum, double := 0, false
	for k := b; k >= a; k-- {
		for i := gs[k].end - 1; i >= gs[k].start; i-- {
			v := int(s[i] - '0')
			if double {
				v *= 2
				if v > 9 {
					v -= 9
				}
			}
			sum += v
			double = !double
		}
	}
	return sum%10 == 0
}

// isPhone reports whether groups a..b form a phone number (see the
// package documentation).
func isPhone(s string, runStart int, gs []digitGroup, a, b int, plus bool) bool {
	n := countDigits(gs, a, b)
	if n < 7 || n > 15 || !leftBounded(s, runStart, gs, a) || !rightBounded(s, gs, b) {
		return false
	}
	if plus && a == 0 {
		return true
	}
	// A single group has no separators: order ids, prices, years,
	// timestamps.
	if b == a || hasDate(s, gs, a, b) || hasLoneDigit(s, gs, a, b) {
		return false
	}
	first := s[gs[a].start:gs[a].end]
	switch {
	case strings.HasPrefix(first, "00"):
		return n >= 10
	case first == "1":
		return isNorthAmerican(gs[a+1 : b+1])
	case isNorthAmerican(gs[a : b+1]):
		return true
	}
	// National numbers with the trunk prefix 0.
	return first[0] == '0' && n >= 9 && n <= 12
}

// leftBounded reports whether a phone number may start at group a: after
// a space between groups or, for the run's first group, not after a word
// or a word and a dash, dot or slash.
func leftBounded(s string, runStart int, gs []digitGroup, a int) bool {
	if a > 0 {
		return gs[a].sep == ' '
	}
	if runStart == 0 {
		return true
	}
	c := s[runStart-1]
	if isWord(c) {
		return false
	}
	// "ab-", "v." or "a/" before the digits: they continue a word.
	joined := (c == '-' || c == '.' || c == '/') && runStart > 1 && isWord(s[runStart-2])
	return !joined
}

// rightBounded reports whether a phone number may end at group b: before
// a space between groups or, at the run's last group, not before a word.
func rightBounded(s string, gs []digitGroup, b int) bool {
	if b+1 < len(gs) {
		return gs[b+1].sep == ' '
	}
	e := gs[b].pend
	return e >= len(s) || !isWord(s[e])
}

// hasDate reports whether three consecutive groups of a..b form a date;
// dates are never phone numbers.
func hasDate(s string, gs []digitGroup, a, b int) bool {
	for k := a; k+2 <= b; k++ {
		if isDate(s, gs[k:k+3]) {
			return true
		}
	}
	return false
}

// hasLoneDigit reports whether a group of a..b has a single digit, other
// than a leading 1 (the North American country code).
func hasLoneDigit(s string, gs []digitGroup, a, b int) bool {
	for k := a; k <= b; k++ {
		lone := gs[k].end-gs[k].start < 2
		leadingOne := k == a && s[gs[k].start] == '1'
		if lone && !leadingOne {
			return true
		}
	}
	return false
}

// isNorthAmerican reports whether gs are three groups of 3, 3 and 4
// digits.
func isNorthAmerican(gs []digitGroup) bool {
	return len(gs) == 3 && gs[0].end-gs[0].start == 3 && gs[1].end-gs[1].start == 3 && gs[2].end-gs[2].start == 4
}

// isDate reports whether three groups form a date: year-month-day or
// day-month-year (either order of day and month), joined by one
// separator.
func isDate(s string, g []digitGroup) bool {
	if g[1].sep != g[2].sep {
		return false
	}
	num := func(x digitGroup) (int, int) {
		v := 0
		for i := x.start; i < x.end; i++ {
			v = v*10 + int(s[i]-'0')
		}
		return v, x.end - x.start
	}
	x, lx := num(g[0])
	y, ly := num(g[1])
	z, lz := num(g[2])
	year := func(v, l int) bool { return l == 4 && v >= 1900 && v <= 2199 }
	dm := func(p, q int) bool { return p >= 1 && q >= 1 && (p <= 12 && q <= 31 || p <= 31 && q <= 12) }
	return year(x, lx) && ly <= 2 && lz <= 2 && dm(y, z) ||
		year(z, lz) && lx <= 2 && ly <= 2 && dm(x, y)
}
