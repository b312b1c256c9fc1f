package loadgen

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// sender exports one OTLP trace request.
type sender interface {
	send(ctx context.Context, td ptrace.Traces) error
	close() error
}

// newSender connects to endpoint: host:port over gRPC, or a base URL
// (http://host:port) whose /v1/traces receives OTLP/HTTP protobuf.
func newSender(protocol, endpoint string) (sender, error) {
	switch protocol {
	case "grpc":
		conn, err := grpc.NewClient(endpoint, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return nil, err
		}
		return grpcSender{conn: conn, client: ptraceotlp.NewGRPCClient(conn)}, nil
	case "http":
		if !strings.Contains(endpoint, "://") {
			endpoint = "http://" + endpoint
		}
		return httpSender{url: strings.TrimSuffix(endpoint, "/") + "/v1/traces", client: &http.Client{}}, nil
	}
	return nil, fmt.Errorf("protocol %q: want grpc or http", protocol)
}

type grpcSender struct {
	conn   *grpc.ClientConn
	client ptraceotlp.GRPCClient
}

func (s grpcSender) send(ctx context.Context, td ptrace.Traces) error {
	resp, err := s.client.Export(ctx, ptraceotlp.NewExportRequestFromTraces(td))
	if err != nil {
		return err
	}
	if n := resp.PartialSuccess().RejectedSpans(); n > 0 {
		return fmt.Errorf("%d spans rejected: %s", n, resp.PartialSuccess().ErrorMessage())
	}
	return nil
}

func (s grpcSender) close() error { return s.conn.Close() }

type httpSender struct {
	url    string
	client *http.Client
}

func (s httpSender) send(ctx context.Context, td ptrace.Traces) error {
	body, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close() //nolint:errcheck // read-only body
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	out := ptraceotlp.NewExportResponse()
	if err := out.UnmarshalProto(raw); err == nil && out.PartialSuccess().RejectedSpans() > 0 {
		return fmt.Errorf("%d spans rejected: %s", out.PartialSuccess().RejectedSpans(), out.PartialSuccess().ErrorMessage())
	}
	return nil
}

func (s httpSender) close() error { s.client.CloseIdleConnections(); return nil }
