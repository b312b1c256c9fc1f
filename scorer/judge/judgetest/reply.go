package judgetest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Reply is one scripted answer. The zero Reply is a successful empty text
// answer. Fields are read in this order: Body, Status, PromptBlocked,
// Filtered, Refusal, Truncated, JSON, Text.
type Reply struct {
	// Text is a plain text answer.
	Text string
	// JSON is a structured answer, a JSON object: the OpenAI message
	// content, the Gemini text part, or the input of the Anthropic tool_use
	// block (named after the request's forced tool).
	JSON string
	// Model is the model reported; default the requested one.
	Model string
	// InputTokens and OutputTokens are the reported usage.
	InputTokens, OutputTokens int64

	// Refusal makes the model refuse: OpenAI message.refusal, Anthropic
	// stop_reason "refusal" (the text is the answer text), Gemini
	// finishReason RECITATION.
	Refusal string
	// Filtered blocks the answer: OpenAI finish_reason "content_filter",
	// Gemini finishReason SAFETY. Anthropic has no filter reason; it
	// answers as for Refusal.
	Filtered bool
	// PromptBlocked is a Gemini promptFeedback.blockReason (for example
	// "SAFETY"); other formats answer as for Filtered.
	PromptBlocked string
	// Truncated stops the answer at the token cap: finish_reason
	// "length", finishReason MAX_TOKENS, stop_reason "max_tokens". The
	// partial answer is Text or JSON.
	Truncated bool
	// FinishReason overrides the finish or stop reason sent.
	FinishReason string

	// Status, when 400 or more, answers with that HTTP status and the
	// format's error JSON made of ErrorType (default by status),
	// ErrorCode (OpenAI code) and ErrorMessage.
	Status       int
	ErrorType    string
	ErrorCode    string
	ErrorMessage string

	// Overloaded answers with the format's overload error when Status is
	// 0: Anthropic 529 overloaded_error, 503 otherwise.
	Overloaded bool

	// Body, when set, is sent as is with Status (default 200).
	Body string
	// Header is added to the response headers.
	Header http.Header
	// Delay holds the answer back; it ends early when the client goes
	// away, so a slow reply makes the client time out.
	Delay time.Duration
}

// Text returns a plain text answer.
func Text(s string) Reply { return Reply{Text: s} }

// JSON returns a structured answer.
func JSON(s string) Reply { return Reply{JSON: s} }

// Status returns an HTTP error with the format's error JSON.
func Status(code int) Reply { return Reply{Status: code} }

// RetryAfter returns a 429 carrying retry-after in whole seconds.
func RetryAfter(d time.Duration) Reply {
	return Reply{
		Status: http.StatusTooManyRequests,
		Header: http.Header{"Retry-After": {strconv.Itoa(int(d / time.Second))}},
	}
}

// RetryAfterMs returns a 429 carrying retry-after-ms.
func RetryAfterMs(d time.Duration) Reply {
	return Reply{
		Status: http.StatusTooManyRequests,
		Header: http.Header{"Retry-After-Ms": {strconv.FormatInt(d.Milliseconds(), 10)}},
	}
}

// Overloaded returns the format's overloaded answer: Anthropic 529
// overloaded_error, 503 otherwise.
func Overloaded() Reply { return Reply{Overloaded: true} }

// render returns the status and body for reply to req.
func render(req *CapturedRequest, r Reply) (int, []byte) {
	if r.Overloaded && r.Status == 0 {
		r.Status = http.StatusServiceUnavailable
		if req.Wire == Anthropic {
			r.Status = 529
		}
	}
	if r.Body != "" {
		return cmp.Or(r.Status, http.StatusOK), []byte(r.Body)
	}
	if r.Status >= 400 {
		return r.Status, errorBody(req.Wire, r)
	}
	model := cmp.Or(r.Model, req.Model)
	var v any
	switch req.Wire {
	case OpenAI:
		v = openAIAnswer(req, r, model)
	case Gemini:
		v = geminiAnswer(r, model)
	default:
		v = anthropicAnswer(req, r, model)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return http.StatusInternalServerError, []byte(`{"error":"judgetest: ` + err.Error() + `"}`)
	}
	return http.StatusOK, b
}

// answerText is the answer text of r.
func answerText(r Reply) string { return cmp.Or(r.JSON, r.Text) }

func openAIAnswer(req *CapturedRequest, r Reply, model string) any {
	finish := "stop"
	content := any(answerText(r))
	var refusal any
	switch {
	case r.PromptBlocked != "" || r.Filtered:
		finish, content = "content_filter", nil
	case r.Refusal != "":
		content, refusal = nil, r.Refusal
	case r.Truncated:
		finish = "length"
	}
	if r.FinishReason != "" {
		finish = r.FinishReason
	}
	return map[string]any{
		"id":      fmt.Sprintf("chatcmpl-judgetest-%d", req.Seq),
		"object":  "chat.completion",
		"created": req.Time.Unix(),
		"model":   model,
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": content, "refusal": refusal},
			"logprobs":      nil,
			"finish_reason": finish,
		}},
		"usage": map[string]any{
			"prompt_tokens":     r.InputTokens,
			"completion_tokens": r.OutputTokens,
			"total_tokens":      r.InputTokens + r.OutputTokens,
		},
	}
}

func geminiAnswer(r Reply, model string) any {
	usage := map[string]any{
		"promptTokenCount":     r.InputTokens,
		"candidatesTokenCount": r.OutputTokens,
		"totalTokenCount":      r.InputTokens + r.OutputTokens,
	}
	if r.PromptBlocked != "" {
		return map[string]any{
			"promptFeedback": map[string]any{"blockReason": r.PromptBlocked},
			"usageMetadata":  usage,
			"modelVersion":   model,
		}
	}
	finish := "STOP"
	cand := map[string]any{"index": 0}
	switch {
	case r.Filtered:
		finish = "SAFETY"
		cand["safetyRatings"] = []any{map[string]any{
			"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH", "blocked": true,
		}}
	case r.Refusal != "":
		finish = "RECITATION"
	default:
		if r.Truncated {
			finish = "MAX_TOKENS"
		}
		cand["content"] = map[string]any{
			"role":  "model",
			"parts": []any{map[string]any{"text": answerText(r)}},
		}
	}
	if r.FinishReason != "" {
		finish = r.FinishReason
	}
	cand["finishReason"] = finish
	return map[string]any{
		"candidates":    []any{cand},
		"usageMetadata": usage,
		"modelVersion":  model,
		"responseId":    "judgetest",
	}
}

func anthropicAnswer(req *CapturedRequest, r Reply, model string) any {
	stop, content := "end_turn", []any{}
	switch {
	case r.PromptBlocked != "" || r.Filtered || r.Refusal != "":
		stop = "refusal"
		if r.Refusal != "" {
			content = append(content, map[string]any{"type": "text", "text": r.Refusal})
		}
	case r.JSON != "" && req.SchemaName != "":
		stop = "tool_use"
		// tool_use input is always an object; a partial (truncated)
		// answer arrives as an empty one.
		input := json.RawMessage(r.JSON)
		var obj map[string]any
		if json.Unmarshal(input, &obj) != nil || obj == nil {
			input = json.RawMessage(`{}`)
		}
		content = append(content, map[string]any{
			"type":  "tool_use",
			"id":    fmt.Sprintf("toolu_judgetest_%d", req.Seq),
			"name":  req.SchemaName,
			"input": input,
		})
	default:
		content = append(content, map[string]any{"type": "text", "text": answerText(r)})
	}
	if r.Truncated {
		stop = "max_tokens"
	}
	if r.FinishReason != "" {
		stop = r.FinishReason
	}
	return map[string]any{
		"id":            fmt.Sprintf("msg_judgetest_%d", req.Seq),
		"type":          "message",
		"role":          "assistant",
		"model":         model,
		"content":       content,
		"stop_reason":   stop,
		"stop_sequence": nil,
		"usage":         map[string]any{"input_tokens": r.InputTokens, "output_tokens": r.OutputTokens},
	}
}

// errorBody renders the format's error JSON.
func errorBody(wire string, r Reply) []byte {
	msg := cmp.Or(r.ErrorMessage, http.StatusText(r.Status))
	if msg == "" && r.Status == 529 {
		msg = "Overloaded"
	}
	var v any
	switch wire {
	case OpenAI:
		typ := cmp.Or(r.ErrorType, openAIErrorType(r.Status))
		var code any
		if r.ErrorCode != "" {
			code = r.ErrorCode
		}
		v = map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}}
	case Gemini:
		status := cmp.Or(r.ErrorType, googleStatuses[r.Status], "INTERNAL")
		v = map[string]any{"error": map[string]any{"code": r.Status, "message": msg, "status": status}}
	default:
		typ := cmp.Or(r.ErrorType, anthropicErrorTypes[r.Status], "api_error")
		v = map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}, "request_id": "req_judgetest"}
	}
	b, _ := json.Marshal(v)
	return b
}

func openAIErrorType(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return "rate_limit_exceeded"
	case status == http.StatusUnauthorized:
		return "invalid_api_key"
	case status >= 500:
		return "server_error"
	}
	return "invalid_request_error"
}

// googleStatuses are the Google error statuses of HTTP statuses; others
// are INTERNAL.
var googleStatuses = map[int]string{
	http.StatusBadRequest:         "INVALID_ARGUMENT",
	http.StatusUnauthorized:       "UNAUTHENTICATED",
	http.StatusForbidden:          "PERMISSION_DENIED",
	http.StatusNotFound:           "NOT_FOUND",
	http.StatusTooManyRequests:    "RESOURCE_EXHAUSTED",
	http.StatusServiceUnavailable: "UNAVAILABLE",
	http.StatusGatewayTimeout:     "DEADLINE_EXCEEDED",
}

// anthropicErrorTypes are the Anthropic error types of HTTP statuses;
// others are api_error.
var anthropicErrorTypes = map[int]string{
	http.StatusBadRequest:            "invalid_request_error",
	http.StatusUnauthorized:          "authentication_error",
	http.StatusForbidden:             "permission_error",
	http.StatusNotFound:              "not_found_error",
	http.StatusRequestEntityTooLarge: "request_too_large",
	http.StatusTooManyRequests:       "rate_limit_error",
	529:                              "overloaded_error",
}
