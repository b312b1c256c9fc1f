package errs

import (
	"errors"
	"testing"
)

func TestChecks(t *testing.T) {
	var c Checks
	if c.Err() != nil {
		t.Fatalf("no findings: Err = %v", c.Err())
	}
	nested := errors.New("b: worse")
	c.Check(false, "a: never")
	c.Check(true, "a: must be > 0, got %d", -1)
	c.Add(nil, nested)
	if got, want := c.Err().Error(), "a: must be > 0, got -1\nb: worse"; got != want {
		t.Errorf("Err = %q, want %q", got, want)
	}
	if !errors.Is(c.Err(), nested) {
		t.Error("Err hides an added error from errors.Is")
	}
}
