package simulator

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// Protocol values for Config.Protocol.
const (
	ProtocolGRPC = "grpc"
	ProtocolHTTP = "http"
)

// Config configures a Simulator. It is built in code (the demo command
// sets it from flags); Validate names each field by its snake_case key.
type Config struct {
	// Endpoint is host:port of the sidecar's OTLP receiver: the gRPC port
	// (4317) for protocol grpc, the HTTP port (4318) for protocol http. The
	// connection is plain text (no TLS), meant for loopback.
	Endpoint string
	// Protocol is "grpc" or "http".
	Protocol string
	// Service is the service.name resource attribute.
	Service string
	// Release is the service.version resource attribute (and
	// gen_ai.agent.version); SetRelease changes it at run time.
	Release string
	// Environment is the deployment.environment.name resource attribute.
	Environment string
	// Quality is the behaviour of the release: good or degraded.
	Quality Quality
	// EventForm sends messages as GenAI v1.28–1.36 log records
	// (gen_ai.user.message, gen_ai.choice, …) tied to the chat spans instead
	// of the gen_ai.input.messages / gen_ai.output.messages attributes.
	EventForm bool
	// ConversationTurns is how many consecutive runs share one
	// conversation id (gen_ai.conversation.id), each run one turn of the
	// conversation; 0 or 1 gives every run its own.
	ConversationTurns int
	// Seed makes the runs' content reproducible.
	Seed int64
	// Headers are sent with every export request (e.g. authorization).
	Headers map[string]string
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		Endpoint:    "127.0.0.1:4317",
		Protocol:    ProtocolGRPC,
		Service:     "demo-agent",
		Release:     "1.0.0",
		Environment: "demo",
		Quality:     Good,
		Seed:        1,
	}
}

// Validate reports every invalid key, each error naming its key.
func (c *Config) Validate() error {
	var v errs.Checks
	v.Check(c.ConversationTurns < 0, "conversation_turns: must be >= 0")
	v.Add(errs.Prefix("endpoint: ", validateEndpoint(c.Endpoint)))
	v.Check(c.Protocol != ProtocolGRPC && c.Protocol != ProtocolHTTP, "protocol: must be %q or %q, got %q", ProtocolGRPC, ProtocolHTTP, c.Protocol)
	v.Check(strings.TrimSpace(c.Service) == "", "service: must not be empty")
	v.Check(strings.TrimSpace(c.Release) == "", "release: must not be empty")
	v.Check(c.Quality != Good && c.Quality != Degraded, "quality: must be good or degraded, got %d", int(c.Quality))
	v.Check(slices.ContainsFunc(slices.Collect(maps.Keys(c.Headers)), func(k string) bool { return strings.TrimSpace(k) == "" }),
		"headers: header name must not be empty")
	return v.Err()
}

func validateEndpoint(ep string) error {
	if ep == "" {
		return errors.New("must not be empty")
	}
	host, port, err := net.SplitHostPort(ep)
	if err != nil {
		return fmt.Errorf("must be host:port: %w", err)
	}
	if host == "" {
		return errors.New("host must not be empty")
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("port %q must be 1-65535", port)
	}
	return nil
}
