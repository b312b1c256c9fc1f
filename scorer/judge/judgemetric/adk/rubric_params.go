package adk

import (
	"fmt"
	"strings"
)

// ParamRubrics lists the rubrics of a rubric metric: each item a string
// (its id is then "rubric_<n>", 1-based) or a map {rubric_id, text}.
const ParamRubrics = "rubrics"

// rubric is one configured rubric.
type rubric struct {
	ID   string
	Text string
}

// parseRubrics reads the rubrics parameter. It is required and not
// empty; ids and (case-insensitive) texts must be unique.
func parseRubrics(v any) ([]rubric, error) {
	items, ok := v.([]any)
	if !ok {
		if v == nil {
			return nil, fmt.Errorf("param %q: required (a list of rubric texts or {rubric_id, text} maps)", ParamRubrics)
		}
		return nil, fmt.Errorf("param %q: must be a list, got %T", ParamRubrics, v)
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("param %q: at least one rubric is required", ParamRubrics)
	}
	out := make([]rubric, 0, len(items))
	ids := make(map[string]bool, len(items))
	texts := make(map[string]bool, len(items))
	for i, it := range items {
		var r rubric
		switch x := it.(type) {
		case string:
			r = rubric{ID: fmt.Sprintf("rubric_%d", i+1), Text: x}
		case map[string]any:
			for k := range x {
				if k != "rubric_id" && k != "text" {
					return nil, fmt.Errorf("param %q: item %d: unknown key %q (allowed: rubric_id, text)", ParamRubrics, i, k)
				}
			}
			id, ok1 := x["rubric_id"].(string)
			text, ok2 := x["text"].(string)
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("param %q: item %d: rubric_id and text must be strings", ParamRubrics, i)
			}
			r = rubric{ID: id, Text: text}
		default:
			return nil, fmt.Errorf("param %q: item %d: must be a string or a {rubric_id, text} map, got %T", ParamRubrics, i, it)
		}
		r.ID = strings.TrimSpace(r.ID)
		if r.ID == "" {
			return nil, fmt.Errorf("param %q: item %d: empty rubric_id", ParamRubrics, i)
		}
		if strings.TrimSpace(r.Text) == "" {
			return nil, fmt.Errorf("param %q: item %d: empty text", ParamRubrics, i)
		}
		if strings.ContainsAny(r.Text, "\r\n") {
			return nil, fmt.Errorf("param %q: item %d: text must be one line (the judge echoes it on a \"Property:\" line)", ParamRubrics, i)
		}
		if ids[r.ID] {
			return nil, fmt.Errorf("param %q: duplicate rubric_id %q", ParamRubrics, r.ID)
		}
		key := normalizeRubric(r.Text)
		if texts[key] {
			return nil, fmt.Errorf("param %q: duplicate rubric text %q", ParamRubrics, r.Text)
		}
		ids[r.ID], texts[key] = true, true
		out = append(out, r)
	}
	return out, nil
}
