package redact

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

type plantedDoc struct {
	Text    string `json:"text"`
	Secrets []struct {
		Type  string `json:"type"`
		Value string `json:"value"`
	} `json:"secrets"`
}

func digitsOnly(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// TestPlantedSecrets: no planted secret survives, in raw or (for cards and
// phones) digits-only form, and each is replaced by its own type.
func TestPlantedSecrets(t *testing.T) {
	raw, err := os.ReadFile("testdata/planted.json")
	if err != nil {
		t.Fatal(err)
	}
	var docs []plantedDoc
	if err := json.Unmarshal(raw, &docs); err != nil {
		t.Fatal(err)
	}
	r := newTest(t, DefaultConfig())
	total := 0
	types := map[string]int{}
	for i, d := range docs {
		out := r.Redact(d.Text)
		for _, s := range d.Secrets {
			total++
			types[s.Type]++
			if strings.Contains(out, s.Value) {
				t.Errorf("doc %d: %s %q survived:\n%s", i, s.Type, s.Value, out)
			}
			if s.Type == TypeCard || s.Type == TypePhone {
				if dg := digitsOnly(s.Value); strings.Contains(out, dg) || strings.Contains(digitsOnly(out), dg) {
					t.Errorf("doc %d: digits of %s %q survived:\n%s", i, s.Type, s.Value, out)
				}
			}
			if !strings.Contains(out, "[REDACTED:"+s.Type+"]") {
				t.Errorf("doc %d: no [REDACTED:%s] marker:\n%s", i, s.Type, out)
			}
		}
	}
	if total < 100 {
		t.Errorf("corpus holds %d secrets, want >= 100", total)
	}
	for _, typ := range Types() {
		if types[typ] == 0 {
			t.Errorf("corpus has no %s", typ)
		}
	}
}

// TestNegativeCorpus: ordinary ids, dates, prices, versions, UUIDs,
// timestamps and non-Luhn numbers reach the judge unchanged.
func TestNegativeCorpus(t *testing.T) {
	f, err := os.Open("testdata/negative.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := newTest(t, DefaultConfig())
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n++
		if got := r.Redact(line); got != line {
			t.Errorf("changed:\n in: %s\nout: %s", line, got)
		}
	}
	if n < 30 {
		t.Errorf("negative corpus has %d lines, want >= 30", n)
	}
}
