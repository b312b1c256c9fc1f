package ragas

import (
	"encoding/json"
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// laxBool reads a boolean answer field as pydantic's lax bool does: JSON
// true/false, or the strings true/false, yes/no, 1/0, on/off, t/f, y/n
// (any case), or the numbers 1 and 0. Anything else is not a boolean.
func laxBool(raw json.RawMessage) (bool, bool) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return false, false
	}
	switch x := v.(type) {
	case bool:
		return x, true
	case float64:
		switch x {
		case 1:
			return true, true
		case 0:
			return false, true
		}
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true", "yes", "1", "on", "t", "y":
			return true, true
		case "false", "no", "0", "off", "f", "n":
			return false, true
		}
	}
	return false, false
}

// classification reads one item of a classifications list as ragas'
// safe_bool_conversion does: a JSON boolean as is; a string or number is
// true when its text, lower-cased, is "true", "1" or "yes", else false.
// Other JSON types are not a classification.
func classification(raw json.RawMessage) (bool, bool) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return false, false
	}
	switch x := v.(type) {
	case bool:
		return x, true
	case float64:
		return x == 1, true
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true", "1", "yes":
			return true, true
		}
		return false, true
	}
	return false, false
}

// parseTopics reads {"topics": [string]}.
func parseTopics(answer string) ([]string, error) {
	var a struct {
		Topics *[]string `json:"topics"`
	}
	if err := judgemetric.DecodeJSON(answer, &a); err != nil {
		return nil, err
	}
	if a.Topics == nil {
		return nil, judgemetric.Unparseable("answer lacks topics")
	}
	var out []string
	for _, t := range *a.Topics {
		if strings.TrimSpace(t) != "" {
			out = append(out, t)
		}
	}
	return out, nil
}

// parseRefused reads {"refused_to_answer": bool}.
func parseRefused(answer string) (bool, error) {
	var a struct {
		Refused json.RawMessage `json:"refused_to_answer"`
	}
	if err := judgemetric.DecodeJSON(answer, &a); err != nil {
		return false, err
	}
	if a.Refused == nil {
		return false, judgemetric.Unparseable("answer lacks refused_to_answer")
	}
	v, ok := laxBool(a.Refused)
	if !ok {
		return false, judgemetric.Unparseable("refused_to_answer is %s, want a boolean", a.Refused)
	}
	return v, nil
}

// parseClassifications reads {"classifications": [bool]} with want items.
func parseClassifications(answer string, want int) ([]bool, error) {
	var a struct {
		Classifications *[]json.RawMessage `json:"classifications"`
	}
	if err := judgemetric.DecodeJSON(answer, &a); err != nil {
		return nil, err
	}
	if a.Classifications == nil {
		return nil, judgemetric.Unparseable("answer lacks classifications")
	}
	cs := *a.Classifications
	if len(cs) != want {
		return nil, judgemetric.Unparseable("answer has %d classifications for %d topics", len(cs), want)
	}
	out := make([]bool, len(cs))
	for i, c := range cs {
		v, ok := classification(c)
		if !ok {
			return nil, judgemetric.Unparseable("classification %d is %s, want a boolean", i, c)
		}
		out[i] = v
	}
	return out, nil
}

// goalOutcome is the answer of the goal inference prompt.
type goalOutcome struct {
	UserGoal string `json:"user_goal"`
	EndState string `json:"end_state"`
}

// parseGoal reads {"user_goal": string, "end_state": string}.
func parseGoal(answer string) (goalOutcome, error) {
	var a struct {
		UserGoal *string `json:"user_goal"`
		EndState *string `json:"end_state"`
	}
	if err := judgemetric.DecodeJSON(answer, &a); err != nil {
		return goalOutcome{}, err
	}
	if a.UserGoal == nil || a.EndState == nil {
		return goalOutcome{}, judgemetric.Unparseable("answer lacks user_goal or end_state")
	}
	return goalOutcome{UserGoal: *a.UserGoal, EndState: *a.EndState}, nil
}

// comparison is the answer of the compare outcome prompt.
type comparison struct {
	score  float64
	reason string
}

// parseCompare reads {"reason": string, "verdict": "0"|"1"}; the score is
// float(verdict). Any other verdict is an invalid_response error.
func parseCompare(answer string) (comparison, error) {
	var a struct {
		Reason  string          `json:"reason"`
		Verdict json.RawMessage `json:"verdict"`
	}
	if err := judgemetric.DecodeJSON(answer, &a); err != nil {
		return comparison{}, err
	}
	var v string
	if a.Verdict == nil || json.Unmarshal(a.Verdict, &v) != nil {
		return comparison{}, judgemetric.Unparseable("verdict is %s, want \"0\" or \"1\"", string(a.Verdict))
	}
	switch strings.TrimSpace(v) {
	case "1":
		return comparison{1, a.Reason}, nil
	case "0":
		return comparison{0, a.Reason}, nil
	}
	return comparison{}, judgemetric.Unparseable("verdict is %q, want \"0\" or \"1\"", v)
}
