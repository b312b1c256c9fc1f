package extractor

// Reasons a released trace is partial, the values of the reason label of
// evalsidecar_assembler_partial_traces_total. Both are what a trace split
// across replicas looks like on each of them (spans of one trace reaching
// different sidecars); a service whose upstream parent span is exported
// elsewhere also shows as no_root.
const (
	PartialNoRoot        = "no_root"        // no span without a parent arrived
	PartialMissingParent = "missing_parent" // the root arrived, but some span's parent did not
)

// partialReason returns why t is partial, or "" when every span's parent
// is in it.
func partialReason(t *Trace) string {
	if !t.hasRoot {
		return PartialNoRoot
	}
	for i := range t.spans {
		if s := &t.spans[i]; s.hasParent() && !t.has(s.parent) {
			return PartialMissingParent
		}
	}
	return ""
}
