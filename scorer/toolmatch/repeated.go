package toolmatch

// Repeated returns how many calls repeat an earlier call: the same name
// and arguments equal under appendExactArgsKey. The first occurrence of a call
// is not counted, so three identical calls give 2. Only the arguments of
// calls whose name occurs more than once are decoded, by dec.
func Repeated(calls []Call, dec Decoder) int {
	names := make(map[string]int) // a few names, normally
	for i := range calls {
		names[calls[i].Name]++
	}
	seen := make(map[[2]string]bool, len(calls))
	var buf []byte // the key being built
	n := 0
	for i := range calls {
		if names[calls[i].Name] < 2 {
			continue
		}
		buf = appendExactArgsKey(buf[:0], calls[i].Arguments, dec)
		k := [2]string{calls[i].Name, string(buf)}
		if seen[k] {
			n++
		}
		seen[k] = true
	}
	return n
}
