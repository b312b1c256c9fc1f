package provider

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/anthropics/anthropic-sdk-go/packages/param"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// DefaultAnthropicBaseURL is the Anthropic API endpoint.
const DefaultAnthropicBaseURL = "https://api.anthropic.com/"

// defaultToolName names the structured answer when the schema has no name.
const defaultToolName = "judge_answer"

// anthropicProvider speaks the Anthropic Messages API. Structured output
// is a forced call of one tool whose input schema is the request schema;
// the answer is the tool input.
type anthropicProvider struct {
	common
	cfg Config
	svc anthropic.MessageService
}

func newAnthropic(cfg Config, hc *http.Client) (*anthropicProvider, error) {
	base := cfg.BaseURL
	if base == "" {
		base = DefaultAnthropicBaseURL
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	opts := []option.RequestOption{
		option.WithBaseURL(base),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
		// The SDK's own spans and trace-context headers are off: judge
		// telemetry belongs to judge.Client, and the sidecar must not
		// trace its own judge calls through the global provider.
		option.WithoutOpenTelemetry(),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(string(cfg.APIKey)))
	}
	for k, v := range cfg.Headers {
		opts = append(opts, option.WithHeader(k, string(v)))
	}
	return &anthropicProvider{
		common: common{kind: KindAnthropic, model: cfg.Model, secrets: cfg.secrets(), now: time.Now},
		cfg:    cfg,
		svc:    anthropic.NewMessageService(opts...),
	}, nil
}

// toolName returns the name the provider gets for schema s: the Anthropic
// forced tool, the OpenAI json_schema name.
func toolName(s *judge.Schema) string {
	if s.Name != "" {
		return s.Name
	}
	return defaultToolName
}

// inputSchema converts a JSON Schema object to the tool input schema.
func inputSchema(schema map[string]any) anthropic.ToolInputSchemaParam {
	in := anthropic.ToolInputSchemaParam{ExtraFields: map[string]any{}}
	for k, v := range schema {
		switch k {
		case "type":
		case "properties":
			in.Properties = v
		case "required":
			switch r := v.(type) {
			case []string:
				in.Required = r
			case []any:
				for _, s := range r {
					if s, ok := s.(string); ok {
						in.Required = append(in.Required, s)
					}
				}
			}
		default:
			in.ExtraFields[k] = v
		}
	}
	return in
}

// params builds the Messages request.
func (p *anthropicProvider) params(req *judge.Request) (anthropic.MessageNewParams, error) {
	system := req.System
	limit := int64(p.cfg.MaxOutputTokens)
	if req.MaxOutputTokens > 0 {
		limit = int64(req.MaxOutputTokens)
	}
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(p.cfg.Model),
		MaxTokens: limit,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(req.Prompt))},
	}
	if !p.cfg.OmitTemperature {
		params.Temperature = param.NewOpt(p.cfg.temperature(req))
	}
	if req.Schema != nil {
		if p.cfg.Structured() {
			name := toolName(req.Schema)
			tool := anthropic.ToolUnionParamOfTool(inputSchema(req.Schema.JSON), name)
			tool.OfTool.Description = param.NewOpt("Record the evaluation result.")
			params.Tools = []anthropic.ToolUnionParam{tool}
			params.ToolChoice = anthropic.ToolChoiceParamOfTool(name)
		} else {
			b, err := json.Marshal(req.Schema.JSON)
			if err != nil {
				return params, err
			}
			system += schemaInstruction(b)
		}
	}
	if system != "" {
		params.System = []anthropic.TextBlockParam{{Text: system}}
	}
	return params, nil
}

// Complete implements judge.Provider.
func (p *anthropicProvider) Complete(ctx context.Context, req *judge.Request) (*judge.Response, error) {
	params, err := p.params(req)
	if err != nil {
		return nil, p.answerError(judge.ClassBadRequest, 0, "schema does not encode: %v", err)
	}
	msg, latency, jerr := exchangeCall(ctx, &p.common, p.classify, func(ctx context.Context) (*anthropic.Message, error) {
		return p.svc.New(ctx, params)
	})
	if jerr != nil {
		return nil, jerr
	}
	return p.answer(req, msg, latency)
}

// anthropicErrorBody is Anthropic's error JSON.
type anthropicErrorBody struct {
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// anthropicQuota reports whether an error is about spend or billing.
func anthropicQuota(errType, raw string) bool {
	if errType == "billing_error" {
		return true
	}
	l := strings.ToLower(raw)
	for _, m := range []string{"enforced_spend_limit", "spend limit", "spend_limit", "credit balance", "billing"} {
		if strings.Contains(l, m) {
			return true
		}
	}
	return false
}

// classify turns an SDK error into a *judge.Error.
func (p *anthropicProvider) classify(ctx context.Context, err error, x *exchange) *judge.Error {
	if _, _, tooLarge := x.snapshot(); tooLarge {
		return p.callError(ctx, err, x)
	}
	var apiErr *anthropic.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode == 0 {
		return p.callError(ctx, err, x)
	}
	var h http.Header
	if apiErr.Response != nil {
		h = apiErr.Response.Header
	}
	raw := apiErr.RawJSON()
	var body anthropicErrorBody
	_ = json.Unmarshal([]byte(raw), &body)
	errType := body.Error.Type
	if errType == "" {
		errType = string(apiErr.Type())
	}
	msg := body.Error.Message
	if msg == "" && body.Error.Type == "" {
		msg = raw
	}
	class := statusClass(apiErr.StatusCode, anthropicQuota(errType, raw))
	if errType == "overloaded_error" {
		class = judge.ClassOverloaded
	}
	return p.httpError(apiErr.StatusCode, h, class, errType, msg)
}

// answer maps a message to a judge response.
func (p *anthropicProvider) answer(req *judge.Request, msg *anthropic.Message, latency time.Duration) (*judge.Response, error) {
	if msg == nil {
		return nil, p.answerError(judge.ClassInvalidResponse, http.StatusOK, "empty response")
	}
	switch msg.StopReason {
	case anthropic.StopReasonMaxTokens, anthropic.StopReasonModelContextWindowExceeded:
		return nil, p.answerError(judge.ClassTruncated, http.StatusOK, "answer hit the output token cap (stop_reason %s)", msg.StopReason)
	case anthropic.StopReasonRefusal:
		return nil, p.answerError(judge.ClassRefusal, http.StatusOK, "refused (stop_reason refusal)")
	}
	var text string
	if req.Schema != nil && p.cfg.Structured() {
		name := toolName(req.Schema)
		for _, b := range msg.Content {
			if b.Type == "tool_use" && b.Name == name {
				text = string(b.Input)
				break
			}
		}
		if text == "" || text == "null" {
			return nil, p.answerError(judge.ClassInvalidResponse, http.StatusOK, "no %s tool call in the answer (stop_reason %q)", name, msg.StopReason)
		}
	} else {
		var sb strings.Builder
		for _, b := range msg.Content {
			if b.Type == "text" {
				sb.WriteString(b.Text)
			}
		}
		text = sb.String()
		if strings.TrimSpace(text) == "" {
			return nil, p.answerError(judge.ClassInvalidResponse, http.StatusOK, "empty answer (stop_reason %q)", msg.StopReason)
		}
	}
	model := string(msg.Model)
	if model == "" {
		model = p.cfg.Model
	}
	return &judge.Response{
		Text:         text,
		Provider:     KindAnthropic,
		Model:        model,
		InputTokens:  msg.Usage.InputTokens,
		OutputTokens: msg.Usage.OutputTokens,
		Latency:      latency,
	}, nil
}
