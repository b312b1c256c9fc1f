package receiver

import (
	"crypto/sha256"
	"crypto/subtle"
	"strings"
)

// bearerAuth checks "Authorization: Bearer <token>" values in constant time.
// A nil *bearerAuth accepts everything.
type bearerAuth struct {
	want [sha256.Size]byte
}

func newBearerAuth(token string) *bearerAuth {
	if token == "" {
		return nil
	}
	return &bearerAuth{want: sha256.Sum256([]byte(token))}
}

// check reports whether one of the authorization values carries the token.
// Comparing digests keeps the time independent of the token's length.
func (a *bearerAuth) check(values []string) bool {
	if a == nil {
		return true
	}
	ok := 0
	for _, v := range values {
		scheme, token, found := strings.Cut(strings.TrimSpace(v), " ")
		if !found || !strings.EqualFold(scheme, "Bearer") {
			continue
		}
		got := sha256.Sum256([]byte(strings.TrimSpace(token)))
		ok |= subtle.ConstantTimeCompare(got[:], a.want[:])
	}
	return ok == 1
}
