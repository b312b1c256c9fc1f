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
	seen := make(map[string]bool, len(calls)) // calls by name and argument key
	var buf []byte                            // the name and argument key of a call
	n := 0
	for i := range calls {
		if names[calls[i].Name] < 2 {
			continue
		}
		buf = appendExactArgsKey(appendString(buf[:0], calls[i].Name), calls[i].Arguments, dec)
		if seen[string(buf)] {
			n++
		} else {
			seen[string(buf)] = true
		}
	}
	return n
}
