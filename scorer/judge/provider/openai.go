package provider

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// DefaultOpenAIBaseURL is the OpenAI API endpoint.
const DefaultOpenAIBaseURL = "https://api.openai.com/v1/"

// openAIProvider speaks OpenAI chat completions, to OpenAI, Azure OpenAI
// (deployment path, api-version query, api-key header) or a compatible
// server.
type openAIProvider struct {
	common
	cfg Config
	svc openai.ChatCompletionService
}

func newOpenAI(cfg Config, hc *http.Client) (*openAIProvider, error) {
	opts := []option.RequestOption{
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
	}
	switch cfg.Provider {
	case AzureOpenAI:
		base := strings.TrimSuffix(cfg.BaseURL, "/") + "/openai/deployments/" + url.PathEscape(cfg.Deployment) + "/"
		opts = append(opts,
			option.WithBaseURL(base),
			option.WithQueryAdd("api-version", cfg.APIVersion),
		)
		if cfg.APIKey != "" {
			opts = append(opts, option.WithHeader("api-key", string(cfg.APIKey)))
		}
	default:
		base := cfg.BaseURL
		if base == "" {
			base = DefaultOpenAIBaseURL
		}
		if !strings.HasSuffix(base, "/") {
			base += "/"
		}
		opts = append(opts, option.WithBaseURL(base))
		if cfg.APIKey != "" {
			opts = append(opts, option.WithAPIKey(string(cfg.APIKey)))
		}
	}
	for k, v := range cfg.Headers {
		opts = append(opts, option.WithHeader(k, string(v)))
	}
	return &openAIProvider{
		common: common{kind: KindOpenAI, model: cfg.Model, secrets: cfg.secrets(), now: time.Now},
		cfg:    cfg,
		svc:    openai.NewChatCompletionService(opts...),
	}, nil
}

// params builds the chat completion request.
func (p *openAIProvider) params(req *judge.Request) (openai.ChatCompletionNewParams, error) {
	system := req.System
	var format openai.ChatCompletionNewParamsResponseFormatUnion
	if req.Schema != nil {
		if p.cfg.Structured() {
			format.OfJSONSchema = &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
					Name:   toolName(req.Schema),
					Strict: param.NewOpt(true),
					Schema: req.Schema.JSON,
				},
			}
		} else {
			b, err := json.Marshal(req.Schema.JSON)
			if err != nil {
				return openai.ChatCompletionNewParams{}, err
			}
			system += schemaInstruction(b)
		}
	}
	var msgs []openai.ChatCompletionMessageParamUnion
	if system != "" {
		msgs = append(msgs, openai.SystemMessage(system))
	}
	msgs = append(msgs, openai.UserMessage(req.Prompt))
	params := openai.ChatCompletionNewParams{
		Model:          p.cfg.Model,
		Messages:       msgs,
		ResponseFormat: format,
	}
	if !p.cfg.OmitTemperature {
		params.Temperature = param.NewOpt(p.cfg.temperature(req))
	}
	limit := int64(p.cfg.MaxOutputTokens)
	if req.MaxOutputTokens > 0 {
		limit = int64(req.MaxOutputTokens)
	}
	if p.cfg.MaxTokensField == MaxTokens {
		params.MaxTokens = param.NewOpt(limit)
	} else {
		params.MaxCompletionTokens = param.NewOpt(limit)
	}
	return params, nil
}

// Complete implements judge.Provider.
func (p *openAIProvider) Complete(ctx context.Context, req *judge.Request) (*judge.Response, error) {
	params, err := p.params(req)
	if err != nil {
		return nil, p.answerError(judge.ClassBadRequest, 0, "schema does not encode: %v", err)
	}
	resp, latency, jerr := exchangeCall(ctx, &p.common, p.classify, func(ctx context.Context) (*openai.ChatCompletion, error) {
		return p.svc.New(ctx, params)
	})
	if jerr != nil {
		return nil, jerr
	}
	return p.answer(resp, latency)
}

// classify turns an SDK error into a *judge.Error.
func (p *openAIProvider) classify(ctx context.Context, err error, x *exchange) *judge.Error {
	if _, _, tooLarge := x.snapshot(); tooLarge {
		return p.callError(ctx, err, x)
	}
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode == 0 {
		return p.callError(ctx, err, x)
	}
	var h http.Header
	if apiErr.Response != nil {
		h = apiErr.Response.Header
	}
	code := apiErr.Code
	if code == "" {
		code = apiErr.Type
	}
	quota := apiErr.Code == "insufficient_quota" || apiErr.Type == "insufficient_quota"
	class := statusClass(apiErr.StatusCode, quota)
	if apiErr.StatusCode == http.StatusBadRequest && apiErr.Code == "content_filter" {
		// Azure OpenAI rejects a filtered prompt with 400 content_filter.
		class = judge.ClassContentFilter
	}
	return p.httpError(apiErr.StatusCode, h, class, code, apiErr.Message)
}

// answer maps a chat completion to a judge response.
func (p *openAIProvider) answer(resp *openai.ChatCompletion, latency time.Duration) (*judge.Response, error) {
	if resp == nil || len(resp.Choices) == 0 {
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
	model := resp.Model
	if model == "" {
		model = p.cfg.Model
	}
	return &judge.Response{
		Text:         ch.Message.Content,
		Provider:     KindOpenAI,
		Model:        model,
		InputTokens:  resp.Usage.PromptTokens,
		OutputTokens: resp.Usage.CompletionTokens,
		Latency:      latency,
	}, nil
}
