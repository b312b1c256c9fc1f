package redact

import (
	"errors"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

func newTest(t testing.TB, cfg Config) *Redactor {
	t.Helper()
	r, err := New(cfg, telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRedactCases(t *testing.T) {
	r := newTest(t, DefaultConfig())
	cases := []struct{ name, in, want string }{
		{"email", "mail jane.doe+x@example.co.uk now", "mail [REDACTED:email] now"},
		{"email trailing dot", "write to a@b.io.", "write to [REDACTED:email]."},
		{"not email", "user@localhost and @handle", "user@localhost and @handle"},
		{"e164", "call +14155552671 today", "call [REDACTED:phone] today"},
		{"intl spaced", "tel: +44 20 7946 0958.", "tel: [REDACTED:phone]."},
		{"nanp", "(555) 123-4567 or 555.123.4567 or 1-800-555-0199", "[REDACTED:phone] or [REDACTED:phone] or [REDACTED:phone]"},
		{"trunk", "Festnetz 030 12345678, mobil 0151-23456789", "Festnetz [REDACTED:phone], mobil [REDACTED:phone]"},
		{"fr", "appelez le 01 23 45 67 89", "appelez le [REDACTED:phone]"},
		{"00 prefix", "0044 20 7946 0958", "[REDACTED:phone]"},
		{"phone then count", "call 555-123-4567 2 times", "call [REDACTED:phone] 2 times"},
		{"card spaced", "card 4111 1111 1111 1111 exp 12/27", "card [REDACTED:card] exp 12/27"},
		{"card dashed", "4242-4242-4242-4242", "[REDACTED:card]"},
		{"card plain", "pan=5555555555554444;", "pan=[REDACTED:card];"},
		{"amex", "3782 822463 10005", "[REDACTED:card]"},
		{"card then year", "4111 1111 1111 1111 2027", "[REDACTED:card] 2027"},
		{"non luhn", "4111 1111 1111 1112", "4111 1111 1111 1112"},
		{"iban", "IBAN DE89 3704 0044 0532 0130 00, thanks", "IBAN [REDACTED:iban], thanks"},
		{"iban plain", "GB82WEST12345698765432", "[REDACTED:iban]"},
		{"iban bad check", "DE88 3704 0044 0532 0130 00", "DE88 3704 0044 0532 0130 00"},
		{"ipv4", "from 192.168.1.20:8080 and 10.0.0.1.", "from [REDACTED:ip]:8080 and [REDACTED:ip]."},
		{"ipv6", "addr 2001:db8::8a2e:370:7334 and [fe80::1]:80", "addr [REDACTED:ip] and [[REDACTED:ip]]:80"},
		{"ipv6 after key", "addr:fe80::1", "addr:[REDACTED:ip]"},
		{"not ip", "version 1.2.3, at 12:30:45, 999.1.1.1", "version 1.2.3, at 12:30:45, 999.1.1.1"},
		{"openai", "key sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv", "key [REDACTED:api_key]"},
		{"anthropic", "sk-ant-api03-abcDEF123456ghiJKL789012", "[REDACTED:api_key]"},
		{"not sk", "use sk-learn-compatible-estimator-wrapper", "use sk-learn-compatible-estimator-wrapper"},
		{"aws", "AKIAIOSFODNN7EXAMPLE", "[REDACTED:api_key]"},
		{"github", "ghp_1234567890abcdefghijABCDEFGHIJ123456", "[REDACTED:api_key]"},
		{"slack", "xoxb-123456789012-abcdefABCDEF", "[REDACTED:api_key]"},
		{"google", "AIzaSyA1234567890abcdefghijklmnopqrstu", "[REDACTED:api_key]"},
		{"jwt", "tok eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.sig_abc-123", "tok [REDACTED:jwt]"},
		{"bearer", "Bearer abcdef0123456789xyz", "Bearer [REDACTED:bearer]"},
		{"bearer prose", "the bearer of bad news", "the bearer of bad news"},
		{"auth header", `"Authorization": "Basic dXNlcjpwYXNzd29yZA=="`, `"Authorization": "[REDACTED:bearer]"`},
		{"kv json", `{"password": "hunter2", "user": "bob"}`, `{"password": "[REDACTED:secret]", "user": "bob"}`},
		{"kv env", "OPENAI_API_KEY=abc123 DB_PASSWORD='p@ss w'", "OPENAI_API_KEY=[REDACTED:secret] DB_PASSWORD='[REDACTED:secret]'"},
		{"kv escaped json", `"{\"client_secret\":\"s3cr3t\"}"`, `"{\"client_secret\":\"[REDACTED:secret]\"}"`},
		{"kv kept", `{"max_tokens": 512, "is_secret": false, "token_type": "bearer"}`, `{"max_tokens": 512, "is_secret": false, "token_type": "bearer"}`},
		{"url password", "postgres://admin:s3cr3t@db:5432/app", "postgres://admin:[REDACTED:secret]@db:5432/app"},
		{"marker kept", "api_key=[REDACTED:api_key]", "api_key=[REDACTED:api_key]"},
		{"keyed phone", `{"phone": "4155552671", "mobile_number": "07911 123456", "hotel_id": 1234567, "tel": "n/a"}`,
			`{"phone": "[REDACTED:phone]", "mobile_number": "[REDACTED:phone]", "hotel_id": 1234567, "tel": "n/a"}`},
		{"pem", "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow+IBAAKC/AQEA==\n-----END RSA PRIVATE KEY-----\nok",
			"key:\n[REDACTED:secret]\nok"},
		{"pem cut short", `"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEF`, `"[REDACTED:secret]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := r.Redact(c.in)
			if got != c.want {
				t.Errorf("Redact(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
			if again := r.Redact(got); again != got {
				t.Errorf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

func TestConfigTypesAndCustom(t *testing.T) {
	cfg := Config{Enabled: true, Types: []string{TypeEmail}, Custom: []CustomPattern{{Name: "employee_id", Pattern: `EMP-\d{6}`}}}
	r := newTest(t, cfg)
	in := "a@b.com 4111 1111 1111 1111 EMP-123456"
	want := "[REDACTED:email] 4111 1111 1111 1111 [REDACTED:custom:employee_id]"
	if got := r.Redact(in); got != want {
		t.Errorf("got %q want %q", got, want)
	}
	off := newTest(t, Config{Enabled: false})
	if got := off.Redact(in); got != in {
		t.Errorf("disabled redactor changed text: %q", got)
	}
	var nilR *Redactor
	if got := nilR.Redact(in); got != in {
		t.Errorf("nil redactor changed text: %q", got)
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		want []string
	}{
		{"ok", DefaultConfig(), nil},
		{"bad type", Config{Enabled: true, Types: []string{"email", "ssn"}}, []string{`redaction.types[1]: unknown type "ssn"`}},
		{"bad custom", Config{Enabled: true, Custom: []CustomPattern{
			{Name: "a", Pattern: "("},
			{Name: "", Pattern: "x"},
			{Name: "a", Pattern: "y"},
			{Name: "e", Pattern: "x*"},
			{Name: "f", Pattern: ""},
		}}, []string{
			"redaction.custom[0].pattern: error parsing regexp",
			"redaction.custom[1].name",
			`redaction.custom[2].name: duplicate name "a"`,
			"redaction.custom[3].pattern: must not match the empty string",
			"redaction.custom[4].pattern: must not be empty",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.cfg.Validate()
			if len(c.want) == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if _, nerr := New(c.cfg, telemetry.Settings{}); nerr == nil {
				t.Error("New accepted an invalid config")
			}
		})
	}
}

func TestCounter(t *testing.T) {
	reg := prometheus.NewRegistry()
	r1, err := New(DefaultConfig(), telemetry.Settings{Registerer: reg})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := New(DefaultConfig(), telemetry.Settings{Registerer: reg}) // second metric shares the counter
	if err != nil {
		t.Fatal(err)
	}
	r1.Redact("a@b.com c@d.org")
	r2.Redact("api_key=abcdef1234 and x@y.net")
	r2.Redact("nothing here")
	if got := testutil.ToFloat64(counterOf(t, reg, TypeEmail)); got != 3 {
		t.Errorf("email count = %v, want 3", got)
	}
	if got := testutil.ToFloat64(counterOf(t, reg, TypeSecret)); got != 1 {
		t.Errorf("secret count = %v, want 1", got)
	}
	// Counts only: no label or value holds redacted text.
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if strings.Contains(l.GetValue(), "@") || strings.Contains(l.GetValue(), "abcdef") {
					t.Errorf("label leaks a value: %v", l)
				}
			}
		}
	}
}

func counterOf(t *testing.T, reg *prometheus.Registry, typ string) prometheus.Collector {
	t.Helper()
	vec := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "evalsidecar_judge_redactions_total",
		Help: "Values replaced before a judge request left the process, by detector type (counts only, never values).",
	}, []string{"type"})
	err := reg.Register(vec)
	are := prometheus.AlreadyRegisteredError{}
	if !errors.As(err, &are) {
		t.Fatalf("counter not registered: %v", err)
	}
	return are.ExistingCollector.(*prometheus.CounterVec).WithLabelValues(typ)
}

// TestSecretsInNestedJSONStrings: a key-value secret inside JSON that is
// itself inside a JSON string (a tool call's arguments rendered into a
// tool result, rendered again for the judge) is found at every level of
// escaping.
func TestSecretsInNestedJSONStrings(t *testing.T) {
	r, err := New(DefaultConfig(), telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []string{
		`{"client_secret": "correct horse battery staple", "grant": "x"}`,
		`"args": "{\"client_secret\": \"correct horse battery staple\", \"grant\": \"x\"}"`,
		`"r": "f(args=\"{\\\"client_secret\\\": \\\"correct horse battery staple\\\", \\\"grant\\\": \\\"x\\\"}\")"`,
	}
	for _, c := range cases {
		got := r.Redact(c)
		if strings.Contains(got, "horse") || !strings.Contains(got, "[REDACTED:secret]") || !strings.Contains(got, "grant") {
			t.Errorf("Redact(%s) = %s", c, got)
		}
	}
}
