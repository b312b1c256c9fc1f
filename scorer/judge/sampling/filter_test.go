package sampling

import (
	"strings"
	"testing"
)

func TestFilterMatch(t *testing.T) {
	base := Run{
		Service: "checkout", Agent: "planner", Environment: "prod", ServiceVersion: "1.4.2",
		Attributes: map[string]string{"tenant": "acme", "region": "eu-west-1"},
	}
	with := func(f func(*Run)) Run {
		r := base
		r.Attributes = map[string]string{}
		for k, v := range base.Attributes {
			r.Attributes[k] = v
		}
		f(&r)
		return r
	}
	for _, tc := range []struct {
		name   string
		filter Filter
		run    Run
		want   bool
	}{
		{"empty filter matches anything", Filter{}, base, true},
		{"empty filter matches empty run", Filter{}, Run{}, true},
		{"exact service", Filter{Service: []string{"search", "checkout"}}, base, true},
		{"other service", Filter{Service: []string{"search"}}, base, false},
		{"exact is case-sensitive", Filter{Service: []string{"Checkout"}}, base, false},
		{"service glob", Filter{Service: []string{"check*"}}, base, true},
		{"glob anchored", Filter{Service: []string{"heck*"}}, base, false},
		{"glob with class", Filter{ServiceVersion: []string{"1.[0-4].*"}}, base, true},
		{"glob class misses", Filter{ServiceVersion: []string{"1.[5-9].*"}}, base, false},
		{"question mark", Filter{ServiceVersion: []string{"1.?.2"}}, base, true},
		{"agent", Filter{Agent: []string{"planner"}}, base, true},
		{"agent misses", Filter{Agent: []string{"writer"}}, base, false},
		{"environment", Filter{Environment: []string{"staging", "prod"}}, base, true},
		{"environment misses", Filter{Environment: []string{"staging"}}, base, false},
		{"empty value matches unset environment", Filter{Environment: []string{""}}, with(func(r *Run) { r.Environment = "" }), true},
		{"star matches unset environment", Filter{Environment: []string{"*"}}, with(func(r *Run) { r.Environment = "" }), true},
		{"glob does not cross slash", Filter{Service: []string{"team-*"}}, with(func(r *Run) { r.Service = "team-a/b" }), false},
		{"attribute exact", Filter{Attributes: map[string][]string{"tenant": {"acme"}}}, base, true},
		{"attribute glob", Filter{Attributes: map[string][]string{"region": {"eu-*"}}}, base, true},
		{"attribute value misses", Filter{Attributes: map[string][]string{"tenant": {"globex"}}}, base, false},
		{"attribute absent", Filter{Attributes: map[string][]string{"tier": {"*"}}}, base, false},
		{"attribute absent, nil map", Filter{Attributes: map[string][]string{"tier": {"*"}}}, Run{}, false},
		{"all attributes needed", Filter{Attributes: map[string][]string{"tenant": {"acme"}, "region": {"us-*"}}}, base, false},
		{"all fields match", Filter{
			Service: []string{"checkout"}, Agent: []string{"plan*"}, Environment: []string{"prod"},
			ServiceVersion: []string{"1.*"}, Attributes: map[string][]string{"tenant": {"acme"}},
		}, base, true},
		{"one field of many misses", Filter{
			Service: []string{"checkout"}, Agent: []string{"plan*"}, Environment: []string{"staging"},
		}, base, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.filter.Validate(); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if got := tc.filter.Match(&tc.run); got != tc.want {
				t.Errorf("Match = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestFilterValidate(t *testing.T) {
	f := Filter{
		Service:     []string{"ok", "bad["},
		Agent:       []string{`a\`},
		Environment: []string{"prod"},
		Attributes:  map[string][]string{"tenant": {"[z-a"}, "tier": {}, "": {"x"}},
	}
	err := f.Validate()
	if err == nil {
		t.Fatal("Validate accepted malformed patterns")
	}
	for _, want := range []string{
		`service[1]: bad glob pattern "bad["`,
		`agent[0]: bad glob pattern`,
		`attributes.tenant[0]: bad glob pattern "[z-a"`,
		`attributes.tier: must list at least one value`,
		`attributes: attribute name must not be empty`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "environment") {
		t.Errorf("error names a valid key:\n%v", err)
	}
}
