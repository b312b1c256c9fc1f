package redact

import (
	"strings"
	"testing"
)

func TestIPv4Boundaries(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"10.0.0.1", []string{"10.0.0.1"}},
		{"at 10.0.0.1.", []string{"10.0.0.1"}},
		{"1.2.3.4:80 and 1.2.3.4/24", []string{"1.2.3.4", "1.2.3.4"}},
		{"(192.168.0.1)", []string{"192.168.0.1"}},
		{"10.0.0.1.5", nil},
		{"v10.0.0.1", nil},
		{".10.0.0.1", nil},
		{"10.0.0.1a", nil},
		{"10.0.0.1_x", nil},
		{"256.1.1.1", nil},
		{"01.2.3.4", nil},
		{"1.2.3", nil},
		{"x 1.2.3.4.5 6.7.8.9", []string{"6.7.8.9"}},
	}
	for _, c := range cases {
		var got []string
		for _, m := range (ipDetector{}).findV4(c.in, nil) {
			got = append(got, c.in[m.start:m.end])
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("findV4(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
