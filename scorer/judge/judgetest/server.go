// Package judgetest is an in-process judge server for tests. It speaks the
// real request and response formats of OpenAI chat completions (and the
// Azure OpenAI deployment path), Gemini generateContent (Gemini API and
// Vertex AI paths) and Anthropic Messages, answers with scripted replies,
// and records every request it receives.
package judgetest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Wire formats: the keys of the reply scripts.
const (
	OpenAI    = "openai"
	Gemini    = "gemini"
	Anthropic = "anthropic"
)

// Routes: the endpoint a request reached.
const (
	RouteOpenAI    = "openai"    // /v1/chat/completions
	RouteAzure     = "azure"     // /openai/deployments/{deployment}/chat/completions
	RouteGemini    = "gemini"    // /{version}/models/{model}:generateContent
	RouteVertex    = "vertex"    // /{version}/projects/{p}/locations/{l}/publishers/google/models/{m}:generateContent
	RouteAnthropic = "anthropic" // /v1/messages
)

// maxRequestBody caps the request bodies the server reads.
const maxRequestBody = 16 << 20

// Server is a scripted judge server. It is safe for concurrent use.
type Server struct {
	srv *httptest.Server

	mu       sync.Mutex
	queues   map[string][]Reply
	defaults map[string]Reply
	handlers map[string]func(CapturedRequest) Reply
	requests []CapturedRequest
}

// New starts a server that is closed when the test ends.
func New(t testing.TB) *Server {
	t.Helper()
	s := &Server{
		queues:   map[string][]Reply{},
		defaults: map[string]Reply{},
		handlers: map[string]func(CapturedRequest) Reply{},
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// URL is the server's root URL, without a trailing slash: the base URL of
// Azure OpenAI (clients add /openai/deployments/{deployment}/chat/completions),
// the Gemini API (/v1beta/models/{model}:generateContent), Vertex AI
// (/v1beta1/projects/{p}/locations/{l}/publishers/google/models/{m}:generateContent)
// and Anthropic (/v1/messages).
func (s *Server) URL() string { return s.srv.URL }

// Client is an HTTP client for the server.
func (s *Server) Client() *http.Client { return s.srv.Client() }

// OpenAIBaseURL is the base URL for an OpenAI-compatible client (…/v1).
func (s *Server) OpenAIBaseURL() string { return s.srv.URL + "/v1" }

// Enqueue appends replies to the wire format's script (OpenAI, Gemini or
// Anthropic). Azure requests take OpenAI replies, Vertex requests Gemini
// replies.
func (s *Server) Enqueue(wire string, replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queues[wire] = append(s.queues[wire], replies...)
}

// SetDefault sets the reply used when the wire format's queue is empty.
// Without one, an unscripted request gets HTTP 500.
func (s *Server) SetDefault(wire string, r Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.defaults[wire] = r
}

// Handle makes fn answer the wire format's requests whenever its queue is
// empty; fn may run concurrently.
func (s *Server) Handle(wire string, fn func(CapturedRequest) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[wire] = fn
}

// Requests returns every request received so far, oldest first.
func (s *Server) Requests() []CapturedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Pending returns how many scripted replies of the wire format are unused.
func (s *Server) Pending(wire string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queues[wire])
}

// next records req and picks its reply.
func (s *Server) next(req *CapturedRequest) (Reply, bool) {
	s.mu.Lock()
	req.Seq = len(s.requests) + 1
	s.requests = append(s.requests, *req)
	if q := s.queues[req.Wire]; len(q) > 0 {
		r := q[0]
		s.queues[req.Wire] = q[1:]
		s.mu.Unlock()
		return r, true
	}
	fn := s.handlers[req.Wire]
	def, hasDef := s.defaults[req.Wire]
	s.mu.Unlock()
	if fn != nil {
		return fn(*req), true
	}
	return def, hasDef
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	received := time.Now()
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody))
	if err != nil {
		http.Error(w, "judgetest: reading body: "+err.Error(), http.StatusBadRequest)
		return
	}
	req := CapturedRequest{
		Time:     received,
		Method:   r.Method,
		Path:     r.URL.Path,
		RawQuery: r.URL.RawQuery,
		Header:   r.Header.Clone(),
		Body:     body,
	}
	route(&req)
	decode(&req)
	reply, ok := s.next(&req)
	if req.Wire == "" {
		http.Error(w, "judgetest: no judge endpoint at "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	if !ok {
		reply = Reply{Status: http.StatusInternalServerError, ErrorMessage: "judgetest: no reply scripted"}
	}
	if reply.Delay > 0 {
		timer := time.NewTimer(reply.Delay)
		select {
		case <-timer.C:
		case <-r.Context().Done():
			timer.Stop()
			return
		}
	}
	status, respBody := render(&req, reply)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	for k, vs := range reply.Header {
		h[http.CanonicalHeaderKey(k)] = vs
	}
	w.WriteHeader(status)
	_, _ = w.Write(respBody)
}

// route sets the request's wire format and route from its path.
func route(req *CapturedRequest) {
	if req.Method != http.MethodPost {
		return
	}
	p := req.Path
	switch {
	case p == "/v1/chat/completions" || p == "/chat/completions":
		req.Wire, req.Route = OpenAI, RouteOpenAI
	case strings.HasPrefix(p, "/openai/deployments/") && strings.HasSuffix(p, "/chat/completions"):
		d := strings.TrimSuffix(strings.TrimPrefix(p, "/openai/deployments/"), "/chat/completions")
		if d != "" && !strings.Contains(d, "/") {
			req.Wire, req.Route, req.Deployment = OpenAI, RouteAzure, d
		}
	case p == "/v1/messages":
		req.Wire, req.Route = Anthropic, RouteAnthropic
	case strings.HasSuffix(p, ":generateContent"):
		routeGoogle(req, strings.TrimSuffix(p, ":generateContent"))
	}
}

// routeGoogle recognises /{version}/models/{m} (Gemini API) and
// /{version}[/projects/{p}/locations/{l}]/publishers/google/models/{m}
// (Vertex AI).
func routeGoogle(req *CapturedRequest, p string) {
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	if len(parts) < 3 {
		return
	}
	version, rest := parts[0], parts[1:]
	if !strings.HasPrefix(version, "v1") {
		return
	}
	switch {
	case len(rest) == 2 && rest[0] == "models":
		req.Wire, req.Route, req.PathModel = Gemini, RouteGemini, rest[1]
	case len(rest) == 8 && rest[0] == "projects" && rest[2] == "locations" && rest[4] == "publishers" && rest[5] == "google" && rest[6] == "models":
		req.Wire, req.Route = Gemini, RouteVertex
		req.Project, req.Location, req.PathModel = rest[1], rest[3], rest[7]
	case len(rest) == 4 && rest[0] == "publishers" && rest[1] == "google" && rest[2] == "models":
		req.Wire, req.Route, req.PathModel = Gemini, RouteVertex, rest[3]
	}
}
