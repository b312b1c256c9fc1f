package receiver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
)

// testPKI is a throwaway CA with a server and a client certificate.
type testPKI struct {
	caFile, serverCert, serverKey, clientCert, clientKey string
	pool                                                 *x509.CertPool
	client                                               tls.Certificate
}

func newTestPKI(t *testing.T) testPKI {
	t.Helper()
	dir := t.TempDir()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test ca"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	issue := func(name string, serial int64, usage x509.ExtKeyUsage) (certFile, keyFile string, pair tls.Certificate) {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: name},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
			IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		keyDER, _ := x509.MarshalECPrivateKey(key)
		certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
		keyPEM := pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
		certFile, keyFile = filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
		writeFile(t, certFile, certPEM)
		writeFile(t, keyFile, keyPEM)
		pair, err = tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			t.Fatal(err)
		}
		return certFile, keyFile, pair
	}
	p := testPKI{caFile: filepath.Join(dir, "ca.crt"), pool: x509.NewCertPool()}
	writeFile(t, p.caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}))
	p.pool.AddCert(caCert)
	p.serverCert, p.serverKey, _ = issue("server", 2, x509.ExtKeyUsageServerAuth)
	p.clientCert, p.clientKey, p.client = issue("client", 3, x509.ExtKeyUsageClientAuth)
	return p
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestTLS(t *testing.T) {
	pki := newTestPKI(t)
	ctx := context.Background()
	for _, mtls := range []bool{false, true} {
		name := "tls"
		if mtls {
			name = "mtls"
		}
		t.Run(name, func(t *testing.T) {
			cfg := testConfig()
			srvTLS := TLSConfig{CertFile: pki.serverCert, KeyFile: pki.serverKey, MinVersion: "1.2"}
			if mtls {
				srvTLS.ClientCAFile = pki.caFile
			}
			cfg.GRPC.TLS, cfg.HTTP.TLS = srvTLS, srvTLS
			s := &sink{}
			r, _ := startReceiver(t, cfg, s)

			clientTLS := &tls.Config{RootCAs: pki.pool, MinVersion: tls.VersionTLS12}
			if mtls {
				clientTLS.Certificates = []tls.Certificate{pki.client}
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
			bad := &tls.Config{RootCAs: pki.pool, MinVersion: tls.VersionTLS12}
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
	pki := newTestPKI(t)
	cfg := testConfig()
	cfg.GRPC.Enabled = false
	cfg.HTTP.TLS = TLSConfig{CertFile: pki.serverCert, KeyFile: pki.serverKey, MinVersion: "1.3"}
	r, _ := startReceiver(t, cfg, &sink{})
	body, _ := tracesRequest(validSpan("x")).MarshalProto()
	old := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{
		RootCAs: pki.pool, MinVersion: tls.VersionTLS12, MaxVersion: tls.VersionTLS12,
	}}}
	if _, err := old.Post("https://"+r.HTTPAddr()+tracesPath, mediaProto, bytesReader(body)); err == nil {
		t.Error("a TLS 1.2 client reached a server requiring 1.3")
	}
}

func TestStartFailsOnBadTLSFiles(t *testing.T) {
	cfg := testConfig()
	cfg.HTTP.TLS = TLSConfig{CertFile: "missing.crt", KeyFile: "missing.key"}
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
