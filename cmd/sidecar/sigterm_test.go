package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// ackedExporter records the trace ids of the spans the sidecar
// acknowledged: those of an ExportSpans call that returned nil.
type ackedExporter struct {
	sdktrace.SpanExporter
	mu    sync.Mutex
	acked map[trace.TraceID]bool
}

func (a *ackedExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	err := a.SpanExporter.ExportSpans(ctx, spans)
	if err == nil {
		a.mu.Lock()
		for _, s := range spans {
			a.acked[s.SpanContext().TraceID()] = true
		}
		a.mu.Unlock()
	}
	return err
}

// freeAddr returns a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// sidecarProc is one run of the built binary.
type sidecarProc struct {
	cmd    *exec.Cmd
	stderr *syncBuffer
	done   chan error
}

// startSidecar runs the built sidecar (buildSidecar) with serve args and
// waits until it has started.
func startSidecar(t *testing.T, args ...string) *sidecarProc {
	t.Helper()
	bin := buildSidecar(t)
	p := &sidecarProc{stderr: new(syncBuffer), done: make(chan error, 1)}
	p.cmd = exec.Command(bin, append([]string{"serve", "-log-format", "json"}, args...)...)
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	deadline := time.After(30 * time.Second)
	for !strings.Contains(p.stderr.String(), "evalsidecar started") {
		select {
		case err := <-p.done:
			t.Fatalf("sidecar exited before starting (%v):\n%s", err, p.stderr.String())
		case <-deadline:
			_ = p.cmd.Process.Kill()
			t.Fatalf("sidecar did not start:\n%s", p.stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	return p
}

// term sends SIGTERM, waits for a clean exit and checks that nothing was
// logged at WARN or ERROR.
func (p *sidecarProc) term(t *testing.T) {
	t.Helper()
	p.stop(t)
	if s := p.stderr.String(); strings.Contains(s, `"level":"WARN"`) || strings.Contains(s, `"level":"ERROR"`) {
		t.Errorf("warnings at shutdown:\n%s", s)
	}
}

// stop sends SIGTERM and waits for a clean exit.
func (p *sidecarProc) stop(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("sidecar exited with %v:\n%s", err, p.stderr.String())
		}
	case <-time.After(60 * time.Second):
		_ = p.cmd.Process.Kill()
		t.Fatalf("sidecar did not stop:\n%s", p.stderr.String())
	}
}

// TestSIGTERMKeepsAcknowledgedRuns restarts the built sidecar with SIGTERM
// again and again while the OpenTelemetry Go SDK sends it 2,000 agent runs
// a second, and checks that every trace the sidecar acknowledged is in its
// JSON lines output: at SIGTERM the receiver refuses with the retryable
// answer (the SDK retries against the next process), and the buffered
// traces are scored and written, none refused.
func TestSIGTERMKeepsAcknowledgedRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("restarts the sidecar under load")
	}
	for _, protocol := range []string{"http", "grpc"} {
		t.Run(protocol, func(t *testing.T) { sigtermLoop(t, protocol) })
	}
}

func sigtermLoop(t *testing.T, protocol string) {
	const (
		rate     = 2000 // runs a second
		restarts = 3
		uptime   = 1500 * time.Millisecond
	)
	dir := t.TempDir()
	grpcAddr, httpAddr := freeAddr(t), freeAddr(t)
	args := []string{"-grpc-endpoint", grpcAddr, "-http-endpoint", httpAddr,
		"-metrics-endpoint", "127.0.0.1:0", "-jsonl-dir", dir}

	ctx := context.Background()
	var inner sdktrace.SpanExporter
	var err error
	if protocol == "http" {
		inner, err = otlptracehttp.New(ctx, otlptracehttp.WithEndpoint(httpAddr), otlptracehttp.WithInsecure(),
			otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: true, InitialInterval: 50 * time.Millisecond,
				MaxInterval: 500 * time.Millisecond, MaxElapsedTime: 2 * time.Minute}))
	} else {
		inner, err = otlptracegrpc.New(ctx, otlptracegrpc.WithEndpoint(grpcAddr), otlptracegrpc.WithInsecure(),
			otlptracegrpc.WithRetry(otlptracegrpc.RetryConfig{Enabled: true, InitialInterval: 50 * time.Millisecond,
				MaxInterval: 500 * time.Millisecond, MaxElapsedTime: 2 * time.Minute}))
	}
	if err != nil {
		t.Fatal(err)
	}
	exp := &ackedExporter{SpanExporter: inner, acked: map[trace.TraceID]bool{}}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp, sdktrace.WithBlocking(),
		sdktrace.WithMaxQueueSize(1<<17), sdktrace.WithMaxExportBatchSize(512), sdktrace.WithBatchTimeout(50*time.Millisecond)))
	tr := tp.Tracer("sigterm-test")

	proc := startSidecar(t, args...)
	stop := make(chan struct{})
	var load sync.WaitGroup
	sent := 0
	load.Go(func() {
		tk := time.NewTicker(10 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tk.C:
			}
			for range rate / 100 {
				emitRun(tr, sent)
				sent++
			}
		}
	})
	for range restarts {
		time.Sleep(uptime)
		proc.term(t)
		proc = startSidecar(t, args...)
	}
	time.Sleep(uptime)
	close(stop)
	load.Wait()
	sctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := tp.Shutdown(sctx); err != nil { // every span acknowledged or given up
		t.Fatal(err)
	}
	proc.term(t)

	written := map[string]bool{}
	for _, name := range []string{"trajectories.jsonl"} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var rec struct {
				TraceID string `json:"trace_id"`
			}
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				t.Fatal(err)
			}
			written[rec.TraceID] = true
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	missing := 0
	for id := range exp.acked {
		if !written[id.String()] {
			missing++
		}
	}
	t.Logf("%s: %d runs sent, %d acknowledged, %d SIGTERMs, %d trajectories written, %d acknowledged runs missing",
		protocol, sent, len(exp.acked), restarts+1, len(written), missing)
	if len(exp.acked) < sent*9/10 {
		t.Errorf("only %d of %d runs acknowledged", len(exp.acked), sent)
	}
	if missing > 0 {
		t.Errorf("%d of %d acknowledged runs missing from the output", missing, len(exp.acked))
	}
}

// emitRun sends one agent run of two spans: the agent span and its model
// call.
func emitRun(tr trace.Tracer, i int) {
	ctx, root := tr.Start(context.Background(), "invoke_agent support", trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "invoke_agent"),
		attribute.String("gen_ai.agent.name", "support"),
		attribute.String("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"where is my order?"}]}]`),
		attribute.String("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"on its way"}],"finish_reason":"stop"}]`),
		attribute.Int("run", i)))
	_, chat := tr.Start(ctx, "chat gpt-4o", trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "chat"),
		attribute.String("gen_ai.request.model", "gpt-4o"),
		attribute.Int("gen_ai.usage.input_tokens", 12),
		attribute.Int("gen_ai.usage.output_tokens", 4)))
	chat.End()
	root.End()
}
