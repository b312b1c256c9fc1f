package ragas

import (
	"strconv"
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// prompt is a ragas PydanticPrompt: an instruction, the output model's
// JSON schema (as json.dumps renders pydantic's model_json_schema) and
// examples (input and output JSON, indent 4).
type prompt struct {
	instruction string
	schema      string
	examples    [][2]string
	answer      *judge.Schema
}

// request is the judge request of p for input, an object whose
// run-content strings are already sanitized.
func (p prompt) request(input any) *judge.Request {
	return &judge.Request{System: p.system(), Prompt: frame(input), Schema: p.answer}
}

// system renders the trusted head of to_string: everything before the
// "Now perform the same" frame.
func (p prompt) system() string {
	var b strings.Builder
	b.WriteString(p.instruction)
	b.WriteString("\nPlease return the output in a JSON format that complies with the following schema as specified in JSON Schema:\n")
	b.WriteString(p.schema)
	b.WriteString("Do not use single quotes in your response but double quotes,properly escaped with a backslash.\n\n--------EXAMPLES-----------\n")
	for i, ex := range p.examples {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("Example " + strconv.Itoa(i+1) + "\nInput: " + ex[0] + "\nOutput: " + ex[1])
	}
	return b.String()
}

// frame renders the input frame of to_string for input, an object whose
// run-content strings are already sanitized, as pydantic's
// model_dump_json(indent=4) does. system()+"\n"+frame(...) is ragas'
// to_string.
func frame(input any) string {
	return "-----------------------------\n\nNow perform the same with the following input\ninput: " + judgemetric.JSON(input, "    ") + "\nOutput: "
}

// The ragas prompts, in the project's words, following ragas'
// TopicExtractionPrompt, TopicRefusedPrompt, TopicClassificationPrompt,
// InferGoalOutcomePrompt and CompareOutcomePrompt. Schemas are rendered
// as json.dumps of pydantic's model_json_schema; answer is the same model
// as a structured-output schema.

var topicExtraction = prompt{
	instruction: "Given an interaction between a Human, an AI and Tools, list the topics the Human brings up in their messages.",
	schema:      `{"properties": {"topics": {"items": {"type": "string"}, "title": "Topics", "type": "array"}}, "required": ["topics"], "title": "TopicExtractionOutput", "type": "object"}`,
	examples: [][2]string{{
		"{\n    \"user_input\": \"Human: How do I repot a fern?\\nAI: Choose a pot one size larger and use peat-free compost.\\nHuman: Also, what time does the garden centre close today?\\nTools:\\n  opening_hours: {'store': 'garden centre'}\\nToolOutput: 18:00\\nAI: It closes at 6 pm.\"\n}",
		"{\n    \"topics\": [\n        \"Repotting a fern\",\n        \"Garden centre opening hours\"\n    ]\n}",
	}},
	answer: judgemetric.ObjectSchema("topic_extraction", "topics", judgemetric.Array(judgemetric.Type("string"))),
}

var topicRefused = prompt{
	instruction: "Given a topic and an interaction between a Human and an AI, decide whether the AI refused to answer the Human's question about that topic.",
	schema:      `{"properties": {"refused_to_answer": {"description": "Whether the AI refused to answer the question about the topic.", "title": "Refused To Answer", "type": "boolean"}}, "required": ["refused_to_answer"], "title": "TopicRefusedOutput", "type": "object"}`,
	examples: [][2]string{{
		"{\n    \"user_input\": \"Human: Which wine goes with grilled trout?\\nAI: I can only help with questions about your bank account.\",\n    \"topic\": \"Wine pairing\"\n}",
		"{\n    \"refused_to_answer\": true\n}",
	}},
	answer: judgemetric.ObjectSchema("topic_refused", "refused_to_answer", judgemetric.Type("boolean")),
}

var topicClassification = prompt{
	instruction: "Given a list of reference topics and a list of topics, decide for each topic, in order, whether it falls under any of the reference topics.",
	schema:      `{"properties": {"classifications": {"description": "One boolean per topic, in order: true when the topic falls under a reference topic.", "items": {"type": "boolean"}, "title": "Classifications", "type": "array"}}, "required": ["classifications"], "title": "TopicClassificationOutput", "type": "object"}`,
	examples: [][2]string{{
		"{\n    \"reference_topics\": [\n        \"Gardening\",\n        \"Plant care\"\n    ],\n    \"topics\": [\n        \"Repotting a fern\",\n        \"Football results\",\n        \"Watering cacti\"\n    ]\n}",
		"{\n    \"classifications\": [\n        true,\n        false,\n        true\n    ]\n}",
	}},
	answer: judgemetric.ObjectSchema("topic_classification", "classifications", judgemetric.Array(judgemetric.Type("boolean"))),
}

var inferGoal = prompt{
	instruction: "Given an agentic workflow between a Human, an AI and Tools, state the user_goal (what the Human wants to achieve) and the end_state (the actual outcome the workflow reached).",
	schema:      `{"properties": {"user_goal": {"description": "The task or objective the user wants to achieve.", "title": "User Goal", "type": "string"}, "end_state": {"description": "The final outcome or result of the workflow.", "title": "End State", "type": "string"}}, "required": ["user_goal", "end_state"], "title": "WorkflowOutput", "type": "object"}`,
	examples: [][2]string{{
		"{\n    \"workflow\": \"Human: Please renew my library book 'Dune'.\\nAI: Let me do that.\\nTools:\\n  renew_loan: {'title': 'Dune'}\\nToolOutput: renewed until 12 May\\nAI: Done, 'Dune' is now due on 12 May.\"\n}",
		"{\n    \"user_goal\": \"Renew the loan of the library book 'Dune'.\",\n    \"end_state\": \"The loan of 'Dune' was renewed until 12 May.\"\n}",
	}},
	answer: judgemetric.ObjectSchema("infer_goal_outcome", "end_state", judgemetric.Type("string"), "user_goal", judgemetric.Type("string")),
}

var compareOutcome = prompt{
	instruction: "Given the desired outcome and the achieved outcome of a workflow, decide whether they are the same (verdict \"1\") or different (verdict \"0\"), and give the reason.",
	schema:      `{"properties": {"reason": {"description": "The reason for the verdict.", "title": "Reason", "type": "string"}, "verdict": {"description": "1 when the outcomes are the same, 0 when they differ.", "enum": ["0", "1"], "title": "Verdict", "type": "string"}}, "required": ["reason", "verdict"], "title": "CompareOutcomeOutput", "type": "object"}`,
	examples: [][2]string{{
		"{\n    \"desired_outcome\": \"A table for two booked at an Italian restaurant at 7 pm.\",\n    \"arrived_outcome\": \"A table for two was booked at Trattoria Roma for 7 pm.\"\n}",
		"{\n    \"reason\": \"Trattoria Roma is an Italian restaurant and the booking matches the party size and time.\",\n    \"verdict\": \"1\"\n}",
	}},
	answer: judgemetric.ObjectSchema("compare_outcome", "reason", judgemetric.Type("string"), "verdict", judgemetric.Type("string", "0", "1")),
}
