package toolmatch

import "github.com/evalsidecar/evalsidecar/scorer"

// decodedKey names the decoded value of one JSON text (scorer.Derive).
type decodedKey struct{ text string }

// decoded is what Decode returns for one text.
type decoded struct {
	v   Value
	err error
}

// SharedDecoder returns a Decoder that decodes each distinct text once
// per instance: the metrics of one evaluation share the decoded
// arguments (scorer.Derive).
func SharedDecoder(in *scorer.Instance) Decoder {
	return func(text string) (Value, error) {
		d := scorer.Derive(in, decodedKey{text}, func() decoded {
			v, err := Decode(text)
			return decoded{v, err}
		})
		return d.v, d.err
	}
}

// outputKey names the tool-call output parsed from one text.
type outputKey struct{ text string }

// parsedOutput is what ParseToolCallOutput returns for one text.
type parsedOutput struct {
	out ToolCallOutput
	err error
}

// sharedToolCallOutput parses text as ParseToolCallOutput does, once per
// instance: the tool-call metrics of one evaluation share it.
func sharedToolCallOutput(in *scorer.Instance, text string) (ToolCallOutput, error) {
	p := scorer.Derive(in, outputKey{text}, func() parsedOutput {
		out, err := ParseToolCallOutput(text)
		return parsedOutput{out, err}
	})
	return p.out, p.err
}
