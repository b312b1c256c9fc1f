package receiver

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// FuzzHTTPTraces drives random bodies through the HTTP handler in every
// content type and encoding. The handler must never panic (a recovered
// panic would show as 500) and must answer 200, 400, 413 or 415.
func FuzzHTTPTraces(f *testing.F) {
	valid, _ := tracesRequest(validSpan("a"), span{name: "bad\xff", traceID: goodTrace, spanID: goodSpan}).MarshalProto()
	validJSON, _ := tracesRequest(validSpan("a"), span{name: "no-ids"}).MarshalJSON()
	f.Add(valid, false, false)
	f.Add(valid, false, true)
	f.Add(validJSON, true, false)
	f.Add(validJSON, true, true)
	f.Add(deepJSON(300), true, false)
	f.Add([]byte{0x0a, 0xff, 0xff, 0xff, 0x0f}, false, false)

	cfg := DefaultConfig()
	cfg.HTTP.MaxRequestBodySize = 64 << 10
	s := &sink{}
	r, err := New(cfg, telemetry.Settings{}, s, s)
	if err != nil {
		f.Fatal(err)
	}
	h := &httpHandler{r: r, maxBody: cfg.HTTP.MaxRequestBodySize}
	f.Fuzz(func(t *testing.T, body []byte, asJSON, compress bool) {
		req := httptest.NewRequest(http.MethodPost, tracesPath, nil)
		if asJSON {
			req.Header.Set("Content-Type", mediaJSON)
		} else {
			req.Header.Set("Content-Type", mediaProto)
		}
		payload := body
		if compress {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			_, _ = zw.Write(body)
			_ = zw.Close()
			payload = buf.Bytes()
			req.Header.Set("Content-Encoding", "gzip")
		}
		req.Body = httpBody(payload)
		req.ContentLength = int64(len(payload))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK, http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType:
		default:
			t.Fatalf("status %d for a %d-byte body (json=%v gzip=%v): %q", rec.Code, len(body), asJSON, compress, rec.Body.Bytes())
		}
	})
}
