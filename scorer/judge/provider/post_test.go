package provider_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
	"github.com/evalsidecar/evalsidecar/scorer/judge/provider"
)

// urlRecorder answers every request with {} and records its URL.
type urlRecorder struct {
	urls []string
}

func (u *urlRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	u.urls = append(u.urls, req.URL.String())
	return (&cannedTransport{status: http.StatusOK, body: []byte(`{}`)}).RoundTrip(req)
}

// TestDefaultEndpoints checks the URL each configuration posts to without
// a base_url: the providers' documented endpoints, with Vertex AI's
// regional, multi-regional and global hosts and its model path forms.
func TestDefaultEndpoints(t *testing.T) {
	const vertexPath = "/v1beta1/projects/p/locations/"
	tests := []struct {
		name string
		cfg  provider.Config
		want string
	}{
		{"openai", provider.Config{Provider: provider.OpenAI, Model: "gpt-4o-mini", APIKey: "k"},
			"https://api.openai.com/v1/chat/completions"},
		{"openai proxy query", provider.Config{Provider: provider.OpenAI, Model: "m", BaseURL: "https://proxy.example/v1?team=evals"},
			"https://proxy.example/v1/chat/completions"},
		{"azure", provider.Config{Provider: provider.AzureOpenAI, Model: "gpt-4o", BaseURL: "https://r.openai.azure.com/", APIVersion: "2024-10-21", APIKey: "k"},
			"https://r.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21"},
		{"anthropic", provider.Config{Provider: provider.Anthropic, Model: "claude-sonnet-4-5", APIKey: "k"},
			"https://api.anthropic.com/v1/messages"},
		{"gemini", provider.Config{Provider: provider.Gemini, Model: "gemini-2.5-flash", APIKey: "k"},
			"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"},
		{"gemini tuned", provider.Config{Provider: provider.Gemini, Model: "tunedModels/t1", APIKey: "k"},
			"https://generativelanguage.googleapis.com/v1beta/tunedModels/t1:generateContent"},
		{"vertex regional", provider.Config{Provider: provider.Vertex, Model: "gemini-2.5-flash", Project: "p", Location: "us-central1", AccessToken: "t"},
			"https://us-central1-aiplatform.googleapis.com" + vertexPath + "us-central1/publishers/google/models/gemini-2.5-flash:generateContent"},
		{"vertex multi-regional", provider.Config{Provider: provider.Vertex, Model: "m", Project: "p", Location: "eu", AccessToken: "t"},
			"https://aiplatform.eu.rep.googleapis.com" + vertexPath + "eu/publishers/google/models/m:generateContent"},
		{"vertex global", provider.Config{Provider: provider.Vertex, Model: "m", Project: "p", Location: "global", AccessToken: "t"},
			"https://aiplatform.googleapis.com" + vertexPath + "global/publishers/google/models/m:generateContent"},
		{"vertex express", provider.Config{Provider: provider.Vertex, Model: "m", APIKey: "k"},
			"https://aiplatform.googleapis.com/v1beta1/publishers/google/models/m:generateContent"},
		{"vertex other publisher", provider.Config{Provider: provider.Vertex, Model: "meta/llama-4", Project: "p", Location: "us-east5", AccessToken: "t"},
			"https://us-east5-aiplatform.googleapis.com" + vertexPath + "us-east5/publishers/meta/models/llama-4:generateContent"},
		{"vertex endpoint", provider.Config{Provider: provider.Vertex, Model: "projects/p/locations/l1/endpoints/42", Project: "p", Location: "l1", AccessToken: "t"},
			"https://l1-aiplatform.googleapis.com/v1beta1/projects/p/locations/l1/endpoints/42:generateContent"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &urlRecorder{}
			p, err := provider.New(tc.cfg, &http.Client{Transport: rec})
			if err != nil {
				t.Fatal(err)
			}
			_, _ = p.Complete(t.Context(), &judge.Request{Prompt: "p"})
			if len(rec.urls) != 1 || rec.urls[0] != tc.want {
				t.Errorf("posted to %q, want %q", rec.urls, tc.want)
			}
		})
	}
}

// TestRedirects: a redirect within the judge's origin is followed; one to
// another origin is not, so the credentials never reach it, and the call
// fails as an invalid response with the redirect's status.
func TestRedirects(t *testing.T) {
	other := judgetest.New(t)
	srv := judgetest.New(t)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/same/chat/completions":
			http.Redirect(w, r, "/v1/chat/completions", http.StatusTemporaryRedirect)
		case "/away/chat/completions":
			http.Redirect(w, r, other.OpenAIBaseURL()+"/chat/completions", http.StatusTemporaryRedirect)
		default:
			// Same origin: answer as the judge server would.
			req, _ := http.NewRequestWithContext(r.Context(), r.Method, srv.URL()+r.URL.Path, r.Body)
			req.Header = r.Header.Clone()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			defer func() { _ = resp.Body.Close() }()
			w.WriteHeader(resp.StatusCode)
			_, _ = io.Copy(w, resp.Body)
		}
	}))
	t.Cleanup(front.Close)
	srv.SetDefault(judgetest.OpenAI, judgetest.Text("ok"))
	other.SetDefault(judgetest.OpenAI, judgetest.Text("stolen"))
	newP := func(path string) judge.Provider {
		p, err := provider.New(provider.Config{Provider: provider.OpenAI, Model: "m", APIKey: testKey, BaseURL: front.URL + path}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}

	resp, err := newP("/same").Complete(t.Context(), &judge.Request{Prompt: "p"})
	if err != nil || resp.Text != "ok" {
		t.Fatalf("same-origin redirect: %+v, %v", resp, err)
	}
	if r := srv.Requests(); len(r) != 1 || r[0].User != "p" || r[0].Header.Get("Authorization") != "Bearer "+testKey {
		t.Errorf("same-origin redirect reached the judge as %+v", r)
	}

	_, err = newP("/away").Complete(t.Context(), &judge.Request{Prompt: "p"})
	je := asJudgeError(t, err)
	if je.Class != judge.ClassInvalidResponse || je.Status != http.StatusTemporaryRedirect {
		t.Errorf("cross-origin redirect: class %s status %d (%v)", je.Class, je.Status, err)
	}
	if n := len(other.Requests()); n != 0 {
		t.Errorf("the other origin received %d requests", n)
	}
}

// TestErrorBodyDetail: the provider's own words reach the error, from its
// error JSON, a compatible server's variant of it, or a body that is not
// JSON at all.
func TestErrorBodyDetail(t *testing.T) {
	tests := []struct {
		name  string
		tg    target
		reply judgetest.Reply
		class judge.Class
		want  string
	}{
		{"openai string error", targets[0], judgetest.Reply{Status: 404, Body: `{"error":"model \"llama9\" not found, try pulling it first"}`},
			judge.ClassBadRequest, `model "llama9" not found`},
		{"openai numeric code", targets[0], judgetest.Reply{Status: 429, Body: `{"error":{"message":"slow down","type":null,"code":429}}`},
			judge.ClassRateLimited, "429: slow down"},
		{"openai code and message", targets[1], judgetest.Reply{Status: 400, ErrorCode: "context_length_exceeded", ErrorMessage: "too long"},
			judge.ClassBadRequest, "context_length_exceeded: too long"},
		{"gemini status and message", targets[2], judgetest.Reply{Status: 400, ErrorMessage: "bad schema"},
			judge.ClassBadRequest, "INVALID_ARGUMENT: bad schema"},
		{"gemini plain text", targets[3], judgetest.Reply{Status: 503, Body: "upstream connect error"},
			judge.ClassOverloaded, "upstream connect error"},
		{"anthropic type and message", targets[4], judgetest.Reply{Status: 400, ErrorMessage: "max_tokens: too large"},
			judge.ClassBadRequest, "invalid_request_error: max_tokens: too large"},
		{"anthropic html", targets[4], judgetest.Reply{Status: 502, Body: "<html>bad gateway</html>"},
			judge.ClassServerError, "<html>bad gateway</html>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := judgetest.New(t)
			srv.Enqueue(tc.tg.wire, tc.reply)
			_, err := newProvider(t, srv, tc.tg, nil).Complete(t.Context(), &judge.Request{Prompt: "p"})
			je := asJudgeError(t, err)
			if je.Class != tc.class || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("class %s error %q, want %s containing %q", je.Class, err, tc.class, tc.want)
			}
		})
	}
}
