package config

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

// envRef matches ${env:NAME} and ${env:NAME:-default}, and their escaped
// form $${env:...}.
var envRef = regexp.MustCompile(`\$?\$\{env:([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}`)

// expandEnv replaces ${env:NAME} references in one value with the variable's
// value. A reference to an unset variable without a default is an error
// naming the variable, so a missing secret fails at start, not at first use.
// "$${env:NAME}" escapes the reference and yields it literally.
func expandEnv(src string, lookup func(string) (string, bool)) (string, error) {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	var missing []string
	out := envRef.ReplaceAllStringFunc(src, func(ref string) string {
		if strings.HasPrefix(ref, "$$") { // escaped: $${env:X} → ${env:X}
			return ref[1:]
		}
		m := envRef.FindStringSubmatch(ref)
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
