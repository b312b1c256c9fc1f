package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"cloud.google.com/go/auth"
	"cloud.google.com/go/auth/credentials"
	"google.golang.org/genai"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
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
	cfg    Config
	client *genai.Client
	// creds are the Application Default Credentials, nil when the config
	// carries its own.
	creds *auth.Credentials
}

// cloudPlatformScope is the OAuth scope Vertex AI needs.
const cloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"

func newGemini(cfg Config, hc *http.Client) (*geminiProvider, error) {
	headers := http.Header{}
	for k, v := range cfg.Headers {
		headers.Set(k, string(v))
	}
	one := int32(1)
	cc := &genai.ClientConfig{
		HTTPClient: hc,
		HTTPOptions: genai.HTTPOptions{
			BaseURL:      cfg.BaseURL,
			Headers:      headers,
			RetryOptions: &genai.HTTPRetryOptions{Attempts: &one},
		},
		APIKey: string(cfg.APIKey),
	}
	p := &geminiProvider{
		common: common{kind: KindGemini, model: cfg.Model, secrets: cfg.secrets(), now: time.Now},
		cfg:    cfg,
	}
	if cfg.Provider == Vertex {
		cc.Backend = genai.BackendVertexAI
		cc.Project = cfg.Project
		cc.Location = cfg.Location
		switch {
		case cfg.AccessToken != "":
			headers.Set("Authorization", "Bearer "+string(cfg.AccessToken))
		case cfg.APIKey != "":
		default:
			creds, err := credentials.DetectDefault(&credentials.DetectOptions{Scopes: []string{cloudPlatformScope}})
			if err != nil {
				return nil, fmt.Errorf("judge provider %q: vertex: no access_token or api_key, and no Application Default Credentials: %s", cfg.Model, p.redact(err.Error()))
			}
			p.creds = creds
		}
	} else {
		cc.Backend = genai.BackendGeminiAPI
	}
	client, err := genai.NewClient(context.Background(), cc)
	if err != nil {
		return nil, fmt.Errorf("judge provider %q: %s", cfg.Model, p.redact(err.Error()))
	}
	p.client = client
	return p, nil
}

// config builds the generateContent configuration.
func (p *geminiProvider) config(req *judge.Request) (*genai.GenerateContentConfig, error) {
	system := req.System
	temp := float32(p.cfg.temperature(req))
	limit := p.cfg.MaxOutputTokens
	if req.MaxOutputTokens > 0 {
		limit = req.MaxOutputTokens
	}
	off := false
	gc := &genai.GenerateContentConfig{
		MaxOutputTokens:       int32(min(limit, 1<<31-1)),
		AutomaticContinuation: &off,
	}
	if !p.cfg.OmitTemperature {
		gc.Temperature = &temp
	}
	if req.Schema != nil {
		if p.cfg.Structured() {
			gc.ResponseMIMEType = "application/json"
			gc.ResponseJsonSchema = req.Schema.JSON
		} else {
			b, err := json.Marshal(req.Schema.JSON)
			if err != nil {
				return nil, err
			}
			system += schemaInstruction(b)
		}
	}
	if system != "" {
		gc.SystemInstruction = genai.NewContentFromText(system, genai.RoleUser)
	}
	return gc, nil
}

// Complete implements judge.Provider.
func (p *geminiProvider) Complete(ctx context.Context, req *judge.Request) (*judge.Response, error) {
	gc, err := p.config(req)
	if err != nil {
		return nil, p.answerError(judge.ClassBadRequest, 0, "schema does not encode: %v", err)
	}
	if p.creds != nil {
		tok, err := p.creds.Token(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, p.callError(ctx, ctx.Err(), &exchange{})
			}
			return nil, p.answerError(judge.ClassAuth, 0, "application default credentials: %v", err)
		}
		gc.HTTPOptions = &genai.HTTPOptions{Headers: http.Header{"Authorization": {"Bearer " + tok.Value}}}
	}
	resp, latency, jerr := exchangeCall(ctx, &p.common, p.classify, func(ctx context.Context) (*genai.GenerateContentResponse, error) {
		return p.client.Models.GenerateContent(ctx, p.cfg.Model, genai.Text(req.Prompt), gc)
	})
	if jerr != nil {
		return nil, jerr
	}
	return p.answer(resp, latency)
}

// geminiQuota reports whether a Google error is about a daily quota
// rather than a per-minute rate.
func geminiQuota(e genai.APIError) bool {
	text := e.Message
	if len(e.Details) > 0 {
		if b, err := json.Marshal(e.Details); err == nil {
			text += " " + string(b)
		}
	}
	l := strings.ToLower(text)
	for _, m := range []string{"perday", "per day", "daily"} {
		if strings.Contains(l, m) {
			return true
		}
	}
	return false
}

// classify turns an SDK error into a *judge.Error.
func (p *geminiProvider) classify(ctx context.Context, err error, x *exchange) *judge.Error {
	status, header, tooLarge := x.snapshot()
	if tooLarge {
		return p.callError(ctx, err, x)
	}
	var apiErr genai.APIError
	if !errors.As(err, &apiErr) {
		var ptr *genai.APIError
		if !errors.As(err, &ptr) || ptr == nil {
			return p.callError(ctx, err, x)
		}
		apiErr = *ptr
	}
	if status < 400 {
		// The body's code is the HTTP status when the transport saw none.
		status = apiErr.Code
	}
	if status < 400 {
		return p.callError(ctx, err, x)
	}
	class := statusClass(status, status == http.StatusTooManyRequests && geminiQuota(apiErr))
	return p.httpError(status, header, class, apiErr.Status, apiErr.Message)
}

// contentFilterFinish lists the finish reasons that mean a safety block.
var contentFilterFinish = map[genai.FinishReason]bool{
	genai.FinishReasonSafety:                 true,
	genai.FinishReasonProhibitedContent:      true,
	genai.FinishReasonBlocklist:              true,
	genai.FinishReasonSPII:                   true,
	genai.FinishReasonImageSafety:            true,
	genai.FinishReasonImageProhibitedContent: true,
}

// answer maps a generateContent response to a judge response.
func (p *geminiProvider) answer(resp *genai.GenerateContentResponse, latency time.Duration) (*judge.Response, error) {
	if resp == nil {
		return nil, p.answerError(judge.ClassInvalidResponse, http.StatusOK, "empty response")
	}
	if fb := resp.PromptFeedback; fb != nil && fb.BlockReason != "" && fb.BlockReason != genai.BlockedReasonUnspecified {
		return nil, p.answerError(judge.ClassContentFilter, http.StatusOK, "prompt blocked (%s)", fb.BlockReason)
	}
	if len(resp.Candidates) == 0 || resp.Candidates[0] == nil {
		return nil, p.answerError(judge.ClassInvalidResponse, http.StatusOK, "no candidates in the response")
	}
	c := resp.Candidates[0]
	switch {
	case contentFilterFinish[c.FinishReason]:
		return nil, p.answerError(judge.ClassContentFilter, http.StatusOK, "answer blocked (finishReason %s)", c.FinishReason)
	case c.FinishReason == genai.FinishReasonMaxTokens:
		return nil, p.answerError(judge.ClassTruncated, http.StatusOK, "answer hit the output token cap")
	case c.FinishReason == genai.FinishReasonRecitation:
		return nil, p.answerError(judge.ClassRefusal, http.StatusOK, "answer withheld (finishReason RECITATION)")
	}
	var sb strings.Builder
	if c.Content != nil {
		for _, part := range c.Content.Parts {
			if part != nil && !part.Thought {
				sb.WriteString(part.Text)
			}
		}
	}
	text := sb.String()
	if strings.TrimSpace(text) == "" {
		return nil, p.answerError(judge.ClassInvalidResponse, http.StatusOK, "empty answer (finishReason %q)", c.FinishReason)
	}
	out := &judge.Response{
		Text:     text,
		Provider: KindGemini,
		Model:    resp.ModelVersion,
		Latency:  latency,
	}
	if out.Model == "" {
		out.Model = p.cfg.Model
	}
	if u := resp.UsageMetadata; u != nil {
		out.InputTokens = int64(u.PromptTokenCount)
		// Thinking tokens are billed as output.
		out.OutputTokens = int64(u.CandidatesTokenCount) + int64(u.ThoughtsTokenCount)
	}
	return out, nil
}
