package config

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Decode parses YAML into out (which holds the defaults on entry). ${env:NAME}
// references in scalar values (not in comments or keys) are expanded with
// lookup (os.LookupEnv when nil). Keys not known to out's type are rejected
// with their full key path, renamed keys with the key that replaced them;
// type errors name the key path and line.
func Decode(data []byte, out any, lookup func(string) (string, bool)) error {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if len(root.Content) == 0 {
		return nil // empty document: defaults
	}
	doc := root.Content[0]
	if err := expandNode(doc, lookup); err != nil {
		return err
	}
	paths := map[int]string{}
	var unknown []string
	checkKeys(doc, reflect.TypeOf(out).Elem(), "", paths, &unknown)
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("config: unknown or renamed keys: %s", strings.Join(unknown, "; "))
	}
	if err := doc.Decode(out); err != nil {
		return fmt.Errorf("config: %s", annotate(err, paths))
	}
	return nil
}

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
			if n.Style != 0 { // quoted, block or explicitly tagged: a string
				return
			}
			// a plain scalar was resolved as a string before expansion: let
			// the decoder resolve the expanded text (numbers, booleans)
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

var (
	durationType = reflect.TypeOf(time.Duration(0))
	lineRef      = regexp.MustCompile(`line (\d+):`)
)

// checkKeys walks node against t, records the key path of every line, and
// collects mapping keys that t does not declare.
func checkKeys(node *yaml.Node, t reflect.Type, path string, paths map[int]string, unknown *[]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if node.Kind == yaml.AliasNode && node.Alias != nil {
		node = node.Alias
	}
	if path != "" {
		if _, seen := paths[node.Line]; !seen {
			paths[node.Line] = path
		}
	}
	switch {
	case node.Kind == yaml.MappingNode && t.Kind() == reflect.Struct && t != durationType:
		fields := yamlFields(t)
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, v := node.Content[i], node.Content[i+1]
			p := join(path, k.Value)
			paths[k.Line] = p
			ft, ok := fields[k.Value]
			if !ok {
				msg, moved := renamed(p)
				if !moved {
					msg = p + " is not a known key"
				}
				*unknown = append(*unknown, fmt.Sprintf("line %d: %s", k.Line, msg))
				continue
			}
			checkKeys(v, ft, p, paths, unknown)
		}
	case node.Kind == yaml.MappingNode && t.Kind() == reflect.Map:
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, v := node.Content[i], node.Content[i+1]
			p := join(path, k.Value)
			paths[k.Line] = p
			checkKeys(v, t.Elem(), p, paths, unknown)
		}
	case node.Kind == yaml.SequenceNode && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
		for i, item := range node.Content {
			checkKeys(item, t.Elem(), path+"["+strconv.Itoa(i)+"]", paths, unknown)
		}
	}
}

// yamlFields maps the yaml keys of struct t (including inlined structs) to
// their types.
func yamlFields(t reflect.Type) map[string]reflect.Type {
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
			for k, v := range yamlFields(f.Type) {
				fields[k] = v
			}
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

// annotate rewrites "line N:" in yaml errors to "line N (key.path):".
func annotate(err error, paths map[int]string) string {
	var te *yaml.TypeError
	msgs := []string{err.Error()}
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	for i, m := range msgs {
		msgs[i] = lineRef.ReplaceAllStringFunc(m, func(s string) string {
			n, _ := strconv.Atoi(lineRef.FindStringSubmatch(s)[1])
			if p, ok := paths[n]; ok {
				return fmt.Sprintf("line %d (%s):", n, p)
			}
			return s
		})
	}
	return strings.Join(msgs, "; ")
}
