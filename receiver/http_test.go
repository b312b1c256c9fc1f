package receiver

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func gzipBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHTTPEncodings sends the same spans in every accepted encoding and
// checks that the consumer sees them and the answer uses the request's type.
func TestHTTPEncodings(t *testing.T) {
	protoBody, _ := tracesRequest(validSpan("a"), validSpan("b")).MarshalProto()
	jsonBody, _ := tracesRequest(validSpan("a"), validSpan("b")).MarshalJSON()
	cases := []struct {
		name, contentType, encoding string
		body                        []byte
		wantType                    string
	}{
		{"proto identity", mediaProto, "", protoBody, mediaProto},
		{"proto explicit identity", mediaProto, "identity", protoBody, mediaProto},
		{"proto gzip", mediaProto, "gzip", gzipBytes(t, protoBody), mediaProto},
		{"json identity", mediaJSON, "", jsonBody, mediaJSON},
		{"json with charset", "application/json; charset=utf-8", "", jsonBody, mediaJSON},
		{"json gzip", mediaJSON, "gzip", gzipBytes(t, jsonBody), mediaJSON},
		{"gzip encoding in upper case", mediaJSON, "GZIP", gzipBytes(t, jsonBody), mediaJSON},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := &sink{}
			r, _ := startReceiver(t, testConfig(), s)
			a := post(t, nil, "http://"+r.HTTPAddr()+tracesPath, tc.contentType, tc.encoding, tc.body, nil)
			if a.httpStatus != http.StatusOK {
				t.Fatalf("status = %d, want 200", a.httpStatus)
			}
			if got := a.header.Get("Content-Type"); got != tc.wantType {
				t.Errorf("response Content-Type = %q, want %q", got, tc.wantType)
			}
			if got := strings.Join(s.spanNames(), ","); got != "a,b" {
				t.Errorf("consumer got %q, want a,b", got)
			}
		})
	}
}

// TestHTTPRejections covers the HTTP-only rows and hostile bodies.
func TestHTTPRejections(t *testing.T) {
	protoBody, _ := tracesRequest(validSpan("a")).MarshalProto()
	bomb := gzipBytes(t, bytes.Repeat([]byte{0}, 2<<20)) // ~2 KiB that inflates to 2 MiB
	cases := []struct {
		name, method, path, contentType, encoding string
		body                                      []byte
		maxBody                                   int64
		wantStatus                                int
		wantReason                                string
		wantAllow                                 string
		wantMsg                                   string // the refusal's message
	}{
		{name: "decompression bomb", path: tracesPath, contentType: mediaProto, encoding: "gzip", body: bomb, maxBody: 1 << 20, wantStatus: 413, wantReason: reasonTooLarge, wantMsg: "request body too large: limit 1048576 bytes"},
		{name: "compressed body over limit", path: tracesPath, contentType: mediaProto, body: bytes.Repeat([]byte{0x0a}, 4096), maxBody: 1024, wantStatus: 413, wantReason: reasonTooLarge, wantMsg: "request body too large: 4096 bytes, limit 1024"},
		{name: "corrupt gzip", path: tracesPath, contentType: mediaProto, encoding: "gzip", body: []byte("not gzip at all"), wantStatus: 400, wantReason: reasonUndecodable},
		{name: "truncated gzip", path: tracesPath, contentType: mediaProto, encoding: "gzip", body: gzipBytes(t, protoBody)[:20], wantStatus: 400, wantReason: reasonUndecodable},
		{name: "unsupported encoding", path: tracesPath, contentType: mediaProto, encoding: "zstd", body: protoBody, wantStatus: 415, wantReason: reasonUnsupportedMedia},
		{name: "unsupported content type", path: tracesPath, contentType: "text/plain", body: protoBody, wantStatus: 415, wantReason: reasonUnsupportedMedia},
		{name: "wrong method", method: http.MethodGet, path: tracesPath, wantStatus: 405, wantAllow: "POST"},
		{name: "wrong method on logs", method: http.MethodPut, path: logsPath, wantStatus: 405, wantAllow: "POST"},
		{name: "unknown path", path: "/v1/metrics", contentType: mediaProto, body: protoBody, wantStatus: 404},
		{name: "json enum name unknown", path: tracesPath, contentType: mediaJSON, body: readFixture(t, "bad_enum.json"), wantStatus: 400, wantReason: reasonUndecodable},
		{name: "json enum of wrong type", path: tracesPath, contentType: mediaJSON, body: readFixture(t, "bad_enum_type.json"), wantStatus: 400, wantReason: reasonUndecodable},
		{name: "json trace id of wrong length", path: tracesPath, contentType: mediaJSON, body: readFixture(t, "short_trace_id.json"), wantStatus: 400, wantReason: reasonUndecodable},
		{name: "json not an object", path: tracesPath, contentType: mediaJSON, body: []byte(`[1,2`), wantStatus: 400, wantReason: reasonUndecodable},
		// the one span is cut out before decoding and rejected: partial success, nothing consumed
		{name: "json span nested beyond the decode limit", path: tracesPath, contentType: mediaJSON, body: deepJSON(400), wantStatus: 200, wantReason: reasonAttributeDepth},
		{name: "json nested beyond encoding/json's limit", path: tracesPath, contentType: mediaJSON, body: deepJSON(4000), wantStatus: 400, wantReason: reasonUndecodable},
		{name: "proto garbage on logs", path: logsPath, contentType: mediaProto, body: []byte{0xff, 0xff}, wantStatus: 400, wantReason: reasonUndecodable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := testConfig()
			if tc.maxBody > 0 {
				cfg.HTTP.MaxRequestBodySize = tc.maxBody
			}
			s := &sink{}
			r, _ := startReceiver(t, cfg, s)
			method := tc.method
			if method == "" {
				method = http.MethodPost
			}
			req, err := http.NewRequest(method, "http://"+r.HTTPAddr()+tc.path, bytes.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			if tc.encoding != "" {
				req.Header.Set("Content-Encoding", tc.encoding)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			a := readHTTPAnswer(t, resp)
			if a.httpStatus != tc.wantStatus {
				t.Fatalf("status = %d, want %d", a.httpStatus, tc.wantStatus)
			}
			if tc.wantMsg != "" && a.msg != tc.wantMsg {
				t.Errorf("message = %q, want %q", a.msg, tc.wantMsg)
			}
			if got := resp.Header.Get("Allow"); got != tc.wantAllow {
				t.Errorf("Allow = %q, want %q", got, tc.wantAllow)
			}
			if s.callCount() != 0 {
				t.Errorf("consumer was called %d times", s.callCount())
			}
			if tc.wantReason != "" {
				signal := signalTraces
				if tc.path == logsPath {
					signal = signalLogs
				}
				vec := r.metrics.refusedSpans
				if signal == signalLogs {
					vec = r.metrics.refusedRecords
				}
				if got := counter(t, vec, protoHTTP, tc.wantReason); got != 1 {
					t.Errorf("refused{reason=%q} = %v, want 1", tc.wantReason, got)
				}
			}
		})
	}
}

// deepJSON is a traces request whose one attribute nests depth arrays.
func deepJSON(depth int) []byte {
	var b strings.Builder
	b.WriteString(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"0102030405060708","name":"x","attributes":[{"key":"k","value":`)
	for range depth {
		b.WriteString(`{"arrayValue":{"values":[`)
	}
	b.WriteString(`{"stringValue":"leaf"}`)
	for range depth {
		b.WriteString(`]}}`)
	}
	b.WriteString(`}]}]}]}]}`)
	return []byte(b.String())
}

// TestHTTPJSONEnumNames checks the lenient reading of enum names, which the
// OTLP/JSON encoding forbids senders to use but receivers may accept.
func TestHTTPJSONEnumNames(t *testing.T) {
	s := &sink{}
	r, _ := startReceiver(t, testConfig(), s)
	a := post(t, nil, "http://"+r.HTTPAddr()+tracesPath, mediaJSON, "", readFixture(t, "enum_names.json"), nil)
	if a.httpStatus != http.StatusOK {
		t.Fatalf("status = %d, want 200", a.httpStatus)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.traces) != 1 {
		t.Fatalf("consumer got %d requests, want 1", len(s.traces))
	}
	sp := s.traces[0].ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0)
	if sp.Kind().String() != "Server" || sp.Status().Code().String() != "Error" {
		t.Errorf("kind=%v status=%v, want Server/Error", sp.Kind(), sp.Status().Code())
	}
}

// TestHTTPRealCaptures replays OTLP/JSON bodies captured from real
// instrumentation libraries and checks every span arrives.
func TestHTTPRealCaptures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "realclients", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no captures found: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			body, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want := tracesRequestFromJSON(t, body).Traces().SpanCount()
			s := &sink{}
			r, _ := startReceiver(t, testConfig(), s)
			a := post(t, nil, "http://"+r.HTTPAddr()+tracesPath, mediaJSON, "gzip", gzipBytes(t, body), nil)
			if a.httpStatus != http.StatusOK || a.rejected != 0 {
				t.Fatalf("status = %d, rejected = %d (%s)", a.httpStatus, a.rejected, a.partialMsg)
			}
			if got := len(s.spanNames()); got != want || want == 0 {
				t.Errorf("consumer got %d spans, want %d", got, want)
			}
		})
	}
}

// TestHTTPJSONDeepSpanCutOut: an OTLP/JSON request whose one span nests
// attributes past the decode limit is accepted in part, as a protobuf one
// is: the other span reaches the consumer and the deep one is rejected
// with its reason.
func TestHTTPJSONDeepSpanCutOut(t *testing.T) {
	deep := string(deepJSON(400))
	// deepJSON's request holds one span; put a shallow one beside it
	body := strings.Replace(deep, `"spans":[`, `"spans":[{"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"0807060504030201","name":"kept"},`, 1)
	s := &sink{}
	r, _ := startReceiver(t, testConfig(), s)
	a := post(t, nil, "http://"+r.HTTPAddr()+tracesPath, mediaJSON, "", []byte(body), nil)
	if a.httpStatus != http.StatusOK || a.rejected != 1 {
		t.Fatalf("status %d, rejected %d; want 200 with 1 rejected", a.httpStatus, a.rejected)
	}
	if got := strings.Join(s.spanNames(), ","); got != "kept" {
		t.Errorf("consumer got %q, want the shallow span", got)
	}
	if got := counter(t, r.metrics.refusedSpans, protoHTTP, reasonAttributeDepth); got != 1 {
		t.Errorf("refused{reason=attribute_depth} = %v, want 1", got)
	}
}
