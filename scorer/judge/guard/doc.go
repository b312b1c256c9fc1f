// Package guard isolates untrusted span content in judge prompts. It
// implements judge.Sanitizer: a Policy, built once per metric, makes one
// Sanitizer per judge request.
//
// Each request gets a random envelope key (64 bits, hex). Untrusted text
// is cleaned, redacted, truncated, escaped and wrapped as
//
//	<data-KEY field="response">
//	...
//	</data-KEY>
//
// Escaping scheme. The content can never close or open the envelope: every
// occurrence of the key (in any letter case) is removed, repeatedly, until
// none is left, so no tag with the key can appear inside. As a second layer,
// anything shaped like one of our tags, "<data-" or "</data-" (any case,
// with spaces allowed after '<' and '/'), has its '<' written as "&lt;",
// so a guessed key does not produce a tag either. Reserved judge markers
// are neutralised the same visible way, so that the judge still sees what
// the agent wrote but no longer as markup:
//
//   - tags <think>, </think>, role tags <|...|>, [INST], <<SYS>>, and
//     prompt-section tags (<sentence>, <question>, <answer>, ...) get
//     "&lt;" and "&gt;" for their angle brackets;
//   - \boxed{ loses its backslash;
//   - lines starting with score:, verdict:, rating:, property:, human:,
//     assistant: or system: (any case, after markdown decoration) and
//     lines starting with a {"score": ...} style object are prefixed with
//     "(quoted) ";
//   - [[YES]], [[NO]], [[A]], [[B]], [[C]], [[TIE]] and [[<number>]]
//     lose one pair of brackets;
//   - JSON keys "score", "verdict", "rating" and "grade" inside ``` fences
//     are written with single quotes.
//
// Invisible characters (Unicode tag characters, bidirectional controls,
// zero-width spaces, word joiners, byte-order marks and control characters
// other than tab and newlines) are removed before anything else, so hidden
// text cannot slip past redaction; the tag characters are decoded for the
// injection pre-filter.
//
// Pre-filter flags (stored beside the score; they never change it):
// injection_suspected, reserved_marker, empty_answer, invisible_chars and
// truncated_input from Untrusted, and judge_echoed_key and
// judge_answer_markers from CheckAnswer.
package guard
