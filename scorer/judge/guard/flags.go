package guard

// Flags raised by a Sanitizer.
const (
	// FlagInjectionSuspected: untrusted text contains a known injection
	// phrasing (addressing the judge, overriding instructions, asking for
	// a score).
	FlagInjectionSuspected = "injection_suspected"
	// FlagReservedMarker: a reserved judge marker or envelope tag was
	// neutralised.
	FlagReservedMarker = "reserved_marker"
	// FlagEmptyAnswer: the response is empty, punctuation only, or a known
	// "master key" such as "Thought process:".
	FlagEmptyAnswer = "empty_answer"
	// FlagInvisibleChars: more than 1% of the characters of a field are
	// zero-width, bidirectional controls, tag characters or control
	// characters.
	FlagInvisibleChars = "invisible_chars"
	// FlagTruncatedInput: a field was longer than the maximum and was
	// truncated.
	FlagTruncatedInput = "truncated_input"
	// FlagJudgeEchoedKey: the judge's answer contains the envelope key.
	FlagJudgeEchoedKey = "judge_echoed_key"
	// FlagJudgeAnswerMarkers: the judge's answer contains a role tag or an
	// envelope tag.
	FlagJudgeAnswerMarkers = "judge_answer_markers"
)

// ResponseField is the field holding the agent's answer, the one checked
// for empty and master-key answers.
const ResponseField = "response"
