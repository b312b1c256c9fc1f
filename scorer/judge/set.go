package judge

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Set holds the configured judges by name and resolves their fallbacks.
type Set struct {
	clients map[string]*Client
	judges  map[string]Judge
}

// NewSet returns the set of clients. It fails on a duplicate name, a
// fallback naming no client in the set, or a fallback cycle.
func NewSet(clients ...*Client) (*Set, error) {
	s := &Set{clients: make(map[string]*Client, len(clients)), judges: make(map[string]Judge, len(clients))}
	var err error
	for _, c := range clients {
		if c == nil {
			err = errors.Join(err, errors.New("judges: nil client"))
			continue
		}
		if _, dup := s.clients[c.Name()]; dup {
			err = errors.Join(err, fmt.Errorf("judges: duplicate judge name %q", c.Name()))
			continue
		}
		s.clients[c.Name()] = c
	}
	if err != nil {
		return nil, err
	}
	for _, name := range s.Names() {
		j, ferr := s.resolve(name)
		err = errors.Join(err, ferr)
		s.judges[name] = j
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// resolve builds the fallback chain starting at name.
func (s *Set) resolve(name string) (Judge, error) {
	chain, names := []*Client{s.clients[name]}, []string{name}
	for c := chain[0]; c.Config().Fallback != ""; c = chain[len(chain)-1] {
		next := c.Config().Fallback
		if slices.Contains(names, next) {
			return nil, fmt.Errorf("judges: judge %q: fallback cycle %s -> %s", name, strings.Join(names, " -> "), next)
		}
		nc, ok := s.clients[next]
		if !ok {
			return nil, fmt.Errorf("judges: judge %q: fallback %q is not a configured judge", c.Name(), next)
		}
		chain, names = append(chain, nc), append(names, next)
	}
	var j Judge = chain[len(chain)-1]
	for i := len(chain) - 2; i >= 0; i-- {
		j = &fallbackJudge{primary: chain[i], fallback: j}
	}
	return j, nil
}

// Names returns the judges' names, sorted.
func (s *Set) Names() []string { return slices.Sorted(maps.Keys(s.clients)) }

// Judges returns every judge by name, each with its fallback chain: a
// judge calls the named client, and its fallback only when the client's
// circuit is open.
func (s *Set) Judges() map[string]Judge { return maps.Clone(s.judges) }

// fallbackJudge answers with primary, or with fallback when primary's
// circuit is open.
type fallbackJudge struct {
	primary  *Client
	fallback Judge
}

// Name returns the primary's name.
func (f *fallbackJudge) Name() string { return f.primary.Name() }

// Judge calls the primary and, only when its circuit is open, the
// fallback; Response.Judge names the judge that answered.
func (f *fallbackJudge) Judge(ctx context.Context, req *Request) (*Response, error) {
	resp, err := f.primary.Judge(ctx, req)
	if err == nil || ClassOf(err) != ClassCircuitOpen {
		return resp, err
	}
	return f.fallback.Judge(ctx, req)
}
