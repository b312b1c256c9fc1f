package judgetest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// CapturedRequest is one request the server received, raw and decoded.
type CapturedRequest struct {
	// Seq numbers the requests from 1 in arrival order.
	Seq int
	// Time is when the request arrived.
	Time time.Time
	// Method, Path, RawQuery, Header and Body are the raw request.
	Method   string
	Path     string
	RawQuery string
	Header   http.Header
	Body     []byte

	// Wire is the format (OpenAI, Gemini, Anthropic); "" for a request
	// to no judge endpoint.
	Wire string
	// Route is the endpoint (RouteOpenAI, RouteAzure, RouteGemini,
	// RouteVertex, RouteAnthropic).
	Route string
	// Deployment is the Azure deployment from the path.
	Deployment string
	// PathModel is the model named in a Gemini or Vertex path.
	PathModel string
	// Project and Location come from a Vertex path.
	Project, Location string

	// Model is the model the request asked for: the body's model, or the
	// path's for Gemini and Vertex (Azure: the deployment when the body
	// names none).
	Model string
	// System is the system instruction text.
	System string
	// User is the text of the user messages.
	User string
	// Schema is the structured-output schema the request carried (OpenAI
	// response_format json_schema, Gemini responseJsonSchema or
	// responseSchema, Anthropic forced tool input_schema); nil when none.
	Schema map[string]any
	// SchemaName is the OpenAI schema name or the Anthropic tool name.
	SchemaName string
	// Strict reports OpenAI json_schema strict.
	Strict bool
	// ResponseMIMEType is Gemini's generationConfig.responseMimeType.
	ResponseMIMEType string
	// MaxTokens is the output cap (max_completion_tokens, max_tokens or
	// maxOutputTokens); MaxTokensField names the field it came in.
	MaxTokens      int64
	MaxTokensField string
	// Temperature is the sampling temperature; nil when not sent.
	Temperature *float64
	// DecodeError is set when the body is not the wire format's JSON.
	DecodeError string
}

// HasSchema reports whether the request asked for structured output.
func (r CapturedRequest) HasSchema() bool { return r.Schema != nil }

// textOf reads a message content that is a string or a list of text parts.
func textOf(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "" || p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// joinText appends s to b with a newline between non-empty texts.
func joinText(b, s string) string {
	switch {
	case s == "":
		return b
	case b == "":
		return s
	}
	return b + "\n" + s
}

// decode fills the decoded view of a routed request.
func decode(req *CapturedRequest) {
	decoders := map[string]func(*CapturedRequest) error{OpenAI: decodeOpenAI, Gemini: decodeGemini, Anthropic: decodeAnthropic}
	if d := decoders[req.Wire]; d != nil {
		if err := d(req); err != nil {
			req.DecodeError = err.Error()
		}
	}
}

func decodeOpenAI(req *CapturedRequest) error {
	var body struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		MaxCompletionTokens *int64   `json:"max_completion_tokens"`
		MaxTokens           *int64   `json:"max_tokens"`
		Temperature         *float64 `json:"temperature"`
		ResponseFormat      *struct {
			Type       string `json:"type"`
			JSONSchema *struct {
				Name   string         `json:"name"`
				Strict bool           `json:"strict"`
				Schema map[string]any `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil {
		return err
	}
	req.Model = cmp.Or(body.Model, req.Deployment)
	for _, m := range body.Messages {
		switch m.Role {
		case "system", "developer":
			req.System = joinText(req.System, textOf(m.Content))
		case "user":
			req.User = joinText(req.User, textOf(m.Content))
		}
	}
	switch {
	case body.MaxCompletionTokens != nil:
		req.MaxTokens, req.MaxTokensField = *body.MaxCompletionTokens, "max_completion_tokens"
	case body.MaxTokens != nil:
		req.MaxTokens, req.MaxTokensField = *body.MaxTokens, "max_tokens"
	}
	req.Temperature = body.Temperature
	if rf := body.ResponseFormat; rf != nil && rf.Type == "json_schema" && rf.JSONSchema != nil {
		req.Schema = rf.JSONSchema.Schema
		if req.Schema == nil {
			req.Schema = map[string]any{}
		}
		req.SchemaName = rf.JSONSchema.Name
		req.Strict = rf.JSONSchema.Strict
	}
	return nil
}

type geminiContent struct {
	Role  string `json:"role"`
	Parts []struct {
		Text string `json:"text"`
	} `json:"parts"`
}

func (c *geminiContent) text() string {
	var b strings.Builder
	for _, p := range c.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func decodeGemini(req *CapturedRequest) error {
	var body struct {
		Contents          []geminiContent `json:"contents"`
		SystemInstruction *geminiContent  `json:"systemInstruction"`
		GenerationConfig  *struct {
			Temperature        *float64       `json:"temperature"`
			MaxOutputTokens    *int64         `json:"maxOutputTokens"`
			ResponseMIMEType   string         `json:"responseMimeType"`
			ResponseJSONSchema map[string]any `json:"responseJsonSchema"`
			ResponseSchema     map[string]any `json:"responseSchema"`
		} `json:"generationConfig"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil {
		return err
	}
	req.Model = req.PathModel
	if body.SystemInstruction != nil {
		req.System = body.SystemInstruction.text()
	}
	for i := range body.Contents {
		if c := &body.Contents[i]; c.Role == "" || c.Role == "user" {
			req.User = joinText(req.User, c.text())
		}
	}
	if gc := body.GenerationConfig; gc != nil {
		req.Temperature = gc.Temperature
		if gc.MaxOutputTokens != nil {
			req.MaxTokens, req.MaxTokensField = *gc.MaxOutputTokens, "maxOutputTokens"
		}
		req.ResponseMIMEType = gc.ResponseMIMEType
		req.Schema = gc.ResponseJSONSchema
		if req.Schema == nil {
			req.Schema = gc.ResponseSchema
		}
	}
	return nil
}

func decodeAnthropic(req *CapturedRequest) error {
	var body struct {
		Model       string          `json:"model"`
		MaxTokens   *int64          `json:"max_tokens"`
		Temperature *float64        `json:"temperature"`
		System      json.RawMessage `json:"system"`
		Messages    []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"input_schema"`
		} `json:"tools"`
		ToolChoice *struct {
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"tool_choice"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil {
		return err
	}
	req.Model = body.Model
	if body.MaxTokens != nil {
		req.MaxTokens, req.MaxTokensField = *body.MaxTokens, "max_tokens"
	}
	req.Temperature = body.Temperature
	req.System = textOf(body.System)
	for _, m := range body.Messages {
		if m.Role == "user" {
			req.User = joinText(req.User, textOf(m.Content))
		}
	}
	if tc := body.ToolChoice; tc != nil && tc.Type == "tool" {
		for _, t := range body.Tools {
			if t.Name == tc.Name {
				req.Schema, req.SchemaName = t.InputSchema, t.Name
				if req.Schema == nil {
					req.Schema = map[string]any{}
				}
			}
		}
	}
	return nil
}
