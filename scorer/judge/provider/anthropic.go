package provider

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"strings"
	"time"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// DefaultAnthropicBaseURL is the Anthropic API endpoint.
const DefaultAnthropicBaseURL = "https://api.anthropic.com/"

// anthropicVersion is the Messages API version sent as anthropic-version.
const anthropicVersion = "2023-06-01"

// maxNonStreamingTokens is the largest max_tokens Anthropic serves without
// streaming: a larger cap may take over ten minutes (an hour per 128,000
// tokens).
const maxNonStreamingTokens = 21333

// defaultToolName names the structured answer when the schema has no name.
const defaultToolName = "judge_answer"

// anthropicProvider speaks the Anthropic Messages API. Structured output
// is a forced call of one tool whose input schema is the request schema;
// the answer is the tool input.
type anthropicProvider struct{ common }

func newAnthropic(cfg Config, hc *http.Client) (*anthropicProvider, error) {
	base := cmp.Or(cfg.BaseURL, DefaultAnthropicBaseURL)
	set := map[string]string{"Content-Type": "application/json", "Accept": "application/json", "Anthropic-Version": anthropicVersion}
	if cfg.APIKey != "" {
		set["X-Api-Key"] = string(cfg.APIKey)
	}
	return &anthropicProvider{newCommon(KindAnthropic, cfg, hc, endpoint(base, "v1/messages"), headers(cfg, set, nil))}, nil
}

// toolName returns the name the provider gets for schema s: the Anthropic
// forced tool, the OpenAI json_schema name.
func toolName(s *judge.Schema) string {
	if s.Name != "" {
		return s.Name
	}
	return defaultToolName
}

// anthropicRequest is the Messages request.
type anthropicRequest struct {
	Model       string             `json:"model"`
	MaxTokens   int                `json:"max_tokens"`
	Messages    []anthropicMessage `json:"messages"`
	System      []anthropicText    `json:"system,omitempty"`
	Temperature *float64           `json:"temperature,omitempty"`
	Tools       []anthropicTool    `json:"tools,omitempty"`
	ToolChoice  *anthropicChoice   `json:"tool_choice,omitempty"`
}

type anthropicMessage struct {
	Role    string          `json:"role"`
	Content []anthropicText `json:"content"`
}

type anthropicText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type anthropicTool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	InputSchema map[string]any `json:"input_schema"`
}

type anthropicChoice struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

// anthropicResponse holds the message fields the judge reads.
type anthropicResponse struct {
	Model      string `json:"model"`
	StopReason string `json:"stop_reason"`
	Content    []struct {
		Type  string          `json:"type"`
		Text  string          `json:"text"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"content"`
	Usage struct {
		InputTokens  int64 `json:"input_tokens"`
		OutputTokens int64 `json:"output_tokens"`
	} `json:"usage"`
}

// request builds the Messages request.
func (p *anthropicProvider) request(req *judge.Request) (*anthropicRequest, *judge.Error) {
	system, err := p.system(req)
	if err != nil {
		return nil, err
	}
	body := &anthropicRequest{
		Model:       p.cfg.Model,
		MaxTokens:   p.cfg.maxTokens(req),
		Messages:    []anthropicMessage{{Role: "user", Content: []anthropicText{{Type: "text", Text: req.Prompt}}}},
		Temperature: p.cfg.temperature(req),
	}
	if system != "" {
		body.System = []anthropicText{{Type: "text", Text: system}}
	}
	if req.Schema != nil && p.cfg.Structured() {
		name := toolName(req.Schema)
		// A tool's input schema is always an object.
		schema := maps.Clone(req.Schema.JSON)
		if schema == nil {
			schema = map[string]any{}
		}
		schema["type"] = "object"
		body.Tools = []anthropicTool{{Name: name, Description: "Record the evaluation result.", InputSchema: schema}}
		body.ToolChoice = &anthropicChoice{Type: "tool", Name: name}
	}
	return body, nil
}

// Complete implements judge.Provider.
func (p *anthropicProvider) Complete(ctx context.Context, req *judge.Request) (*judge.Response, error) {
	body, jerr := p.request(req)
	if jerr != nil {
		return nil, jerr
	}
	if body.MaxTokens > maxNonStreamingTokens {
		return nil, p.answerError(judge.ClassBadRequest, 0, "request not sent: max_tokens %d over %d needs streaming", body.MaxTokens, maxNonStreamingTokens)
	}
	return exchange(ctx, &p.common, p.header, body, p.classify, func(msg *anthropicResponse, latency time.Duration) (*judge.Response, error) {
		return p.answer(req, msg, latency)
	})
}

// anthropicQuota reports whether an error is about spend or billing.
func anthropicQuota(errType, raw string) bool {
	return errType == "billing_error" || mentions(raw, "enforced_spend_limit", "spend limit", "spend_limit", "credit balance", "billing")
}

// classify reads an Anthropic error body: {"error": {"type", "message"}}.
func (p *anthropicProvider) classify(r *reply) *judge.Error {
	var body struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(r.body, &body)
	e := body.Error
	if e.Type == "" && e.Message == "" {
		e.Message = string(r.body)
	}
	class := statusClass(r.status, anthropicQuota(e.Type, string(r.body)))
	if e.Type == "overloaded_error" {
		class = judge.ClassOverloaded
	}
	return p.httpError(r.status, r.header, class, e.Type, e.Message)
}

// answer maps a message to a judge response.
func (p *anthropicProvider) answer(req *judge.Request, msg *anthropicResponse, latency time.Duration) (*judge.Response, error) {
	switch msg.StopReason {
	case "max_tokens", "model_context_window_exceeded":
		return nil, p.answerError(judge.ClassTruncated, http.StatusOK, "answer hit the output token cap (stop_reason %s)", msg.StopReason)
	case "refusal":
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
	return p.response(text, msg.Model, msg.Usage.InputTokens, msg.Usage.OutputTokens, latency), nil
}
