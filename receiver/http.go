package receiver

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/evalsidecar/evalsidecar/internal/memlimit"
	"github.com/evalsidecar/evalsidecar/receiver/internal/nesting"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// OTLP/HTTP paths and media types.
const (
	tracesPath = "/v1/traces"
	logsPath   = "/v1/logs"

	mediaProto = "application/x-protobuf"
	mediaJSON  = "application/json"
)

// errTooLarge marks a body over the configured limit.
var errTooLarge = errors.New("request body too large")

// errNoRoom marks a body refused because the request bytes in flight
// reached the memory limiter's bound.
var errNoRoom = errors.New("request bytes in flight at their limit")

// httpHandler serves POST /v1/traces and POST /v1/logs.
type httpHandler struct {
	r       *Receiver
	maxBody int64
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	var signal string
	switch req.URL.Path {
	case tracesPath:
		signal = signalTraces
	case logsPath:
		signal = signalLogs
	default:
		http.NotFound(w, req)
		return
	}
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		h.finish(w, signal, mediaProto, outcome{code: codes.Unimplemented, msg: req.Method + " not allowed; use POST"}, nil, http.StatusMethodNotAllowed)
		return
	}
	media := mediaProto
	if ct := req.Header.Get("Content-Type"); ct != "" {
		media, _, _ = mime.ParseMediaType(ct)
	}
	h.serve(w, req, signal, strings.ToLower(media))
}

// serve handles one POST; every answer is counted exactly once in finish.
func (h *httpHandler) serve(w http.ResponseWriter, req *http.Request, signal, media string) {
	respMedia := media
	if media != mediaProto && media != mediaJSON {
		respMedia = mediaProto
	}
	defer func() {
		if p := recover(); p != nil {
			h.refuse(w, signal, respMedia, h.r.panicOutcome(protoHTTP, signal, p), 0)
		}
	}()
	if !h.r.auth.check(req.Header.Values("Authorization")) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="otlp"`)
		h.refuse(w, signal, respMedia, outcome{code: codes.Unauthenticated, msg: "missing or invalid bearer token", reason: reasonUnauthenticated}, 0)
		return
	}
	if h.r.draining.Load() {
		h.refuse(w, signal, respMedia, h.r.unavailable(reasonShuttingDown), 0)
		return
	}
	if h.r.mem.Refusing() {
		h.refuse(w, signal, respMedia, h.r.unavailable(reasonMemoryLimit), 0)
		return
	}
	if respMedia != media {
		h.refuse(w, signal, respMedia, outcome{code: codes.InvalidArgument, msg: fmt.Sprintf("unsupported content type %q", media), reason: reasonUnsupportedMedia}, http.StatusUnsupportedMediaType)
		return
	}
	wire, plain := inflight{b: h.r.mem.Compressed()}, inflight{b: h.r.mem.Decompressed()}
	defer wire.release()
	defer plain.release()
	body, status, err := h.readBody(req, &wire, &plain)
	if errors.Is(err, errNoRoom) {
		h.refuse(w, signal, respMedia, h.r.unavailable(reasonMemoryLimit), 0)
		return
	}
	if err != nil {
		o := undecodable(err)
		switch status {
		case http.StatusRequestEntityTooLarge:
			o = outcome{code: codes.ResourceExhausted, msg: err.Error(), reason: reasonTooLarge}
		case http.StatusUnsupportedMediaType:
			o.reason = reasonUnsupportedMedia
		}
		h.refuse(w, signal, respMedia, o, status)
		return
	}
	var (
		o       outcome
		payload []byte
	)
	if signal == signalTraces {
		o, payload = h.r.traces.exportHTTP(req, media, body)
	} else {
		o, payload = h.r.logs.exportHTTP(req, media, body)
	}
	h.finish(w, signal, media, o, payload, 0)
}

// refuse answers and counts a request refused before its items were
// counted.
func (h *httpHandler) refuse(w http.ResponseWriter, signal, media string, o outcome, httpStatus int) {
	h.r.metrics.refused(protoHTTP, signal, o.reason, 0)
	h.finish(w, signal, media, o, nil, httpStatus)
}

// exportHTTP decodes a protobuf or JSON body, handles the request and
// encodes the export response in the same media type.
func (s *signal[Req, Resp]) exportHTTP(req *http.Request, media string, body []byte) (outcome, []byte) {
	var (
		raw  []byte
		r    Req
		deep int
		err  error
	)
	if media == mediaProto {
		r, raw, deep, err = s.decodeProto(body)
	} else {
		r = s.newRequest()
		if body, deep, err = nesting.StripJSON(body, s.root, nesting.JSONLimit(s.r.decodeDepth)); err == nil {
			if err = r.UnmarshalJSON(body); err != nil {
				err = fmt.Errorf("decode JSON %s request: %w", s.name, err)
			}
		}
	}
	if err != nil {
		o := undecodable(err)
		s.r.metrics.refused(protoHTTP, s.name, o.reason, 0)
		return o, nil
	}
	resp, o := s.export(req.Context(), protoHTTP, raw, r, deep)
	if o.code != codes.OK {
		return o, nil
	}
	var b []byte
	if media == mediaProto {
		b, err = resp.MarshalProto()
	} else {
		b, err = resp.MarshalJSON()
	}
	if err != nil {
		return outcome{code: codes.Internal, msg: "encode response: " + err.Error()}, nil
	}
	return o, b
}

// readBody reads the (possibly gzip-compressed) body, enforcing the limit
// on the body as sent and after decompression, and taking the bytes it
// reads from wire and, once decompressed, from plain before it reads them
// (errNoRoom when they have none left). On error it returns the HTTP
// status to answer: 413 over the limit, 415 for an unknown encoding, 400
// for a corrupt stream.
func (h *httpHandler) readBody(req *http.Request, wire, plain *inflight) ([]byte, int, error) {
	if req.ContentLength > h.maxBody {
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("%w: %d bytes, limit %d", errTooLarge, req.ContentLength, h.maxBody)
	}
	var body io.Reader = &budgetReader{r: req.Body, f: wire}
	if req.ContentLength > 0 { // known: its room is taken at once
		if !wire.take(req.ContentLength) {
			return nil, http.StatusServiceUnavailable, errNoRoom
		}
		body = req.Body
	}
	sent := http.MaxBytesReader(nil, io.NopCloser(body), h.maxBody)
	var src io.Reader = sent
	var zsize int64
	switch enc := strings.ToLower(strings.TrimSpace(req.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
	case "gzip":
		// the compressed body is read first: its gzip trailer gives the
		// size to take from the budget and to allocate once
		var z bytes.Buffer
		if _, err := z.ReadFrom(sent); err != nil {
			return bodyError(err, "read body")
		}
		if zb := z.Bytes(); len(zb) >= 4 {
			zsize = int64(binary.LittleEndian.Uint32(zb[len(zb)-4:])) // ISIZE: the size mod 2^32, a hint
		}
		zr, err := gzip.NewReader(&z)
		if err != nil {
			return bodyError(err, "invalid gzip body")
		}
		defer zr.Close()
		src = zr
	default:
		return nil, http.StatusUnsupportedMediaType, fmt.Errorf("unsupported content encoding %q", enc)
	}
	var buf bytes.Buffer
	var plainSrc io.Reader = &budgetReader{r: src, f: plain}
	size := req.ContentLength
	if src != io.Reader(sent) {
		size = zsize
	}
	if size > 0 && size <= h.maxBody { // known: its room is taken at once
		if !plain.take(size) {
			return nil, http.StatusServiceUnavailable, errNoRoom
		}
		plainSrc = src
		buf.Grow(int(size))
	}
	if _, err := buf.ReadFrom(http.MaxBytesReader(nil, io.NopCloser(plainSrc), h.maxBody)); err != nil {
		return bodyError(err, "read body")
	}
	return buf.Bytes(), 0, nil
}

// bodyError returns the HTTP status for an error reading a body: 503 out
// of room, 413 over the limit (as sent or decompressed), else 400 for a
// corrupt stream.
func bodyError(err error, what string) ([]byte, int, error) {
	var over *http.MaxBytesError
	switch {
	case errors.Is(err, errNoRoom):
		return nil, http.StatusServiceUnavailable, err
	case errors.As(err, &over):
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("%w: limit %d bytes", errTooLarge, over.Limit)
	}
	return nil, http.StatusBadRequest, fmt.Errorf("%s: %w", what, err)
}

// inflight is one request's share of a memlimit.Budget.
type inflight struct {
	b    *memlimit.Budget
	held int64
}

func (f *inflight) take(n int64) bool {
	if !f.b.Take(n, f.held) {
		return false
	}
	f.held += n
	return true
}

func (f *inflight) give(n int64) {
	f.b.Release(n)
	f.held -= n
}

func (f *inflight) release() { f.give(f.held) }

// budgetReader takes each read's room from its budget before reading, in
// steps of at most budgetStep bytes, and returns errNoRoom when there is
// none.
type budgetReader struct {
	r io.Reader
	f *inflight
}

const budgetStep = 64 << 10

func (br *budgetReader) Read(p []byte) (int, error) {
	if len(p) > budgetStep {
		p = p[:budgetStep]
	}
	if !br.f.take(int64(len(p))) {
		return 0, errNoRoom
	}
	k, err := br.r.Read(p)
	br.f.give(int64(len(p) - k))
	return k, err
}

// finish writes the answer and counts the request. An OK answer carries the
// encoded export response; an error answer a google.rpc.Status in the
// request's encoding. httpStatus overrides the status mapped from o.
func (h *httpHandler) finish(w http.ResponseWriter, signal, media string, o outcome, payload []byte, httpStatus int) {
	if httpStatus == 0 {
		httpStatus = o.httpStatus()
	}
	if o.code != codes.OK {
		payload = encodeStatus(o.statusProto(), media)
		if o.retryAfter > 0 {
			w.Header().Set("Retry-After", retryAfterSeconds(o.retryAfter))
		}
	}
	w.Header().Set("Content-Type", media)
	w.WriteHeader(httpStatus)
	_, _ = w.Write(payload)
	h.r.metrics.requests.WithLabelValues(protoHTTP, signal, codeLabel(o.code)).Inc()
}

func encodeStatus(st *spb.Status, media string) []byte {
	var (
		b   []byte
		err error
	)
	if media == mediaJSON {
		b, err = protojson.Marshal(st)
	} else {
		b, err = proto.Marshal(st)
	}
	if err != nil {
		return nil
	}
	return b
}
