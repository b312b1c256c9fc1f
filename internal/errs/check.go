package errs

import (
	"errors"
	"fmt"
)

// Checks collects a validator's findings: one Check a rule, and Err joins
// the messages of the rules that failed. The zero value is ready to use.
type Checks struct{ errs []error }

// Check records the message of format and args when bad holds.
func (c *Checks) Check(bad bool, format string, args ...any) {
	if bad {
		c.errs = append(c.errs, fmt.Errorf(format, args...))
	}
}

// Add records errs, for example a nested section's Validate; nil errors
// are ignored.
func (c *Checks) Add(errs ...error) { c.errs = append(c.errs, errs...) }

// Err joins the findings (errors.Join); nil when there are none.
func (c *Checks) Err() error { return errors.Join(c.errs...) }
