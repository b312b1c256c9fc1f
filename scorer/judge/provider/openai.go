package provider

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// DefaultOpenAIBaseURL is the OpenAI API endpoint.
const DefaultOpenAIBaseURL = "https://api.openai.com/v1/"

// openAIProvider speaks OpenAI chat completions, to OpenAI, Azure OpenAI
// (deployment path, api-version query, api-key header) or a compatible
// server.
type openAIProvider struct{ common }

func newOpenAI(cfg Config, hc *http.Client) (*openAIProvider, error) {
	base := cmp.Or(cfg.BaseURL, DefaultOpenAIBaseURL)
	set := map[string]string{"Content-Type": "application/json", "Accept": "application/json"}
	target := endpoint(base, "chat/completions")
	if cfg.Provider == AzureOpenAI {
		target = endpoint(base, "openai/deployments", url.PathEscape(cfg.Deployment), "chat/completions") +
			"?" + url.Values{"api-version": {cfg.APIVersion}}.Encode()
		if cfg.APIKey != "" {
			set["Api-Key"] = string(cfg.APIKey)
		}
	} else if cfg.APIKey != "" {
		set["Authorization"] = "Bearer " + string(cfg.APIKey)
	}
	return &openAIProvider{newCommon(KindOpenAI, cfg, hc, target, headers(cfg, set, nil))}, nil
}

// openAIRequest is the chat completion request.
type openAIRequest struct {
	Model               string          `json:"model"`
	Messages            []openAIMessage `json:"messages"`
	MaxCompletionTokens int             `json:"max_completion_tokens,omitempty"`
	MaxTokens           int             `json:"max_tokens,omitempty"`
	Temperature         *float64        `json:"temperature,omitempty"`
	ResponseFormat      *openAIFormat   `json:"response_format,omitempty"`
}

type openAIMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// openAIFormat asks for strict json_schema structured output.
type openAIFormat struct {
	Type       string `json:"type"`
	JSONSchema struct {
		Name   string         `json:"name"`
		Strict bool           `json:"strict"`
		Schema map[string]any `json:"schema"`
	} `json:"json_schema"`
}

// openAIResponse holds the chat completion fields the judge reads.
type openAIResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content string `json:"content"`
			Refusal string `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
	} `json:"usage"`
}

// request builds the chat completion request.
func (p *openAIProvider) request(req *judge.Request) (*openAIRequest, *judge.Error) {
	system, err := p.system(req)
	if err != nil {
		return nil, err
	}
	body := &openAIRequest{Model: p.cfg.Model, Temperature: p.cfg.temperature(req)}
	if system != "" {
		body.Messages = append(body.Messages, openAIMessage{Role: "system", Content: system})
	}
	body.Messages = append(body.Messages, openAIMessage{Role: "user", Content: req.Prompt})
	if req.Schema != nil && p.cfg.Structured() {
		body.ResponseFormat = &openAIFormat{Type: "json_schema"}
		body.ResponseFormat.JSONSchema.Name = toolName(req.Schema)
		body.ResponseFormat.JSONSchema.Strict = true
		body.ResponseFormat.JSONSchema.Schema = req.Schema.JSON
	}
	if p.cfg.MaxTokensField == MaxTokens {
		body.MaxTokens = p.cfg.maxTokens(req)
	} else {
		body.MaxCompletionTokens = p.cfg.maxTokens(req)
	}
	return body, nil
}

// Complete implements judge.Provider.
func (p *openAIProvider) Complete(ctx context.Context, req *judge.Request) (*judge.Response, error) {
	body, jerr := p.request(req)
	if jerr != nil {
		return nil, jerr
	}
	return exchange(ctx, &p.common, p.header, body, p.classify, p.answer)
}

// classify reads an OpenAI error body: {"error": {"message", "type",
// "code"}}, where compatible servers may send a string error or a
// numeric code.
func (p *openAIProvider) classify(r *reply) *judge.Error {
	var body struct {
		Error json.RawMessage `json:"error"`
	}
	var e struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(r.body, &body) != nil || len(body.Error) == 0 {
		e.Message = string(r.body)
	} else if json.Unmarshal(body.Error, &e) != nil {
		_ = json.Unmarshal(body.Error, &e.Message)
	}
	var code string
	if json.Unmarshal(e.Code, &code) != nil {
		code = string(e.Code)
	}
	quota := code == "insufficient_quota" || e.Type == "insufficient_quota"
	class := statusClass(r.status, quota)
	if r.status == http.StatusBadRequest && code == "content_filter" {
		// Azure OpenAI rejects a filtered prompt with 400 content_filter.
		class = judge.ClassContentFilter
	}
	return p.httpError(r.status, r.header, class, cmp.Or(code, e.Type), e.Message)
}

// answer maps a chat completion to a judge response.
func (p *openAIProvider) answer(resp *openAIResponse, latency time.Duration) (*judge.Response, error) {
	if len(resp.Choices) == 0 {
		return nil, p.answerError(judge.ClassInvalidResponse, http.StatusOK, "no choices in the response")
	}
	ch := resp.Choices[0]
	switch {
	case ch.Message.Refusal != "":
		return nil, p.answerError(judge.ClassRefusal, http.StatusOK, "refused: %s", ch.Message.Refusal)
	case ch.FinishReason == "content_filter":
		return nil, p.answerError(judge.ClassContentFilter, http.StatusOK, "answer blocked by the content filter")
	case ch.FinishReason == "length":
		return nil, p.answerError(judge.ClassTruncated, http.StatusOK, "answer hit the output token cap")
	case strings.TrimSpace(ch.Message.Content) == "":
		return nil, p.answerError(judge.ClassInvalidResponse, http.StatusOK, "empty answer (finish_reason %q)", ch.FinishReason)
	}
	return p.response(ch.Message.Content, resp.Model, resp.Usage.PromptTokens, resp.Usage.CompletionTokens, latency), nil
}
