// Package nesting guards the OTLP decoders against bodies that nest
// attribute values deeply enough to overflow the goroutine stack.
package nesting

import (
	"errors"

	"google.golang.org/protobuf/encoding/protowire"
)

// The OTLP decoders recurse once per nested attribute value, and a goroutine
// stack overflow cannot be recovered. Before decoding, the raw protobuf
// body is scanned without recursion beyond the limit, and the spans and log
// records nesting attribute values deeper than the decode limit are cut out
// of it (StripProto, and StripJSON for an OTLP/JSON body), to be rejected
// as partial success; a resource or scope nested that deep is refused whole
// as undecodable, as is a JSON body nested past encoding/json's own limit.
// Values between max_attribute_depth and the decode limit decode safely and
// are then rejected per item as partial success.

// ErrTooDeep is returned by the nesting guards.
var ErrTooDeep = errors.New("attribute values nested too deeply to decode")

// DecodeDepthLimit is the attribute nesting the decoders are allowed to see
// for a given max_attribute_depth.
func DecodeDepthLimit(maxAttributeDepth int) int {
	return max(2*maxAttributeDepth, 128)
}

// Kind names the OTLP messages on the path from a request to AnyValue.
type Kind uint8

const (
	kindNone Kind = iota
	// TracesRequest is ExportTraceServiceRequest.
	TracesRequest
	kindResourceSpans
	kindScopeSpans
	kindSpan
	kindEvent
	kindLink
	// LogsRequest is ExportLogsServiceRequest.
	LogsRequest
	kindResourceLogs
	kindScopeLogs
	kindLogRecord
	kindResource
	kindScope
	kindKeyValue
	kindAnyValue
	kindArrayValue
	kindKeyValueList
)

// edge is a field of an OTLP message that holds a message on a path to
// AnyValue.
type edge struct {
	field protowire.Number
	child Kind
}

// paths lists, per message kind, the fields on a path to AnyValue, with
// their field numbers in the OTLP protos.
var paths = [...][]edge{
	TracesRequest: {{1, kindResourceSpans}},
	// resource, scope_spans, deprecated instrumentation_library_spans
	kindResourceSpans: {{1, kindResource}, {2, kindScopeSpans}, {1000, kindScopeSpans}},
	kindScopeSpans:    {{1, kindScope}, {2, kindSpan}},
	// attributes, events, links
	kindSpan:  {{9, kindKeyValue}, {11, kindEvent}, {13, kindLink}},
	kindEvent: {{3, kindKeyValue}},
	kindLink:  {{4, kindKeyValue}},

	LogsRequest: {{1, kindResourceLogs}},
	// resource, scope_logs, deprecated instrumentation_library_logs
	kindResourceLogs: {{1, kindResource}, {2, kindScopeLogs}, {1000, kindScopeLogs}},
	kindScopeLogs:    {{1, kindScope}, {2, kindLogRecord}},
	// body, attributes
	kindLogRecord: {{5, kindAnyValue}, {6, kindKeyValue}},

	kindResource: {{1, kindKeyValue}},
	kindScope:    {{3, kindKeyValue}},
	kindKeyValue: {{2, kindAnyValue}},
	// array_value, kvlist_value
	kindAnyValue:     {{5, kindArrayValue}, {6, kindKeyValueList}},
	kindArrayValue:   {{1, kindAnyValue}},
	kindKeyValueList: {{1, kindKeyValue}},
}

// childKind returns the message kind of field f of a message of kind k, or
// kindNone when the field is not a message on a path to AnyValue.
func childKind(k Kind, f protowire.Number) Kind {
	if int(k) >= len(paths) {
		return kindNone
	}
	for _, e := range paths[k] {
		if e.field == f {
			return e.child
		}
	}
	return kindNone
}

// CheckProto reports ErrTooDeep when an OTLP protobuf request of the
// given root kind nests AnyValue messages deeper than limit. Malformed wire
// data is not reported here; the decoder reports it.
func CheckProto(buf []byte, root Kind, limit int) error {
	return walkProto(buf, root, 0, limit)
}

// StripProto returns buf without the spans (or log records) that nest
// AnyValue messages deeper than limit, and how many it left out. It
// returns buf itself when nothing is too deep, and ErrTooDeep when a
// resource or scope is. Malformed wire data is left to the decoder.
func StripProto(buf []byte, root Kind, limit int) ([]byte, int, error) {
	if CheckProto(buf, root, limit) == nil {
		return buf, 0, nil
	}
	return stripProto(buf, root, limit)
}

// stripProto rewrites a request, resource-level or scope-level message
// of kind k, leaving out its too deep items and re-encoding the lengths
// of the messages that held them.
func stripProto(buf []byte, k Kind, limit int) ([]byte, int, error) {
	out := make([]byte, 0, len(buf))
	dropped := 0
	for len(buf) > 0 {
		num, typ, n := protowire.ConsumeTag(buf)
		if n < 0 {
			return append(out, buf...), dropped, nil
		}
		m := protowire.ConsumeFieldValue(num, typ, buf[n:])
		if m < 0 {
			return append(out, buf...), dropped, nil
		}
		field := buf[:n+m]
		buf = buf[n+m:]
		child := childKind(k, num)
		if typ != protowire.BytesType || child == kindNone {
			out = append(out, field...)
			continue
		}
		val, _ := protowire.ConsumeBytes(field[n:])
		switch child {
		case kindResourceSpans, kindScopeSpans, kindResourceLogs, kindScopeLogs:
			sub, d, err := stripProto(val, child, limit)
			if err != nil {
				return nil, 0, err
			}
			dropped += d
			out = protowire.AppendTag(out, num, protowire.BytesType)
			out = protowire.AppendBytes(out, sub)
		case kindSpan, kindLogRecord:
			if walkProto(val, child, 0, limit) != nil {
				dropped++
				continue
			}
			out = append(out, field...)
		default: // resource, scope
			if err := walkProto(val, child, 0, limit); err != nil {
				return nil, 0, err
			}
			out = append(out, field...)
		}
	}
	return out, dropped, nil
}

func walkProto(buf []byte, k Kind, depth, limit int) error {
	for len(buf) > 0 {
		num, typ, n := protowire.ConsumeTag(buf)
		if n < 0 {
			return nil
		}
		buf = buf[n:]
		if typ != protowire.BytesType {
			n = protowire.ConsumeFieldValue(num, typ, buf)
			if n < 0 {
				return nil
			}
			buf = buf[n:]
			continue
		}
		val, n := protowire.ConsumeBytes(buf)
		if n < 0 {
			return nil
		}
		buf = buf[n:]
		child := childKind(k, num)
		if child == kindNone {
			continue
		}
		d := depth
		if child == kindAnyValue {
			d++
			if d > limit {
				return ErrTooDeep
			}
		}
		if err := walkProto(val, child, d, limit); err != nil {
			return err
		}
	}
	return nil
}

// JSONLimit converts an attribute depth limit into a limit on JSON
// object/array nesting: about ten levels lead from the request to an
// attribute value, and each further value level adds at most four.
func JSONLimit(attrLimit int) int {
	return 16 + 4*attrLimit
}

// CheckJSON reports ErrTooDeep when the JSON text nests objects and
// arrays deeper than limit. Brackets inside strings are ignored; malformed
// JSON is left to the decoder.
func CheckJSON(buf []byte, limit int) error {
	depth := 0
	inString := false
	for i := 0; i < len(buf); i++ {
		c := buf[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > limit {
				return ErrTooDeep
			}
		case '}', ']':
			depth--
		}
	}
	return nil
}
