package config

import (
	"strings"
	"testing"
	"time"
)

type testInner struct {
	Endpoint string        `yaml:"endpoint"`
	Timeout  time.Duration `yaml:"timeout"`
	Tags     []string      `yaml:"tags"`
}

type testOuter struct {
	Inner   testInner            `yaml:"inner"`
	Many    []testInner          `yaml:"many"`
	ByName  map[string]testInner `yaml:"by_name"`
	Enabled bool                 `yaml:"enabled"`
}

func TestDecodeStrict(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		wantErr []string // substrings; empty means success
		check   func(t *testing.T, got testOuter)
	}{
		{
			name: "known keys over defaults",
			yaml: "inner:\n  endpoint: a:1\n  timeout: 3s\nenabled: true\n",
			check: func(t *testing.T, got testOuter) {
				if got.Inner.Endpoint != "a:1" || got.Inner.Timeout != 3*time.Second || !got.Enabled {
					t.Errorf("got %+v", got)
				}
				if got.Inner.Tags[0] != "default" {
					t.Errorf("default lost: %+v", got.Inner.Tags)
				}
			},
		},
		{name: "empty document keeps defaults", yaml: "", check: func(t *testing.T, got testOuter) {
			if got.Inner.Endpoint != "d:0" {
				t.Errorf("got %+v", got)
			}
		}},
		{name: "unknown nested key names its path", yaml: "inner:\n  endpont: x\n", wantErr: []string{"line 2: inner.endpont is not a known key"}},
		{name: "unknown key in list item", yaml: "many:\n  - endpoint: a\n  - bogus: 1\n", wantErr: []string{"many[1].bogus"}},
		{name: "unknown key in map value", yaml: "by_name:\n  x:\n    nope: 1\n", wantErr: []string{"by_name.x.nope"}},
		{name: "unknown top-level key", yaml: "extra: 1\n", wantErr: []string{"extra is not a known key"}},
		{name: "bad duration names key", yaml: "inner:\n  timeout: soon\n", wantErr: []string{"line 2 (inner.timeout)", "soon"}},
		{name: "bad bool names key", yaml: "enabled: maybe\n", wantErr: []string{"(enabled)"}},
		{name: "syntax error", yaml: "inner: [\n", wantErr: []string{"config:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := testOuter{Inner: testInner{Endpoint: "d:0", Tags: []string{"default"}}}
			_, err := decode([]byte(tt.yaml), &got, nil, nil)
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				tt.check(t, got)
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tt.wantErr)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestExpandEnv(t *testing.T) {
	env := map[string]string{"TOKEN": "s3cret", "EMPTY": ""}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	tests := []struct {
		in, want, wantErr string
	}{
		{in: "token: ${env:TOKEN}", want: "token: s3cret"},
		{in: "a: ${env:TOKEN}-${env:TOKEN}", want: "a: s3cret-s3cret"},
		{in: "a: ${env:EMPTY}", want: "a: "},
		{in: "a: ${env:UNSET:-fallback}", want: "a: fallback"},
		{in: "a: ${env:TOKEN:-fallback}", want: "a: s3cret"},
		{in: "a: $${env:TOKEN}", want: "a: ${env:TOKEN}"},
		{in: "b: ${env:UNSET}", wantErr: "environment variable UNSET is not set"},
		{in: "plain: $HOME ${NOT_ENV}", want: "plain: $HOME ${NOT_ENV}"},
	}
	for _, tt := range tests {
		got, err := expandEnv(tt.in, lookup)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("expandEnv(%q) error = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("expandEnv(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
