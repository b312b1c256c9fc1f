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
