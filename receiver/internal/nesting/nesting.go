// Package nesting guards the OTLP decoders against bodies that nest
// attribute values deeply enough to overflow the goroutine stack.
package nesting

import (
	"errors"

	"google.golang.org/protobuf/encoding/protowire"
)

// The OTLP decoders recurse once per nested attribute value, and a goroutine
// stack overflow cannot be recovered. Before decoding, the raw body is
// scanned without recursion beyond the limit, and a body nesting attribute
// values deeper than the decode limit is refused whole as undecodable.
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

// childKind returns the message kind of field f of a message of kind k, or
// kindNone when the field is not a message on a path to AnyValue.
func childKind(k Kind, f protowire.Number) Kind {
	switch k {
	case TracesRequest:
		if f == 1 {
			return kindResourceSpans
		}
	case kindResourceSpans:
		switch f {
		case 1:
			return kindResource
		case 2, 1000: // scope_spans; deprecated instrumentation_library_spans
			return kindScopeSpans
		}
	case kindScopeSpans:
		switch f {
		case 1:
			return kindScope
		case 2:
			return kindSpan
		}
	case kindSpan:
		switch f {
		case 9:
			return kindKeyValue
		case 11:
			return kindEvent
		case 13:
			return kindLink
		}
	case kindEvent:
		if f == 3 {
			return kindKeyValue
		}
	case kindLink:
		if f == 4 {
			return kindKeyValue
		}
	case LogsRequest:
		if f == 1 {
			return kindResourceLogs
		}
	case kindResourceLogs:
		switch f {
		case 1:
			return kindResource
		case 2, 1000:
			return kindScopeLogs
		}
	case kindScopeLogs:
		switch f {
		case 1:
			return kindScope
		case 2:
			return kindLogRecord
		}
	case kindLogRecord:
		switch f {
		case 5:
			return kindAnyValue
		case 6:
			return kindKeyValue
		}
	case kindResource:
		if f == 1 {
			return kindKeyValue
		}
	case kindScope:
		if f == 3 {
			return kindKeyValue
		}
	case kindKeyValue:
		if f == 2 {
			return kindAnyValue
		}
	case kindAnyValue:
		switch f {
		case 5:
			return kindArrayValue
		case 6:
			return kindKeyValueList
		}
	case kindArrayValue:
		if f == 1 {
			return kindAnyValue
		}
	case kindKeyValueList:
		if f == 1 {
			return kindKeyValue
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
