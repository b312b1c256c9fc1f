package config

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/evalsidecar/evalsidecar/internal/editdist"
)

// decode parses YAML into out (which holds the defaults on entry), with
// --set style overrides ("key.path=value", see applySet) applied over the
// document. ${env:NAME} references in scalar values (not in comments or
// keys) are expanded with lookup (os.LookupEnv when nil). Keys not known to
// out's type are rejected with their full key path (and the nearest known
// key, when one is close), renamed keys with the key that replaced them;
// type errors name the key path and line. Every problem is reported, one
// per line. It returns the key paths the document and the overrides set.
func decode(data []byte, out any, lookup func(string) (string, bool), sets []string) (map[string]bool, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	var doc *yaml.Node
	switch {
	case len(root.Content) > 0 && root.Content[0].Kind == yaml.MappingNode:
		doc = root.Content[0]
	case len(root.Content) > 0 && !isNull(root.Content[0]):
		return nil, fmt.Errorf("config: line %d: the document must be a mapping of keys", root.Content[0].Line)
	default:
		doc = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	w := keyWalker{paths: map[int]string{}, present: map[string]bool{}, setLine: bytes.Count(data, []byte("\n")) + 2}
	var problems []string
	for _, s := range sets {
		if err := w.applySet(doc, s); err != nil {
			problems = append(problems, err.Error())
		}
	}
	if err := expandNode(doc, lookup); err != nil {
		problems = append(problems, err.Error())
	}
	w.check(doc, reflect.TypeOf(out).Elem(), "")
	problems = append(problems, w.unknown...)
	if err := doc.Decode(out); err != nil {
		problems = append(problems, w.annotate(err)...)
	}
	if len(problems) > 0 {
		return w.present, errors.New(strings.Join(problems, "\n"))
	}
	return w.present, nil
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// expandNode expands environment references in every scalar value below n.
func expandNode(n *yaml.Node, lookup func(string) (string, bool)) error {
	var errs []error
	var walk func(n *yaml.Node, isKey bool)
	walk = func(n *yaml.Node, isKey bool) {
		if n.Kind == yaml.ScalarNode && !isKey && strings.Contains(n.Value, "${env:") {
			v, err := expandEnv(n.Value, lookup)
			if err != nil {
				errs = append(errs, fmt.Errorf("line %d: %w", n.Line, err))
				return
			}
			n.Value = v
			if n.Style != 0 { // quoted, block or tagged (!!str): stays a string
				return
			}
			// A plain ${env:...} parsed as a string; let the decoder resolve
			// the expanded text (numbers, booleans, durations).
			n.Tag = ""
			return
		}
		for i, c := range n.Content {
			walk(c, n.Kind == yaml.MappingNode && i%2 == 0)
		}
	}
	walk(n, false)
	return errors.Join(errs...)
}

var lineRef = regexp.MustCompile(`line (\d+):`)

// keyWalker checks a document's keys against a Go type.
type keyWalker struct {
	paths   map[int]string  // line -> key path, for type errors
	present map[string]bool // key paths the document sets
	unknown []string        // one message per unknown or renamed key
	// setLine is the line number given to the next --set override's
	// nodes: past the document's end, so messages can tell them apart.
	setLine int
	sets    map[int]string // line -> the override's text
}

// where names the origin of line: "line N", or the --set override.
func (w *keyWalker) where(line int) string {
	if s, ok := w.sets[line]; ok {
		return "--set " + s
	}
	return fmt.Sprintf("line %d", line)
}

// check walks node against t, records the key path of every line and every
// key present, and collects mapping keys that t does not declare.
func (w *keyWalker) check(node *yaml.Node, t reflect.Type, path string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if node.Kind == yaml.AliasNode && node.Alias != nil {
		node = node.Alias
	}
	if path != "" {
		if _, seen := w.paths[node.Line]; !seen {
			w.paths[node.Line] = path
		}
	}
	var fields map[string]reflect.Type // the keys of a block, nil for any other type
	if node.Kind == yaml.MappingNode {
		fields = YAMLFields(t)
	}
	switch {
	case fields != nil:
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, v := node.Content[i], node.Content[i+1]
			p := join(path, k.Value)
			w.paths[k.Line] = p
			ft, ok := fields[k.Value]
			if !ok {
				w.unknown = append(w.unknown, w.where(k.Line)+": "+unknownKey(p, k.Value, path, fields))
				continue
			}
			w.present[p] = true
			w.check(v, ft, p)
		}
	case node.Kind == yaml.MappingNode && t.Kind() == reflect.Map:
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, v := node.Content[i], node.Content[i+1]
			p := join(path, k.Value)
			w.paths[k.Line] = p
			w.present[p] = true
			w.check(v, t.Elem(), p)
		}
	case node.Kind == yaml.SequenceNode && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
		for i, item := range node.Content {
			w.check(item, t.Elem(), path+"["+strconv.Itoa(i)+"]")
		}
	}
}

// unknownKey is the message for key (at path p, in the block parent) that
// the block's fields do not declare: its successor when it was renamed,
// else the nearest known key when one is close.
func unknownKey(p, key, parent string, fields map[string]reflect.Type) string {
	if msg, moved := renamed(p); moved {
		return msg
	}
	if near := editdist.Closest(key, slices.Collect(maps.Keys(fields))); near != "" {
		return fmt.Sprintf("%s is not a known key (did you mean %s?)", p, join(parent, near))
	}
	return p + " is not a known key"
}

// YAMLFields maps the keys a configuration block of type t accepts to
// their types: the yaml keys of struct t (including inlined structs), or
// for the exporters block the exporters' keys and their blocks' types. It
// is nil when t is not a block (a map, a list, a scalar).
func YAMLFields(t reflect.Type) map[string]reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == exportersType:
		return exporterFields()
	case t.Kind() != reflect.Struct:
		return nil
	}
	fields := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if strings.Contains(opts, "inline") {
			maps.Copy(fields, YAMLFields(f.Type))
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		fields[name] = f.Type
	}
	return fields
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// annotate rewrites "line N:" in yaml errors to "line N (key.path):", or
// to "--set key.path=value:" for an override's nodes.
func (w *keyWalker) annotate(err error) []string {
	var te *yaml.TypeError
	msgs := []string{err.Error()}
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	for i, m := range msgs {
		msgs[i] = lineRef.ReplaceAllStringFunc(m, func(s string) string {
			n, _ := strconv.Atoi(lineRef.FindStringSubmatch(s)[1])
			if set, ok := w.sets[n]; ok {
				return "--set " + set + ":"
			}
			if p, ok := w.paths[n]; ok {
				return fmt.Sprintf("line %d (%s):", n, p)
			}
			return s
		})
	}
	return msgs
}
