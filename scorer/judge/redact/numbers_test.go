package redact

import (
	"strings"
	"testing"
)

// TestPhoneShapes pins which digit runs the number detector reports as
// phone numbers.
func TestPhoneShapes(t *testing.T) {
	d := numberDetector{phones: true}
	cases := []struct {
		in   string
		want []string
	}{
		{"+1 415 555 2671", []string{"+1 415 555 2671"}},
		{"+44 20 7946 0958", []string{"+44 20 7946 0958"}},
		{"+4915123456789", []string{"+4915123456789"}},
		{"(555) 123-4567", []string{"(555) 123-4567"}},
		{"1-800-555-0199", []string{"1-800-555-0199"}},
		{"1 555 123 4567", []string{"1 555 123 4567"}},
		{"1 55 123 4567", nil},
		{"0044 20 7946 0958", []string{"0044 20 7946 0958"}},
		{"0044 20 79", nil},
		{"030 12345678", []string{"030 12345678"}},
		{"01 23 45 67 89", []string{"01 23 45 67 89"}},
		{"0151-23456789", []string{"0151-23456789"}},
		{"call 555 123 4567 2 times", []string{"555 123 4567"}},
		{"4155552671", nil},
		{"555-1234", nil},
		{"12 34 56 78", nil},
		{"2024-01-15", nil},
		{"030 2024-01-15", nil},
		{"15.01.2024 12", nil},
		{"0 30 123 4567", nil},
		{"ab-555-123-4567", nil},
		{"v.555.123.4567", nil},
		{"x555-123-4567", nil},
		{"555-123-4567x", nil},
		{"- 555-123-4567", []string{"555-123-4567"}},
		{"030 1234 5678 9012 3456 7", []string{"030 1234 5678"}}, // the longest phone from the first group
	}
	for _, c := range cases {
		var got []string
		for _, m := range d.find(c.in, nil) {
			got = append(got, c.in[m.start:m.end])
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("find(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
