package configopaque

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestStringNeverPrintsItsValue(t *testing.T) {
	const secret = "sk-live-123456"
	s := String(secret)
	type holder struct {
		Key     String `yaml:"key" json:"key"`
		Headers Map    `yaml:"headers" json:"headers"`
	}
	h := holder{Key: s, Headers: Map{"Authorization": "Bearer " + secret}}
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("cfg", "key", s, "holder", h)
	js, _ := json.Marshal(h)
	ys, _ := yaml.Marshal(h)
	for name, out := range map[string]string{
		"%s": fmt.Sprintf("%s", s), "%v": fmt.Sprintf("%v", s), "%q": fmt.Sprintf("%q", s),
		"%#v": fmt.Sprintf("%#v", h), "%+v": fmt.Sprintf("%+v", h), "%x": fmt.Sprintf("%x", s),
		"slog": logged.String(), "json": string(js), "yaml": string(ys),
	} {
		if strings.Contains(out, secret) || !strings.Contains(out, Redacted) {
			t.Errorf("%s: %s", name, out)
		}
	}
	if String("").String() != "" {
		t.Error("an empty secret prints as redacted")
	}
	if got := h.Headers.Plain()["Authorization"]; got != "Bearer "+secret {
		t.Errorf("Plain() = %q", got)
	}
}

func TestStringDecodesFromYAML(t *testing.T) {
	var h struct {
		Key     String `yaml:"key"`
		Headers Map    `yaml:"headers"`
	}
	if err := yaml.Unmarshal([]byte("key: abc\nheaders: {x-api-key: def}\n"), &h); err != nil {
		t.Fatal(err)
	}
	if h.Key != "abc" || h.Headers["x-api-key"] != "def" {
		t.Errorf("decoded %q %q", string(h.Key), string(h.Headers["x-api-key"]))
	}
}
