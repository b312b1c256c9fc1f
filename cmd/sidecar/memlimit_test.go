package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/loadgen"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// peakRSS returns the peak resident set of process pid, in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	st, err := loadgen.ReadProcStats(pid)
	if err != nil {
		t.Fatal(err)
	}
	return st.PeakRSS
}

// bigRequest is an OTLP traces request of one span with an attribute of
// n bytes.
func bigRequest(t *testing.T, n int) []byte {
	t.Helper()
	td := ptrace.NewTraces()
	s := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	s.SetTraceID([16]byte{1, 2, 3})
	s.SetSpanID([8]byte{4, 5, 6})
	s.SetName("chat big")
	s.Attributes().PutStr("gen_ai.operation.name", "chat")
	s.Attributes().PutStr("gen_ai.input.messages", strings.Repeat("a", n))
	b, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMemoryLimitHoldsUnderFloods sends the built sidecar, limited to
// 200 MiB, 80 concurrent gzip bombs (19 MiB each once decompressed, 20 KB
// on the wire) and then 40 concurrent 19 MiB bodies, and checks that its
// peak resident set stays under the limit, that every request is either
// accepted or refused with the retryable 503, and that it still accepts
// data afterwards.
func TestMemoryLimitHoldsUnderFloods(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the sidecar")
	}
	const limitMiB = 200
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "sidecar.yaml")
	cfg := fmt.Sprintf("receiver:\n  memory_limiter:\n    limit_mib: %d\n    check_interval: 100ms\n", limitMiB)
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	httpAddr := freeAddr(t)
	proc := startSidecar(t, "-config", cfgPath, "-grpc-endpoint", freeAddr(t), "-http-endpoint", httpAddr,
		"-metrics-endpoint", "127.0.0.1:0", "-jsonl-dir", dir)
	url := "http://" + httpAddr + "/v1/traces"

	body := bigRequest(t, 19<<20)
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	_, _ = zw.Write(body)
	_ = zw.Close()

	flood := func(name string, n int, payload []byte, encoding string) map[int]int {
		codes := map[int]int{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(payload))
				req.Header.Set("Content-Type", "application/x-protobuf")
				if encoding != "" {
					req.Header.Set("Content-Encoding", encoding)
				}
				code := -1
				resp, err := http.DefaultClient.Do(req)
				if err == nil {
					code = resp.StatusCode
					if code == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") == "" {
						code = -2
					}
					resp.Body.Close()
				}
				mu.Lock()
				codes[code]++
				mu.Unlock()
			})
		}
		wg.Wait()
		t.Logf("%s: %d requests of %d bytes on the wire: answers %v", name, n, len(payload), codes)
		for code := range codes {
			if code != http.StatusOK && code != http.StatusServiceUnavailable {
				t.Errorf("%s: answer %d (-1: no answer, -2: 503 without Retry-After)", name, code)
			}
		}
		return codes
	}
	t.Logf("peak RSS at start %.1f MiB", float64(peakRSS(t, proc.cmd.Process.Pid))/(1<<20))
	bombs := flood("gzip bombs", 80, gz.Bytes(), "gzip")
	t.Logf("peak RSS after the bombs %.1f MiB", float64(peakRSS(t, proc.cmd.Process.Pid))/(1<<20))
	bodies := flood("big bodies", 40, body, "")
	if bombs[http.StatusOK]+bodies[http.StatusOK] == 0 {
		t.Error("nothing accepted")
	}
	small := bigRequest(t, 100)
	for i := 0; ; i++ { // as a client would, retry while refused
		resp, err := http.Post(url, "application/x-protobuf", bytes.NewReader(small))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			break
		}
		if i == 50 {
			t.Fatalf("after the floods: %s, want 200", resp.Status)
		}
		time.Sleep(100 * time.Millisecond)
	}
	peak := peakRSS(t, proc.cmd.Process.Pid)
	t.Logf("peak RSS %.1f MiB, limit %d MiB", float64(peak)/(1<<20), limitMiB)
	if peak >= limitMiB<<20 {
		t.Errorf("peak RSS %.1f MiB over the %d MiB limit", float64(peak)/(1<<20), limitMiB)
	}
	proc.stop(t)
}
