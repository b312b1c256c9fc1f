package receiver

import (
	"context"
	"errors"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	_ "google.golang.org/grpc/encoding/gzip" // accept gzip-compressed OTLP/gRPC messages
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/stats"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"
)

// OTLP/gRPC method names.
const (
	traceServiceName = "opentelemetry.proto.collector.trace.v1.TraceService"
	logsServiceName  = "opentelemetry.proto.collector.logs.v1.LogsService"
	traceExportPath  = "/" + traceServiceName + "/Export"
	logsExportPath   = "/" + logsServiceName + "/Export"
)

// exportRaw decodes (with the nesting guard) and handles a protobuf body,
// answering INTERNAL on a panic, and counts the answer.
func (s *signal[Req, Resp]) exportRaw(ctx context.Context, raw []byte) (out rawMessage, err error) {
	var o outcome
	defer func() {
		if p := recover(); p != nil {
			o, out = s.r.panicOutcome(protoGRPC, s.name, p), nil
			s.r.metrics.refused(protoGRPC, s.name, o.reason, 0)
		}
		s.r.metrics.requests.WithLabelValues(protoGRPC, s.name, codeLabel(o.code)).Inc()
		err = o.grpcErr()
	}()
	if !s.r.mem.Decompressed().Take(int64(len(raw)), 0) {
		o = s.r.unavailable(reasonMemoryLimit)
		s.r.metrics.refused(protoGRPC, s.name, o.reason, 0)
		return nil, nil
	}
	defer s.r.mem.Decompressed().Release(int64(len(raw)))
	req, raw, deep, derr := s.decodeProto(raw)
	if derr != nil {
		o = undecodable(derr)
		s.r.metrics.refused(protoGRPC, s.name, o.reason, 0)
		return nil, nil
	}
	resp, o := s.export(ctx, protoGRPC, raw, req, deep)
	if o.code != codes.OK {
		return nil, nil
	}
	out, _ = resp.MarshalProto()
	return out, nil
}

// The services are registered with hand-written descriptors that receive
// the raw protobuf body. gRPC would otherwise decode before the handler
// runs, answer decode failures with INTERNAL instead of INVALID_ARGUMENT,
// and let a deeply nested body recurse in the decoder before any guard.

type rawExporter interface {
	exportRaw(ctx context.Context, raw []byte) (rawMessage, error)
}

func rawExportHandler(srv any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
	var in rawRequest
	if err := dec(&in); err != nil {
		return nil, err
	}
	defer in.free()
	exp, ok := srv.(rawExporter)
	if !ok {
		return nil, status.Error(codes.Internal, "no exporter registered")
	}
	return exp.exportRaw(ctx, in.buf.ReadOnlyData())
}

// rawRequest is a protobuf request body received over gRPC, held in a
// buffer of gRPC's pool (as gRPC's own codec holds it while decoding) that
// goes back to the pool when the handler returns: nothing may keep the
// body past the call (the decoded request copies every value; the forward
// copies the bytes it queues).
type rawRequest struct{ buf mem.Buffer }

func (r *rawRequest) free() {
	if r.buf != nil {
		r.buf.Free()
	}
}

func serviceDesc(name string) *grpc.ServiceDesc {
	return &grpc.ServiceDesc{
		ServiceName: name,
		HandlerType: (*rawExporter)(nil),
		Methods:     []grpc.MethodDesc{{MethodName: "Export", Handler: rawExportHandler}},
		Metadata:    "opentelemetry/proto/collector",
	}
}

// rawMessage is an undecoded protobuf message.
type rawMessage []byte

// rawCodec passes rawMessage bodies through untouched and delegates every
// other type to the registered proto codec.
type rawCodec struct{ delegate encoding.CodecV2 }

func (c rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	switch m := v.(type) {
	case rawMessage:
		return mem.BufferSlice{mem.SliceBuffer(m)}, nil
	case *rawMessage:
		return mem.BufferSlice{mem.SliceBuffer(*m)}, nil
	}
	if c.delegate == nil {
		return nil, errors.New("no proto codec registered")
	}
	return c.delegate.Marshal(v)
}

func (c rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	switch m := v.(type) {
	case *rawRequest:
		m.buf = data.MaterializeToBuffer(mem.DefaultBufferPool())
		return nil
	case *rawMessage:
		*m = data.Materialize()
		return nil
	}
	if c.delegate == nil {
		return errors.New("no proto codec registered")
	}
	return c.delegate.Unmarshal(data, v)
}

func (rawCodec) Name() string { return "proto" }

// tap checks the bearer token and the memory limit before gRPC reads the
// message, so an unauthenticated client never reaches the decoder and a
// process above its soft memory limit reads no more.
func (r *Receiver) tap(ctx context.Context, info *tap.Info) (context.Context, error) {
	var o outcome
	switch {
	case !r.auth.check(info.Header.Get("authorization")):
		o = outcome{code: codes.Unauthenticated, msg: "missing or invalid bearer token", reason: reasonUnauthenticated}
	case r.mem.Refusing():
		o = r.unavailable(reasonMemoryLimit)
	default:
		return ctx, nil
	}
	if signal := signalOf(info.FullMethodName); signal != "" {
		r.metrics.requests.WithLabelValues(protoGRPC, signal, codeLabel(o.code)).Inc()
		r.metrics.refused(protoGRPC, signal, o.reason, 0)
	}
	return ctx, o.grpcErr()
}

// signalOf maps a gRPC method to its signal label, "" for other methods.
func signalOf(method string) string {
	switch method {
	case traceExportPath:
		return signalTraces
	case logsExportPath:
		return signalLogs
	}
	return ""
}

// sizeStats counts requests that gRPC itself refused for exceeding the
// receive limit; they never reach a handler.
type sizeStats struct{ r *Receiver }

type methodKey struct{}

func (h sizeStats) TagRPC(ctx context.Context, info *stats.RPCTagInfo) context.Context {
	return context.WithValue(ctx, methodKey{}, info.FullMethodName)
}

func (h sizeStats) HandleRPC(ctx context.Context, s stats.RPCStats) {
	end, ok := s.(*stats.End)
	if !ok || end.Error == nil || status.Code(end.Error) != codes.ResourceExhausted {
		return
	}
	method, _ := ctx.Value(methodKey{}).(string)
	signal := signalOf(method)
	if signal == "" {
		return
	}
	h.r.metrics.requests.WithLabelValues(protoGRPC, signal, codeLabel(codes.ResourceExhausted)).Inc()
	h.r.metrics.refused(protoGRPC, signal, reasonTooLarge, 0)
}

func (sizeStats) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context { return ctx }

func (sizeStats) HandleConn(context.Context, stats.ConnStats) {}
