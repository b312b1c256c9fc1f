package provider_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"flag"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/configopaque"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
	"github.com/evalsidecar/evalsidecar/scorer/judge/provider"
)

var update = flag.Bool("update", false, "rewrite the wire golden files in testdata/wire")

// wireHeaders are the request headers the wire goldens hold: content
// negotiation, every credential header, the API version and the
// configured extra header.
var wireHeaders = []string{
	"Content-Type", "Accept", "Authorization", "Api-Key", "X-Api-Key",
	"X-Goog-Api-Key", "Anthropic-Version", "X-Server-Timeout", "X-Judge-Test",
}

// wireGolden is one captured request: method, path, query, the
// wireHeaders present and the JSON body.
type wireGolden struct {
	Method string            `json:"method"`
	Path   string            `json:"path"`
	Query  string            `json:"query,omitempty"`
	Header map[string]string `json:"header"`
	Body   json.RawMessage   `json:"body"`
}

// wireCase is one request through one provider configuration.
type wireCase struct {
	name string
	tg   target
	mod  func(*provider.Config)
	req  judge.Request
	// timeout, when set, is the call's deadline.
	timeout time.Duration
}

func targetNamed(name string) target {
	for _, tg := range targets {
		if tg.name == name {
			return tg
		}
	}
	panic("no target " + name)
}

// wireCases lists the representative requests: for every provider a plain
// text request, a structured one, the schema in the prompt, no
// temperature and a request temperature; then each provider's variants.
func wireCases() []wireCase {
	off := false
	temp := 0.75
	unnamed := &judge.Schema{JSON: verdictSchema.JSON}
	var cases []wireCase
	for _, tg := range targets {
		cases = append(cases,
			wireCase{name: "text", tg: tg, req: judge.Request{System: "You are a strict grader.", Prompt: `Grade: 2+2=4 <b>"ok"</b> & done`}},
			wireCase{name: "structured", tg: tg, req: judge.Request{System: "sys", Prompt: "grade", Schema: verdictSchema, MaxOutputTokens: 77}},
			wireCase{name: "schema_in_prompt", tg: tg, mod: func(c *provider.Config) { c.StructuredOutput = &off },
				req: judge.Request{System: "sys", Prompt: "grade", Schema: verdictSchema}},
			wireCase{name: "omit_temperature", tg: tg, mod: func(c *provider.Config) { c.OmitTemperature = true },
				req: judge.Request{Prompt: "x"}},
			wireCase{name: "request_temperature", tg: tg, mod: func(c *provider.Config) { c.Temperature = 0.5; c.MaxOutputTokens = 300 },
				req: judge.Request{Prompt: "x", Temperature: &temp}},
		)
	}
	openai, azure := targetNamed(provider.OpenAI), targetNamed(provider.AzureOpenAI)
	gemini, vertex := targetNamed(provider.Gemini), targetNamed(provider.Vertex)
	anthropic := targetNamed(provider.Anthropic)
	return append(cases,
		wireCase{name: "max_tokens", tg: openai, mod: func(c *provider.Config) { c.MaxTokensField = provider.MaxTokens }, req: judge.Request{Prompt: "p"}},
		wireCase{name: "max_tokens", tg: azure, mod: func(c *provider.Config) { c.MaxTokensField = provider.MaxTokens }, req: judge.Request{Prompt: "p"}},
		wireCase{name: "no_key", tg: openai, mod: func(c *provider.Config) { c.APIKey = "" }, req: judge.Request{Prompt: "p"}},
		wireCase{name: "deployment_bearer", tg: azure, mod: func(c *provider.Config) {
			c.Deployment, c.APIKey = "dep-1", ""
			c.Headers["Authorization"] = "Bearer entra-token"
		}, req: judge.Request{Prompt: "p"}},
		wireCase{name: "unnamed_schema", tg: anthropic, req: judge.Request{Prompt: "p", Schema: unnamed}},
		wireCase{name: "unnamed_schema", tg: openai, req: judge.Request{Prompt: "p", Schema: unnamed}},
		wireCase{name: "model_path", tg: gemini, mod: func(c *provider.Config) { c.Model = "models/judge-model-1" }, req: judge.Request{Prompt: "p"}},
		wireCase{name: "publisher_model", tg: vertex, mod: func(c *provider.Config) { c.Model = "google/judge-model-1" }, req: judge.Request{Prompt: "p"}},
		wireCase{name: "express_api_key", tg: vertex, mod: func(c *provider.Config) {
			c.APIKey, c.AccessToken, c.Project, c.Location = testKey, "", "", ""
		}, req: judge.Request{Prompt: "p"}},
		wireCase{name: "api_key_project", tg: vertex, mod: func(c *provider.Config) { c.APIKey, c.AccessToken = testKey, "" }, req: judge.Request{Prompt: "p"}},
		wireCase{name: "deadline", tg: gemini, req: judge.Request{Prompt: "p"}, timeout: 90 * time.Second},
		wireCase{name: "deadline", tg: vertex, req: judge.Request{Prompt: "p"}, timeout: 90 * time.Second},
		wireCase{name: "deadline", tg: anthropic, req: judge.Request{Prompt: "p"}, timeout: 90 * time.Second},
		wireCase{name: "adc", tg: vertex, mod: func(c *provider.Config) { c.AccessToken = "" }, req: judge.Request{Prompt: "p"}},
	)
}

// TestWireFormat sends each wire case through its provider to the judge
// server and compares the request with its golden file. The goldens were
// captured from the providers' official SDKs, so they pin the exact wire
// format: path, query, headers and a JSON-equal body.
func TestWireFormat(t *testing.T) {
	adcCredentials(t, "adc-token-1")
	for _, wc := range wireCases() {
		t.Run(wc.tg.name+"/"+wc.name, func(t *testing.T) {
			srv := judgetest.New(t)
			srv.Handle(wc.tg.wire, func(r judgetest.CapturedRequest) judgetest.Reply {
				if r.HasSchema() {
					return judgetest.JSON(`{"score":1,"reason":"r"}`)
				}
				return judgetest.Text("ok")
			})
			p := newProvider(t, srv, wc.tg, func(c *provider.Config) {
				c.Headers = configopaque.Map{"X-Judge-Test": "on"}
				if wc.mod != nil {
					wc.mod(c)
				}
			})
			req := wc.req
			ctx := t.Context()
			if wc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, wc.timeout)
				defer cancel()
			}
			if _, err := p.Complete(ctx, &req); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			got := capture(t, reqs[0])
			file := filepath.Join("testdata", "wire", wc.tg.name+"_"+wc.name+".json")
			if *update {
				b, err := json.MarshalIndent(got, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var want wireGolden
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			compareWire(t, got, want)
		})
	}
}

// capture reads the golden view of a received request.
func capture(t *testing.T, r judgetest.CapturedRequest) wireGolden {
	t.Helper()
	g := wireGolden{Method: r.Method, Path: r.Path, Query: r.RawQuery, Header: map[string]string{}}
	for _, h := range wireHeaders {
		if v := r.Header.Get(h); v != "" {
			g.Header[h] = v
		}
	}
	var body bytes.Buffer
	if err := json.Indent(&body, r.Body, "", "  "); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, r.Body)
	}
	g.Body = body.Bytes()
	return g
}

func compareWire(t *testing.T, got, want wireGolden) {
	t.Helper()
	if got.Method != want.Method || got.Path != want.Path {
		t.Errorf("request %s %s, want %s %s", got.Method, got.Path, want.Method, want.Path)
	}
	gq, _ := url.ParseQuery(got.Query)
	wq, _ := url.ParseQuery(want.Query)
	if !reflect.DeepEqual(gq, wq) {
		t.Errorf("query %q, want %q", got.Query, want.Query)
	}
	if !reflect.DeepEqual(got.Header, want.Header) {
		t.Errorf("headers %v, want %v", got.Header, want.Header)
	}
	var gb, wb any
	_ = json.Unmarshal(got.Body, &gb)
	_ = json.Unmarshal(want.Body, &wb)
	if !reflect.DeepEqual(gb, wb) {
		t.Errorf("body\n%s\nwant\n%s", got.Body, want.Body)
	}
}

// adcCredentials points Application Default Credentials at a service
// account file whose token endpoint is a local server handing out token.
func adcCredentials(t *testing.T, token string) {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": token, "token_type": "Bearer", "expires_in": 3600})
	}))
	t.Cleanup(ts.Close)
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	creds, _ := json.Marshal(map[string]string{
		"type":           "service_account",
		"project_id":     "proj-1",
		"private_key_id": "k1",
		"private_key":    string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"client_email":   "judge@proj-1.iam.gserviceaccount.com",
		"client_id":      "1",
		"token_uri":      ts.URL + "/token",
	})
	file := filepath.Join(t.TempDir(), "adc.json")
	if err := os.WriteFile(file, creds, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", file)
}
