package config

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// applySet applies one override "key.path=value" to doc, as the
// OpenTelemetry Collector's --set does: the path's mappings are created
// when missing, and value is read as YAML (a scalar, or a flow list or
// mapping: --set 'scorer.metrics=[{name: failure}]'), replacing what the
// file had at the path. The override's nodes are numbered past the
// document, so errors name the override instead of a line.
func (w *keyWalker) applySet(doc *yaml.Node, assignment string) error {
	key, value, ok := strings.Cut(assignment, "=")
	if !ok || key == "" {
		return fmt.Errorf("--set %s: want key.path=value", assignment)
	}
	parts := strings.Split(key, ".")
	for _, p := range parts {
		if p == "" {
			return fmt.Errorf("--set %s: empty key in %q", assignment, key)
		}
	}
	var v yaml.Node
	if err := yaml.Unmarshal([]byte(value), &v); err != nil {
		return fmt.Errorf("--set %s: value: %w", assignment, err)
	}
	val := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str"}
	if len(v.Content) > 0 {
		val = v.Content[0]
	}
	line := w.setLine
	w.setLine++
	if w.sets == nil {
		w.sets = map[int]string{}
	}
	w.sets[line] = assignment
	setLines(val, line)
	m := doc
	for i, p := range parts {
		last := i == len(parts)-1
		var next *yaml.Node
		for j := 0; j+1 < len(m.Content); j += 2 {
			if m.Content[j].Value == p {
				if last {
					m.Content[j+1] = val
					return nil
				}
				next = m.Content[j+1]
				break
			}
		}
		switch {
		case last:
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: p, Line: line}, val)
			return nil
		case next == nil:
			next = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: line}
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: p, Line: line}, next)
		case next.Kind != yaml.MappingNode: // e.g. "receiver:" with no value
			*next = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: line}
		}
		m = next
	}
	return nil
}

// setLines numbers every node of n with line.
func setLines(n *yaml.Node, line int) {
	n.Line = line
	for _, c := range n.Content {
		setLines(c, line)
	}
}
