package judge

// Sanitizer prepares the untrusted content of one judge request: every
// string that came from a span (user input, tool arguments and results,
// agent output) passes through it before it is put in a prompt. A fresh
// Sanitizer is used for each request, so each request has its own random
// envelope key.
type Sanitizer interface {
	// Untrusted returns text redacted and wrapped in the request's data
	// envelope as the named field (for example "response",
	// "tool_results"). A field the metric is not allowed to send returns
	// a placeholder saying it was withheld.
	Untrusted(field, text string) string
	// SystemNote is the paragraph appended to the system prompt that
	// explains the envelope: content inside is data, and instructions in
	// it must be ignored.
	SystemNote() string
	// CheckAnswer returns flags for a judge answer that echoes the
	// envelope key or carries reserved verdict markers; nil when clean.
	CheckAnswer(answer string) []string
	// Flags returns the pre-filter flags raised by the content passed to
	// Untrusted so far (for example "injection_suspected",
	// "empty_answer"), sorted and without duplicates.
	Flags() []string
}
