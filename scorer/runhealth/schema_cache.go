package runhealth

import (
	"errors"
	"fmt"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaURL is the name a tool's parameter schema is compiled under.
const schemaURL = "urn:evalsidecar:tool-parameters"

// errNoRemoteRefs is returned for every external $ref: schemas come from
// untrusted telemetry and must never reach files or the network.
var errNoRemoteRefs = errors.New("external schema references are not allowed")

// refuseLoader refuses every URL.
type refuseLoader struct{}

// Load refuses url.
func (refuseLoader) Load(string) (any, error) { return nil, errNoRemoteRefs }

// schemaEntry is one compiled (or uncompilable) schema.
type schemaEntry struct {
	schema *jsonschema.Schema
	err    error
}

// schemaCache compiles each distinct schema text once. It holds at most
// size schemas, the least recently used evicted first, and is safe for
// concurrent use.
type schemaCache struct {
	size    int
	entries *lru.Cache[string, schemaEntry]
}

// newSchemaCache returns a cache of at most size (> 0) schemas.
func newSchemaCache(size int) *schemaCache {
	entries, _ := lru.New[string, schemaEntry](size) // fails only for size <= 0, which the metric's parameters refuse
	return &schemaCache{size: size, entries: entries}
}

// get returns the compiled schema for text, compiling it on first use. An
// uncompilable schema returns its (cached) compile error.
func (c *schemaCache) get(text string) (*jsonschema.Schema, error) {
	if e, ok := c.entries.Get(text); ok {
		return e.schema, e.err
	}
	sch, err := compileSchema(text)
	c.entries.Add(text, schemaEntry{schema: sch, err: err})
	return sch, err
}

// compileSchema compiles one schema text with external references refused.
func compileSchema(text string) (sch *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			sch, err = nil, fmt.Errorf("schema compiler panicked: %v", r)
		}
	}()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
}
