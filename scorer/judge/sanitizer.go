package judge

import "strings"

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
	// UntrustedPieces is Untrusted for a field the project lays out
	// itself (a transcript with its role labels, sentences in tags): each
	// piece's Markup passes unchanged, each Text is prepared as Untrusted
	// prepares a field, and all of it goes in one envelope.
	UntrustedPieces(field string, pieces []Piece) string
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

// Piece is one part of a field laid out by the project: Markup is the
// project's own text (a role label, a tag) and is sent as it is; Text is
// untrusted content that follows it.
type Piece struct {
	Markup string
	Text   string
}

// JoinPieces returns the pieces' markup and text as one string, unchanged.
func JoinPieces(pieces []Piece) string {
	var b strings.Builder
	for _, p := range pieces {
		b.WriteString(p.Markup)
		b.WriteString(p.Text)
	}
	return b.String()
}
