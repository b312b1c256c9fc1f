package runhealth

import (
	"errors"
	"fmt"
	"hash/maphash"
	"strings"
	"sync"

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

// schemaEntry is one compiled (or uncompilable) schema text.
type schemaEntry struct {
	text   string
	schema *jsonschema.Schema
	err    error
}

// schemaCache compiles each distinct schema text once. It holds at most
// size entries and evicts the oldest insertion first. It is safe for
// concurrent use.
type schemaCache struct {
	seed    maphash.Seed
	size    int
	mu      sync.Mutex
	entries map[uint64]*schemaEntry
	order   []uint64 // ring of keys in insertion order
	next    int
}

// newSchemaCache returns a cache of at most size schemas.
func newSchemaCache(size int) *schemaCache {
	return &schemaCache{
		seed:    maphash.MakeSeed(),
		size:    size,
		entries: make(map[uint64]*schemaEntry, size),
		order:   make([]uint64, 0, size),
	}
}

// get returns the compiled schema for text, compiling it on first use. An
// uncompilable schema returns its (cached) compile error.
func (c *schemaCache) get(text string) (*jsonschema.Schema, error) {
	key := maphash.String(c.seed, text)
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && e.text == text {
		return e.schema, e.err
	}
	sch, err := compileSchema(text)
	c.put(key, &schemaEntry{text: text, schema: sch, err: err})
	return sch, err
}

// put stores e under key, evicting the oldest entry when full.
func (c *schemaCache) put(key uint64, e *schemaEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; ok {
		c.entries[key] = e // a hash collision or a concurrent compile: keep the newest
		return
	}
	if len(c.order) < c.size {
		c.order = append(c.order, key)
	} else {
		delete(c.entries, c.order[c.next])
		c.order[c.next] = key
		c.next = (c.next + 1) % c.size
	}
	c.entries[key] = e
}

// len returns the number of cached schemas.
func (c *schemaCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
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
