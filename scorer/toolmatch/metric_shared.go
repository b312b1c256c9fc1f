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

// argsKeys names the argument keys of an instance's calls under one
// Equality (scorer.Derive).
type argsKeys struct{ eq Equality }

// sharedArgsKey returns the ArgsKey of eq (nil for NameOnly) for the
// calls of in: the keys of the arguments of every call of its
// trajectories and of its invocations are computed once per instance, so
// that the metrics of one evaluation look them up (another text's key is
// computed when asked for).
func sharedArgsKey(in *scorer.Instance, eq Equality) ArgsKey {
	if eq == NameOnly {
		return nil
	}
	dec := SharedDecoder(in)
	keys := scorer.Derive(in, argsKeys{eq}, func() map[string]string {
		keys := make(map[string]string, max(len(in.PredictedTrajectory), len(in.ReferenceTrajectory)))
		var buf []byte // the key being built
		add := func(calls []Call) {
			for i := range calls {
				if _, ok := keys[calls[i].Arguments]; !ok {
					buf = appendArgsKey(buf[:0], calls[i].Arguments, eq, dec)
					keys[calls[i].Arguments] = string(buf)
				}
			}
		}
		add(in.PredictedTrajectory)
		add(in.ReferenceTrajectory)
		for i := range in.Invocations {
			add(in.Invocations[i].PredictedToolCalls)
			add(in.Invocations[i].ReferenceToolCalls)
		}
		return keys
	})
	return func(args string) string {
		if k, ok := keys[args]; ok {
			return k
		}
		return string(appendArgsKey(nil, args, eq, dec))
	}
}
