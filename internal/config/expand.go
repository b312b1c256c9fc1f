package config

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

// envRef matches ${env:NAME} and ${env:NAME:-default}.
var envRef = regexp.MustCompile(`\$\{env:([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}`)

// expandEnv replaces ${env:NAME} references in one value with the variable's
// value. A reference to an unset variable without a default is an error
// naming the variable, so a missing secret fails at start, not at first use.
// "$${env:NAME}" escapes the reference and yields it literally.
func expandEnv(src string, lookup func(string) (string, bool)) (string, error) {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	var missing []string
	out := expandLine(src, func(m []string) string {
		if v, ok := lookup(m[1]); ok {
			return v
		}
		if m[2] != "" {
			return m[3]
		}
		missing = append(missing, m[1])
		return ""
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("environment variable %s is not set", strings.Join(missing, ", "))
	}
	return out, nil
}

// expandLine applies repl to every unescaped ${env:...} reference of line.
func expandLine(line string, repl func(m []string) string) string {
	var b strings.Builder
	rest := line
	for {
		loc := envRef.FindStringSubmatchIndex(rest)
		if loc == nil {
			b.WriteString(rest)
			return b.String()
		}
		start, end := loc[0], loc[1]
		if start > 0 && rest[start-1] == '$' { // escaped: $${env:X} → ${env:X}
			b.WriteString(rest[:start-1])
			b.WriteString(rest[start:end])
			rest = rest[end:]
			continue
		}
		m := make([]string, 4)
		for g := 0; g < 4; g++ {
			if loc[2*g] >= 0 {
				m[g] = rest[loc[2*g]:loc[2*g+1]]
			}
		}
		b.WriteString(rest[:start])
		b.WriteString(repl(m))
		rest = rest[end:]
	}
}
