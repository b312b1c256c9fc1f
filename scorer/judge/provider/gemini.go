package provider

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"cloud.google.com/go/auth"
	"cloud.google.com/go/auth/credentials"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// Gemini endpoints: the Gemini API, and Vertex AI's global and regional
// hosts.
const (
	DefaultGeminiBaseURL = "https://generativelanguage.googleapis.com/"
	vertexGlobalBaseURL  = "https://aiplatform.googleapis.com/"
)

// geminiProvider speaks generateContent to the Gemini API or Vertex AI.
//
// Vertex AI credentials, in order: Config.AccessToken (sent as a bearer
// token), Config.APIKey (Vertex AI express mode), else Application Default
// Credentials: GOOGLE_APPLICATION_CREDENTIALS, the gcloud user
// credentials, or the metadata server on Google Cloud, found once when the
// provider is built and refreshed as their tokens expire.
type geminiProvider struct {
	common
	// creds are the Application Default Credentials, nil when the config
	// carries its own.
	creds *auth.Credentials
}

// cloudPlatformScope is the OAuth scope Vertex AI needs.
const cloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"

func newGemini(cfg Config, hc *http.Client) (*geminiProvider, error) {
	p := &geminiProvider{common: newCommon(KindGemini, cfg, hc, geminiURL(cfg), nil)}
	set := map[string]string{"Content-Type": "application/json"}
	if cfg.APIKey != "" {
		set["X-Goog-Api-Key"] = string(cfg.APIKey)
	}
	switch {
	case cfg.AccessToken != "":
		set["Authorization"] = "Bearer " + string(cfg.AccessToken)
	case cfg.APIKey != "", cfg.Provider != Vertex:
	default:
		creds, err := credentials.DetectDefault(&credentials.DetectOptions{Scopes: []string{cloudPlatformScope}})
		if err != nil {
			return nil, fmt.Errorf("judge provider %q: vertex: no access_token or api_key, and no Application Default Credentials: %s", cfg.Model, p.redact(err.Error()))
		}
		p.creds = creds
	}
	p.header = headers(cfg, nil, set)
	return p, nil
}

// geminiURL is cfg's generateContent URL, built as Google's clients build
// it: models/{model} on the Gemini API; on Vertex AI
// [projects/{p}/locations/{l}/]publishers/{publisher}/models/{model} on
// the regional, multi-regional or global host.
func geminiURL(cfg Config) string {
	model, base := cfg.Model, cfg.BaseURL
	if cfg.Provider != Vertex {
		base = cmp.Or(base, DefaultGeminiBaseURL)
		if !strings.HasPrefix(model, "models/") && !strings.HasPrefix(model, "tunedModels/") {
			model = "models/" + model
		}
		return endpoint(base, "v1beta", model+":generateContent")
	}
	switch {
	case base != "":
	case cfg.Location == "global" || cfg.APIKey != "":
		base = vertexGlobalBaseURL
	case cfg.Location == "us" || cfg.Location == "eu":
		base = "https://aiplatform." + cfg.Location + ".rep.googleapis.com/"
	default:
		base = "https://" + cfg.Location + "-aiplatform.googleapis.com/"
	}
	switch {
	case strings.HasPrefix(model, "projects/") || strings.HasPrefix(model, "models/") || strings.HasPrefix(model, "publishers/"):
	case strings.Contains(model, "/"):
		publisher, name, _ := strings.Cut(model, "/")
		model = "publishers/" + publisher + "/models/" + name
	default:
		model = "publishers/google/models/" + model
	}
	if cfg.Project != "" && cfg.Location != "" && !strings.HasPrefix(model, "projects/") {
		model = "projects/" + cfg.Project + "/locations/" + cfg.Location + "/" + model
	}
	return endpoint(base, "v1beta1", model+":generateContent")
}

// geminiRequest is the generateContent request.
type geminiRequest struct {
	Contents          []geminiContent `json:"contents"`
	SystemInstruction *geminiContent  `json:"systemInstruction,omitempty"`
	GenerationConfig  struct {
		MaxOutputTokens    int            `json:"maxOutputTokens"`
		Temperature        *float64       `json:"temperature,omitempty"`
		ResponseMIMEType   string         `json:"responseMimeType,omitempty"`
		ResponseJSONSchema map[string]any `json:"responseJsonSchema,omitempty"`
	} `json:"generationConfig"`
}

type geminiContent struct {
	Role  string       `json:"role"`
	Parts []geminiPart `json:"parts"`
}

type geminiPart struct {
	Text string `json:"text"`
}

// geminiResponse holds the generateContent fields the judge reads.
type geminiResponse struct {
	ModelVersion   string `json:"modelVersion"`
	PromptFeedback struct {
		BlockReason string `json:"blockReason"`
	} `json:"promptFeedback"`
	Candidates []*struct {
		FinishReason string `json:"finishReason"`
		Content      struct {
			Parts []*struct {
				Text    string `json:"text"`
				Thought bool   `json:"thought"`
			} `json:"parts"`
		} `json:"content"`
	} `json:"candidates"`
	UsageMetadata struct {
		PromptTokenCount     int64 `json:"promptTokenCount"`
		CandidatesTokenCount int64 `json:"candidatesTokenCount"`
		ThoughtsTokenCount   int64 `json:"thoughtsTokenCount"`
	} `json:"usageMetadata"`
}

// request builds the generateContent request.
func (p *geminiProvider) request(req *judge.Request) (*geminiRequest, *judge.Error) {
	system, err := p.system(req)
	if err != nil {
		return nil, err
	}
	body := &geminiRequest{Contents: []geminiContent{{Role: "user", Parts: []geminiPart{{Text: req.Prompt}}}}}
	body.GenerationConfig.MaxOutputTokens = min(p.cfg.maxTokens(req), math.MaxInt32)
	body.GenerationConfig.Temperature = p.cfg.temperature(req)
	if req.Schema != nil && p.cfg.Structured() {
		body.GenerationConfig.ResponseMIMEType = "application/json"
		body.GenerationConfig.ResponseJSONSchema = req.Schema.JSON
	}
	if system != "" {
		body.SystemInstruction = &geminiContent{Role: "user", Parts: []geminiPart{{Text: system}}}
	}
	return body, nil
}

// Complete implements judge.Provider.
func (p *geminiProvider) Complete(ctx context.Context, req *judge.Request) (*judge.Response, error) {
	body, jerr := p.request(req)
	if jerr != nil {
		return nil, jerr
	}
	header := p.header.Clone()
	if d := p.serverTimeout(ctx); d > 0 {
		// The server gives up on the call when the client does.
		header.Set("X-Server-Timeout", strconv.FormatInt(int64(math.Ceil(d.Seconds())), 10))
	}
	if p.creds != nil {
		tok, err := p.creds.Token(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, p.callError(ctx, ctx.Err(), &reply{})
			}
			return nil, p.answerError(judge.ClassAuth, 0, "application default credentials: %v", err)
		}
		header.Set("Authorization", "Bearer "+tok.Value)
	}
	return exchange(ctx, &p.common, header, body, p.classify, p.answer)
}

// serverTimeout is the time the call has: the shorter of the HTTP
// client's timeout and the context's deadline, 0 when neither is set.
func (p *geminiProvider) serverTimeout(ctx context.Context) time.Duration {
	d := p.hc.Timeout
	if deadline, ok := ctx.Deadline(); ok && (d == 0 || time.Until(deadline) < d) {
		d = time.Until(deadline)
	}
	return d
}

// geminiQuota reports whether a Google error text is about a daily quota
// rather than a per-minute rate.
func geminiQuota(text string) bool { return mentions(text, "perday", "per day", "daily") }

// classify reads a Google error body: {"error": {"code", "message",
// "status", "details"}}.
func (p *geminiProvider) classify(r *reply) *judge.Error {
	var body struct {
		Error *struct {
			Message string          `json:"message"`
			Status  string          `json:"status"`
			Details json.RawMessage `json:"details"`
		} `json:"error"`
	}
	var status, msg, quotaText string
	if json.Unmarshal(r.body, &body) == nil && body.Error != nil {
		status, msg = body.Error.Status, body.Error.Message
		quotaText = msg + " " + string(body.Error.Details)
	} else {
		msg, quotaText = string(r.body), string(r.body)
	}
	class := statusClass(r.status, r.status == http.StatusTooManyRequests && geminiQuota(quotaText))
	return p.httpError(r.status, r.header, class, status, msg)
}

// contentFilterFinish lists the finish reasons that mean a safety block.
var contentFilterFinish = map[string]bool{
	"SAFETY":                   true,
	"PROHIBITED_CONTENT":       true,
	"BLOCKLIST":                true,
	"SPII":                     true,
	"IMAGE_SAFETY":             true,
	"IMAGE_PROHIBITED_CONTENT": true,
}

// answer maps a generateContent response to a judge response.
func (p *geminiProvider) answer(resp *geminiResponse, latency time.Duration) (*judge.Response, error) {
	if br := resp.PromptFeedback.BlockReason; br != "" && br != "BLOCKED_REASON_UNSPECIFIED" {
		return nil, p.answerError(judge.ClassContentFilter, http.StatusOK, "prompt blocked (%s)", br)
	}
	if len(resp.Candidates) == 0 || resp.Candidates[0] == nil {
		return nil, p.answerError(judge.ClassInvalidResponse, http.StatusOK, "no candidates in the response")
	}
	c := resp.Candidates[0]
	switch {
	case contentFilterFinish[c.FinishReason]:
		return nil, p.answerError(judge.ClassContentFilter, http.StatusOK, "answer blocked (finishReason %s)", c.FinishReason)
	case c.FinishReason == "MAX_TOKENS":
		return nil, p.answerError(judge.ClassTruncated, http.StatusOK, "answer hit the output token cap")
	case c.FinishReason == "RECITATION":
		return nil, p.answerError(judge.ClassRefusal, http.StatusOK, "answer withheld (finishReason RECITATION)")
	}
	var sb strings.Builder
	for _, part := range c.Content.Parts {
		if part != nil && !part.Thought {
			sb.WriteString(part.Text)
		}
	}
	text := sb.String()
	if strings.TrimSpace(text) == "" {
		return nil, p.answerError(judge.ClassInvalidResponse, http.StatusOK, "empty answer (finishReason %q)", c.FinishReason)
	}
	u := resp.UsageMetadata
	// Thinking tokens are billed as output.
	return p.response(text, resp.ModelVersion, u.PromptTokenCount, u.CandidatesTokenCount+u.ThoughtsTokenCount, latency), nil
}
