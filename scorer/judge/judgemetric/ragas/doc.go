// Package ragas holds the Ragas LLM-judge agent metrics:
// ragas_topic_adherence (TopicAdherenceScore) and ragas_agent_goal_accuracy
// (AgentGoalAccuracyWithReference / WithoutReference). Prompts are
// rendered the way ragas' PydanticPrompt.to_string renders them:
// instruction, output JSON schema, examples, then "Now perform the same
// with the following input" and the input object as indented JSON; the
// trusted part (up to the examples) is the system prompt, the input frame
// the user prompt. Every string of the input object that carries run
// content passes through the request's sanitizer before the object is
// JSON-encoded.
package ragas

// Metric ids registered by this package.
const (
	MetricTopicAdherence    = "ragas_topic_adherence"
	MetricAgentGoalAccuracy = "ragas_agent_goal_accuracy"
)

// Sanitizer field names of the run content these metrics send.
const (
	FieldConversation = "conversation" // the rendered Human/AI/Tools/ToolOutput workflow
	FieldTopics       = "topics"       // topics a judge extracted from the conversation
	FieldReference    = "reference"    // reference topics, the reference outcome
)
