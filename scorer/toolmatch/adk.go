package toolmatch

import (
	"fmt"
	"slices"
	"strings"
)

// MatchType is how Google ADK's tool_trajectory_avg_score compares an
// invocation's actual tool calls with the expected ones.
type MatchType uint8

// ADK match types, with ADK's enum values.
const (
	// MatchExact: same length and pairwise equal calls in order.
	MatchExact MatchType = iota
	// MatchInOrder: the expected calls appear in the actual ones in order;
	// extra actual calls allowed.
	MatchInOrder
	// MatchAnyOrder: the expected calls appear in the actual ones in any
	// order, each consuming one actual call; extras allowed.
	MatchAnyOrder
)

// matchTypeNames are the ADK names of the match types, in enum order.
var matchTypeNames = [...]string{"EXACT", "IN_ORDER", "ANY_ORDER"}

// String returns the ADK name: "EXACT", "IN_ORDER" or "ANY_ORDER".
func (m MatchType) String() string {
	if int(m) < len(matchTypeNames) {
		return matchTypeNames[m]
	}
	return fmt.Sprintf("MatchType(%d)", uint8(m))
}

// ParseMatchType reads a match type as ADK does: case-insensitive, with
// '-' and ' ' read as '_' ("exact", "in-order", "Any Order").
func ParseMatchType(s string) (MatchType, error) {
	n := strings.ToUpper(strings.NewReplacer("-", "_", " ", "_").Replace(strings.TrimSpace(s)))
	if i := slices.Index(matchTypeNames[:], n); i >= 0 {
		return MatchType(i), nil
	}
	return 0, fmt.Errorf("unknown match type %q (want EXACT, IN_ORDER or ANY_ORDER)", s)
}

// TrajectoryMatches is ADK's per-invocation tool-trajectory check: calls
// are equal when their names and argument keys are (ADK: PythonEqual, or
// NameOnly for ignore_args), compared as m says. Empty expected calls
// match for IN_ORDER and ANY_ORDER; EXACT needs the actual calls empty
// too.
func TrajectoryMatches(actual, expected []Call, m MatchType, key ArgsKey) bool {
	c := Compare(actual, expected, key)
	switch m {
	case MatchInOrder:
		return c.InOrderMatch()
	case MatchAnyOrder:
		return c.AnyOrderMatch()
	}
	return c.ExactMatch()
}
