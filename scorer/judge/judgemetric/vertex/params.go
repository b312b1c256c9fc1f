package vertex

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// stringList reads a list of non-empty strings; absent gives nil.
func stringList(p scorer.Params, key string) ([]string, error) {
	v, ok := p[key]
	if !ok || v == nil {
		return nil, nil
	}
	items := reflect.ValueOf(v)
	if items.Kind() != reflect.Slice {
		return nil, fmt.Errorf("param %q: must be a list of strings, got %T", key, v)
	}
	out := make([]string, 0, items.Len())
	for i := range items.Len() {
		it := items.Index(i).Interface()
		s, ok := it.(string)
		if !ok {
			return nil, fmt.Errorf("param %q: item %d must be a string, got %T", key, i, it)
		}
		if strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("param %q: item %d is empty", key, i)
		}
		out = append(out, strings.TrimSpace(s))
	}
	return out, nil
}

// stringMap reads a map of non-empty strings; keys may be strings or
// numbers (YAML rating rubrics use integer keys). Absent gives nil.
func stringMap(p scorer.Params, key string) (map[string]string, error) {
	v, ok := p[key]
	if !ok || v == nil {
		return nil, nil
	}
	out := make(map[string]string)
	add := func(k any, val any) error {
		ks, err := mapKey(k)
		if err != nil {
			return fmt.Errorf("param %q: %v", key, err)
		}
		s, ok := val.(string)
		if !ok {
			return fmt.Errorf("param %q: value of %q must be a string, got %T", key, ks, val)
		}
		if strings.TrimSpace(s) == "" {
			return fmt.Errorf("param %q: value of %q is empty", key, ks)
		}
		if _, dup := out[ks]; dup {
			return fmt.Errorf("param %q: key %q given twice", key, ks)
		}
		out[ks] = strings.TrimSpace(s)
		return nil
	}
	// YAML gives map[string]any, or map[any]any when a key is not a string.
	m := reflect.ValueOf(v)
	if m.Kind() != reflect.Map {
		return nil, fmt.Errorf("param %q: must be a map, got %T", key, v)
	}
	for it := m.MapRange(); it.Next(); {
		if err := add(it.Key().Interface(), it.Value().Interface()); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// mapKey renders a map key as text.
func mapKey(k any) (string, error) {
	switch x := k.(type) {
	case string:
		if strings.TrimSpace(x) == "" {
			return "", fmt.Errorf("empty key")
		}
		return strings.TrimSpace(x), nil
	case int:
		return strconv.Itoa(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case uint64:
		return strconv.FormatUint(x, 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "", fmt.Errorf("key %v is not a number", x)
		}
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	}
	return "", fmt.Errorf("key %v must be a string or a number, got %T", k, k)
}
