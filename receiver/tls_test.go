package receiver

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"

	"github.com/evalsidecar/evalsidecar/internal/configtls"
	"github.com/evalsidecar/evalsidecar/internal/configtls/tlstest"
)

func TestTLS(t *testing.T) {
	pki := tlstest.New(t)
	ctx := context.Background()
	for _, mtls := range []bool{false, true} {
		name := "tls"
		if mtls {
			name = "mtls"
		}
		t.Run(name, func(t *testing.T) {
			cfg := testConfig()
			srvTLS := configtls.ServerConfig{CertFile: pki.ServerCert, KeyFile: pki.ServerKey, MinVersion: "1.2"}
			if mtls {
				srvTLS.ClientCAFile = pki.CAFile
			}
			cfg.GRPC.TLS, cfg.HTTP.TLS = srvTLS, srvTLS
			s := &sink{}
			r, _ := startReceiver(t, cfg, s)

			clientTLS := &tls.Config{RootCAs: pki.Pool, MinVersion: tls.VersionTLS12}
			if mtls {
				clientTLS.Certificates = []tls.Certificate{pki.Client}
			}
			gexp, err := otlptracegrpc.New(ctx, otlptracegrpc.WithEndpoint(r.GRPCAddr()),
				otlptracegrpc.WithTLSCredentials(credentials.NewTLS(clientTLS)))
			if err != nil {
				t.Fatal(err)
			}
			if err := emitSpans(t, gexp, "over-grpc"); err != nil {
				t.Fatalf("gRPC export over TLS: %v", err)
			}
			hexp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpoint(r.HTTPAddr()),
				otlptracehttp.WithTLSClientConfig(clientTLS))
			if err != nil {
				t.Fatal(err)
			}
			if err := emitSpans(t, hexp, "over-http"); err != nil {
				t.Fatalf("HTTP export over TLS: %v", err)
			}
			if got := len(s.spanNames()); got != 2 {
				t.Errorf("consumer got %d spans, want 2", got)
			}

			// Without the CA (or, for mTLS, without a client certificate)
			// the handshake fails on both protocols.
			bad := &tls.Config{RootCAs: pki.Pool, MinVersion: tls.VersionTLS12}
			if !mtls {
				bad = &tls.Config{RootCAs: x509.NewCertPool(), MinVersion: tls.VersionTLS12}
			}
			cc := grpcConn(t, r.GRPCAddr(), grpc.WithTransportCredentials(credentials.NewTLS(bad)))
			if a := sendGRPCTraces(ctx, t, cc, tracesRequest(validSpan("x"))); a.grpcCode != codes.Unavailable {
				t.Errorf("gRPC with a bad TLS client: code %v, want Unavailable (handshake failure)", a.grpcCode)
			}
			body, _ := tracesRequest(validSpan("x")).MarshalProto()
			client := &http.Client{Transport: &http.Transport{TLSClientConfig: bad}}
			if _, err := client.Post("https://"+r.HTTPAddr()+tracesPath, mediaProto, bytesReader(body)); err == nil {
				t.Error("HTTP with a bad TLS client succeeded")
			}
			plain := &http.Client{}
			if resp, err := plain.Post("http://"+r.HTTPAddr()+tracesPath, mediaProto, bytesReader(body)); err == nil {
				if resp.StatusCode == http.StatusOK {
					t.Error("plain HTTP to a TLS listener was accepted")
				}
				resp.Body.Close()
			}
			if got := len(s.spanNames()); got != 2 {
				t.Errorf("consumer got %d spans after rejected clients, want 2", got)
			}
		})
	}
}

func TestTLSMinVersion(t *testing.T) {
	pki := tlstest.New(t)
	cfg := testConfig()
	cfg.GRPC.Enabled = false
	cfg.HTTP.TLS = configtls.ServerConfig{CertFile: pki.ServerCert, KeyFile: pki.ServerKey, MinVersion: "1.3"}
	r, _ := startReceiver(t, cfg, &sink{})
	body, _ := tracesRequest(validSpan("x")).MarshalProto()
	old := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{
		RootCAs: pki.Pool, MinVersion: tls.VersionTLS12, MaxVersion: tls.VersionTLS12,
	}}}
	if _, err := old.Post("https://"+r.HTTPAddr()+tracesPath, mediaProto, bytesReader(body)); err == nil {
		t.Error("a TLS 1.2 client reached a server requiring 1.3")
	}
}

func TestStartFailsOnBadTLSFiles(t *testing.T) {
	cfg := testConfig()
	cfg.HTTP.TLS = configtls.ServerConfig{CertFile: "missing.crt", KeyFile: "missing.key"}
	r, err := New(cfg, telemetry.Settings{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(context.Background()); err == nil {
		t.Fatal("Start succeeded with missing certificate files")
	}
	if r.GRPCAddr() == "" {
		t.Fatal("gRPC should have been bound before the HTTP failure")
	}
	// The gRPC server started first must have been stopped.
	conn, err := net.DialTimeout("tcp", r.GRPCAddr(), time.Second)
	if err == nil {
		conn.Close()
		t.Error("gRPC listener still accepting after a failed Start")
	}
}
