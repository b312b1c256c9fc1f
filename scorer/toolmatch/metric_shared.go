package toolmatch

import "github.com/evalsidecar/evalsidecar/scorer"

// sharedKey names what parse returns for one text (scorer.Derive); T
// tells the parses apart.
type sharedKey[T any] struct{ text string }

// parsed is what a parse returns for one text.
type parsed[T any] struct {
	v   T
	err error
}

// shared returns parse(text), computed once per instance: the metrics of
// one evaluation share it.
func shared[T any](in *scorer.Instance, text string, parse func(string) (T, error)) (T, error) {
	p := scorer.Derive(in, sharedKey[T]{text}, func() parsed[T] {
		v, err := parse(text)
		return parsed[T]{v, err}
	})
	return p.v, p.err
}

// SharedDecoder returns a Decoder that decodes each distinct text once
// per instance: the metrics of one evaluation share the decoded
// arguments (scorer.Derive).
func SharedDecoder(in *scorer.Instance) Decoder {
	return func(text string) (Value, error) { return shared(in, text, Decode) }
}
