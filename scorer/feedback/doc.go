// Package feedback takes people's judgements of runs from OTel log
// events. An annotation tool, or a thumbs-up button, sends a log record
// named EventName through the sidecar's OTLP receiver, in the run's trace
// context, with the GenAI semantic conventions' evaluation attributes:
//
//	event name                     evalsidecar.human_feedback
//	trace id (record context)      the run's trace, required
//	span id (record context)       optional
//	gen_ai.evaluation.name         the metric, required
//	gen_ai.evaluation.score.value  a number (double or int)
//	gen_ai.evaluation.score.label  a label ("pass", "thumbs_up")
//	gen_ai.evaluation.explanation  the person's comment, optional
//	user.id                        the annotator, optional
//
// A value or a label (or both) is required. The event name is the
// project's, not gen_ai.evaluation.result, so the sidecar's own evaluation
// events, sent back to it, are never taken for a person's.
package feedback
