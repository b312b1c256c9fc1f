package simulator

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// scenario is one kind of agent with its tools and the tasks users give it.
type scenario struct {
	Name             string
	Agent            string
	Provider         string // gen_ai.provider.name
	Model            string // gen_ai.request.model
	ResponseModel    string // gen_ai.response.model
	ServerAddress    string
	ResponseIDPrefix string
	System           string // system instructions
	// Apology is the final answer after the agent gave up on a failed tool;
	// it is formatted with the tool name and the error message.
	Apology string
	Tools   []toolSpec
	Tasks   []task
}

// toolSpec is a tool declared to the model.
type toolSpec struct {
	Name        string
	Description string
	Parameters  string // JSON Schema of the arguments
	Failures    []toolFailure
}

// toolFailure is one way a tool can fail.
type toolFailure struct {
	Type    string // error.type
	Message string // status message
}

// task is one user request with the calls a correct agent makes.
type task struct {
	Input string
	// Turns are the model responses that request tools, in order; the calls
	// of one turn are requested together.
	Turns  [][]callSpec
	Answer string
}

// callSpec is one correct tool call and its result.
type callSpec struct {
	Tool   string
	Args   string // JSON object
	Result string
}

func (s *scenario) tool(name string) *toolSpec {
	for i := range s.Tools {
		if s.Tools[i].Name == name {
			return &s.Tools[i]
		}
	}
	return nil
}

// loadScenarios builds the scenario tables and checks them: every call names
// a declared tool, every schema, argument and result is JSON, and JSON is
// stored compact.
func loadScenarios() ([]*scenario, error) {
	all := []*scenario{onDeviceScenario(), customerSupportScenario(), contentCreationScenario()}
	for _, s := range all {
		if len(s.Tasks) == 0 || len(s.Tools) == 0 {
			return nil, fmt.Errorf("scenario %s: no tasks or tools", s.Name)
		}
		for i := range s.Tools {
			t := &s.Tools[i]
			c, err := compactJSON(t.Parameters)
			if err != nil {
				return nil, fmt.Errorf("scenario %s tool %s: parameters: %w", s.Name, t.Name, err)
			}
			t.Parameters = c
			if len(t.Failures) == 0 {
				return nil, fmt.Errorf("scenario %s tool %s: no failures", s.Name, t.Name)
			}
		}
		for ti := range s.Tasks {
			tk := &s.Tasks[ti]
			for _, turn := range tk.Turns {
				for ci := range turn {
					c := &turn[ci]
					if s.tool(c.Tool) == nil {
						return nil, fmt.Errorf("scenario %s task %d: undeclared tool %s", s.Name, ti, c.Tool)
					}
					var err error
					if c.Args, err = compactJSON(c.Args); err != nil {
						return nil, fmt.Errorf("scenario %s task %d tool %s: args: %w", s.Name, ti, c.Tool, err)
					}
					if c.Result, err = compactJSON(c.Result); err != nil {
						return nil, fmt.Errorf("scenario %s task %d tool %s: result: %w", s.Name, ti, c.Tool, err)
					}
				}
			}
		}
	}
	return all, nil
}

func compactJSON(s string) (string, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		return "", err
	}
	return b.String(), nil
}
