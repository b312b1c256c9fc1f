package judgetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var wantSchema = map[string]any{
	"type":                 "object",
	"properties":           map[string]any{"score": map[string]any{"type": "integer"}},
	"required":             []any{"score"},
	"additionalProperties": false,
}

// post sends body to path on srv and returns the status and response body.
func post(t *testing.T, srv *Server, path, body string, h http.Header) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL()+path, bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, vs := range h {
		req.Header[k] = vs
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRoutesAndDecoding(t *testing.T) {
	tests := []struct {
		path, fixture            string
		wire, route              string
		model, deployment        string
		project, location        string
		maxTokensField           string
		schemaName, responseMIME string
	}{
		{"/v1/chat/completions", "openai_request.json", OpenAI, RouteOpenAI, "gpt-4o-mini", "", "", "", "max_completion_tokens", "verdict", ""},
		{"/openai/deployments/prod-4o/chat/completions", "openai_request.json", OpenAI, RouteAzure, "gpt-4o-mini", "prod-4o", "", "", "max_completion_tokens", "verdict", ""},
		{"/v1beta/models/gemini-2.5-flash:generateContent", "gemini_request.json", Gemini, RouteGemini, "gemini-2.5-flash", "", "", "", "maxOutputTokens", "", "application/json"},
		{"/v1beta1/projects/p1/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent", "gemini_request.json", Gemini, RouteVertex, "gemini-2.5-pro", "", "p1", "us-central1", "maxOutputTokens", "", "application/json"},
		{"/v1/projects/p1/locations/global/publishers/google/models/gemini-2.5-pro:generateContent", "gemini_request.json", Gemini, RouteVertex, "gemini-2.5-pro", "", "p1", "global", "maxOutputTokens", "", "application/json"},
		{"/v1beta1/publishers/google/models/gemini-2.5-pro:generateContent", "gemini_request.json", Gemini, RouteVertex, "gemini-2.5-pro", "", "", "", "maxOutputTokens", "", "application/json"},
		{"/v1/messages", "anthropic_request.json", Anthropic, RouteAnthropic, "claude-sonnet-4-5", "", "", "", "max_tokens", "verdict", ""},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			srv := New(t)
			srv.Enqueue(tc.wire, Text("ok"))
			status, _ := post(t, srv, tc.path+"?api-version=2024-10-21", readFile(t, tc.fixture), http.Header{"X-Api-Key": {"k"}})
			if status != http.StatusOK {
				t.Fatalf("status %d", status)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			r := reqs[0]
			if r.Seq != 1 || r.Method != http.MethodPost || r.Path != tc.path || r.RawQuery != "api-version=2024-10-21" || r.Header.Get("X-Api-Key") != "k" || r.Time.IsZero() {
				t.Errorf("raw view %+v", r)
			}
			if string(r.Body) != readFile(t, tc.fixture) {
				t.Error("body not recorded as sent")
			}
			got := []string{r.Wire, r.Route, r.Model, r.Deployment, r.Project, r.Location, r.MaxTokensField, r.SchemaName, r.ResponseMIMEType, r.System, r.User, r.DecodeError}
			want := []string{tc.wire, tc.route, tc.model, tc.deployment, tc.project, tc.location, tc.maxTokensField, tc.schemaName, tc.responseMIME, "You grade answers.", "Question: 2+2? Answer: 4", ""}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decoded\n got %q\nwant %q", got, want)
			}
			if r.MaxTokens != 256 || r.Temperature == nil || *r.Temperature != 0 {
				t.Errorf("max tokens %d temperature %v", r.MaxTokens, r.Temperature)
			}
			if !r.HasSchema() || !reflect.DeepEqual(r.Schema, wantSchema) {
				t.Errorf("schema %v", r.Schema)
			}
			if tc.wire == OpenAI && !r.Strict {
				t.Error("strict not decoded")
			}
		})
	}
}

func TestUnknownPathAndBadBody(t *testing.T) {
	srv := New(t)
	if status, _ := post(t, srv, "/v1/completions", `{}`, nil); status != http.StatusNotFound {
		t.Errorf("unknown path: status %d", status)
	}
	if status, _ := post(t, srv, "/v1beta/models/a/b:generateContent", `{}`, nil); status != http.StatusNotFound {
		t.Errorf("bad gemini path: status %d", status)
	}
	srv.Enqueue(OpenAI, Text("ok"))
	if status, _ := post(t, srv, "/v1/chat/completions", `{not json`, nil); status != http.StatusOK {
		t.Errorf("bad body: status %d", status)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || reqs[0].Wire != "" || reqs[2].DecodeError == "" {
		t.Errorf("requests %+v", reqs)
	}
}

func TestScript(t *testing.T) {
	srv := New(t)
	body := readFile(t, "openai_request.json")
	srv.Enqueue(OpenAI, Text("first"), Status(503))
	srv.SetDefault(OpenAI, Text("default"))
	if srv.Pending(OpenAI) != 2 {
		t.Fatalf("pending %d", srv.Pending(OpenAI))
	}
	answer := func() (int, string) {
		status, b := post(t, srv, "/v1/chat/completions", body, nil)
		var v struct {
			Choices []struct {
				Message struct{ Content string } `json:"message"`
			} `json:"choices"`
			Error struct{ Type string } `json:"error"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if len(v.Choices) > 0 {
			return status, v.Choices[0].Message.Content
		}
		return status, v.Error.Type
	}
	for i, want := range []string{"200 first", "503 server_error", "200 default", "200 default"} {
		status, text := answer()
		if got := fmt.Sprintf("%d %s", status, text); got != want {
			t.Errorf("reply %d = %q, want %q", i, got, want)
		}
	}
	srv.Handle(OpenAI, func(r CapturedRequest) Reply { return Text(fmt.Sprintf("seq %d", r.Seq)) })
	if _, text := answer(); text != "seq 5" {
		t.Errorf("handler reply %q", text)
	}
	srv.Enqueue(OpenAI, Text("queued"))
	if _, text := answer(); text != "queued" {
		t.Errorf("queue should come before the handler, got %q", text)
	}
	if n := len(srv.Requests()); n != 6 {
		t.Errorf("%d requests recorded", n)
	}
}

func TestUnscriptedIs500(t *testing.T) {
	srv := New(t)
	status, b := post(t, srv, "/v1/messages", readFile(t, "anthropic_request.json"), nil)
	if status != http.StatusInternalServerError || !bytes.Contains(b, []byte("no reply scripted")) {
		t.Errorf("status %d body %s", status, b)
	}
}

func TestDelayEndsWithClient(t *testing.T) {
	srv := New(t)
	srv.Enqueue(Anthropic, Reply{Text: "late", Delay: time.Hour})
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL()+"/v1/messages", bytes.NewBufferString(readFile(t, "anthropic_request.json")))
	_, err := srv.Client().Do(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want deadline exceeded", err)
	}
	// The server must not hold the handler for the hour: closing it
	// at cleanup would hang otherwise.
}

func TestHeadersAndRawBody(t *testing.T) {
	srv := New(t)
	srv.Enqueue(OpenAI, Reply{Status: 429, Header: http.Header{"Retry-After": {"3"}, "X-Ratelimit-Reset-Tokens": {"6m0s"}}})
	srv.Enqueue(Gemini, Reply{Status: 502, Body: "<html>bad gateway</html>", Header: http.Header{"Content-Type": {"text/html"}}})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.OpenAIBaseURL()+"/chat/completions", bytes.NewBufferString(readFile(t, "openai_request.json")))
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" || resp.Header.Get("X-Ratelimit-Reset-Tokens") != "6m0s" {
		t.Errorf("status %d headers %v", resp.StatusCode, resp.Header)
	}
	req, _ = http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL()+"/v1beta/models/g:generateContent", bytes.NewBufferString(readFile(t, "gemini_request.json")))
	resp, err = srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 502 || string(b) != "<html>bad gateway</html>" || resp.Header.Get("Content-Type") != "text/html" {
		t.Errorf("status %d type %q body %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
}

func TestConcurrentUse(t *testing.T) {
	srv := New(t)
	srv.SetDefault(Gemini, Text("ok"))
	body := readFile(t, "gemini_request.json")
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for range 5 {
				req, _ := http.NewRequest(http.MethodPost, srv.URL()+"/v1beta/models/g:generateContent", bytes.NewBufferString(body))
				resp, err := srv.Client().Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				srv.Enqueue(Gemini, Text("queued"))
				_ = srv.Requests()
				_ = srv.Pending(Gemini)
			}
		})
	}
	wg.Wait()
	reqs := srv.Requests()
	if len(reqs) != 80 {
		t.Fatalf("%d requests, want 80", len(reqs))
	}
	for i, r := range reqs {
		if r.Seq != i+1 {
			t.Fatalf("request %d has seq %d", i, r.Seq)
		}
	}
}

// TestRender checks every reply kind of every format against golden files.
func TestRender(t *testing.T) {
	replies := []struct {
		name  string
		reply Reply
	}{
		{"text", Reply{Text: "The answer is right.", InputTokens: 12, OutputTokens: 5}},
		{"json", Reply{JSON: `{"score":4}`, Model: "reported-model", InputTokens: 12, OutputTokens: 5}},
		{"refusal", Reply{Refusal: "I can't help with that."}},
		{"filtered", Reply{Filtered: true}},
		{"prompt_blocked", Reply{PromptBlocked: "SAFETY"}},
		{"truncated", Reply{Truncated: true, JSON: `{"score":`}},
		{"rate_limited", Reply{Status: 429, ErrorMessage: "slow down"}},
		{"overloaded", Overloaded()},
		{"server_error", Status(500)},
		{"quota", Reply{Status: 429, ErrorType: "insufficient_quota", ErrorCode: "insufficient_quota", ErrorMessage: "quota"}},
	}
	wires := []struct{ wire, fixture string }{
		{OpenAI, "openai_request.json"}, {Gemini, "gemini_request.json"}, {Anthropic, "anthropic_request.json"},
	}
	for _, w := range wires {
		for _, rp := range replies {
			name := w.wire + "_" + rp.name
			t.Run(name, func(t *testing.T) {
				req := CapturedRequest{Seq: 7, Time: time.Unix(1790000000, 0), Method: http.MethodPost, Wire: w.wire, Body: []byte(readFile(t, w.fixture))}
				if w.wire == Gemini {
					req.PathModel = "gemini-2.5-flash"
				}
				decode(&req)
				status, body := render(&req, rp.reply)
				var pretty bytes.Buffer
				if err := json.Indent(&pretty, body, "", "  "); err != nil {
					t.Fatalf("body is not JSON: %s", body)
				}
				got := fmt.Sprintf("HTTP %d\n%s\n", status, pretty.Bytes())
				path := filepath.Join("testdata", "golden", name+".txt")
				if *update {
					if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run with -update)", err)
				}
				if got != string(want) {
					t.Errorf("render mismatch\n got %s\nwant %s", got, want)
				}
			})
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, name := range []string{"openai_request.json", "gemini_request.json", "anthropic_request.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(0))
		f.Add(b, uint8(1))
		f.Add(b, uint8(2))
	}
	f.Add([]byte(`{"messages":[{"role":"user","content":7}],"system":{}}`), uint8(2))
	wires := []string{OpenAI, Gemini, Anthropic}
	f.Fuzz(func(t *testing.T, body []byte, w uint8) {
		req := CapturedRequest{Wire: wires[int(w)%len(wires)], Body: body}
		decode(&req)
		status, out := render(&req, Reply{JSON: string(body)})
		if status != http.StatusOK || !json.Valid(out) {
			t.Fatalf("render gave %d %q", status, out)
		}
	})
}
