package ragas

import (
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

func TestPyArgs(t *testing.T) {
	cases := map[string]string{
		``:                              `{}`,
		`{}`:                            `{}`,
		`{"b":1,"a":[true,null,"x"]}`:   `{'b': 1, 'a': [True, None, 'x']}`,
		`{"f":1.0,"g":1e-5,"h":0.0001}`: `{'f': 1.0, 'g': 1e-05, 'h': 0.0001}`,
		`{"big":1e16,"neg":-2.50}`:      `{'big': 1e+16, 'neg': -2.5}`,
		`{"q":"it's"}`:                  `{'q': "it's"}`,
		`{"q":"it's \"x\""}`:            `{'q': 'it\'s "x"'}`,
		`{"q":"a\nb\\c\u0001é"}`:        `{'q': 'a\nb\\c\x01é'}`,
		`{"n":{"m":{}}}`:                `{'n': {'m': {}}}`,
		`not json`:                      `'not json'`,
		`{"a":1} trailing`:              `'{"a":1} trailing'`,
	}
	for in, want := range cases {
		if got := pyArgs(in); got != want {
			t.Errorf("pyArgs(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestWorkflowInvocations(t *testing.T) {
	in := &scorer.Instance{Invocations: []scorer.Invocation{
		{UserContent: "q1", Response: "a1", PredictedToolCalls: []agentrun.ToolCall{{Name: "f", Arguments: `{"x":1}`, Result: "r"}, {Name: "g", Error: "boom"}}},
		{UserContent: "q2"},
	}}
	want := "Human: q1\nTools:\n  f: {'x': 1}\n  g: {}\nToolOutput: r\nToolOutput: boom\nAI: a1\nHuman: q2"
	if got := judge.JoinPieces(workflow(in)); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
