package configtls

import (
	"crypto/tls"
	"net"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/configtls/tlstest"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string // "" for valid
	}{
		{"server off", ServerConfig{MinVersion: "1.2"}.Validate(), ""},
		{"server key without cert", ServerConfig{KeyFile: "k"}.Validate(), "cert_file: required"},
		{"server cert without key", ServerConfig{CertFile: "c"}.Validate(), "key_file: required"},
		{"server bad version", ServerConfig{CertFile: "c", KeyFile: "k", MinVersion: "1.1"}.Validate(), "min_version"},
		{"client defaults", ClientConfig{MinVersion: "1.2"}.Validate(), ""},
		{"client insecure ignores the rest", ClientConfig{Insecure: true, MinVersion: "9"}.Validate(), ""},
		{"client cert without key", ClientConfig{CertFile: "c"}.Validate(), "cert_file, key_file"},
		{"client bad version", ClientConfig{MinVersion: "1.0"}.Validate(), "min_version"},
	}
	for _, tt := range tests {
		switch {
		case tt.want == "" && tt.err != nil:
			t.Errorf("%s: unexpected error %v", tt.name, tt.err)
		case tt.want != "" && (tt.err == nil || !strings.Contains(tt.err.Error(), tt.want)):
			t.Errorf("%s: error %v, want %q", tt.name, tt.err, tt.want)
		}
	}
}

// TestHandshake connects each client configuration to each server
// configuration over TLS and checks which handshakes succeed.
func TestHandshake(t *testing.T) {
	pki := tlstest.New(t)
	tls12 := ServerConfig{CertFile: pki.ServerCert, KeyFile: pki.ServerKey}
	mtls := ServerConfig{CertFile: pki.ServerCert, KeyFile: pki.ServerKey, ClientCAFile: pki.CAFile}
	tls13 := ServerConfig{CertFile: pki.ServerCert, KeyFile: pki.ServerKey, MinVersion: "1.3"}
	tests := []struct {
		name   string
		server ServerConfig
		client ClientConfig
		ok     bool
	}{
		{"verified by the CA", tls12, ClientConfig{CAFile: pki.CAFile}, true},
		{"system roots do not know the CA", tls12, ClientConfig{}, false},
		{"skip verify", tls12, ClientConfig{InsecureSkipVerify: true}, true},
		{"server name override mismatch", tls12, ClientConfig{CAFile: pki.CAFile, ServerNameOverride: "other.example"}, false},
		{"server name override match", tls12, ClientConfig{CAFile: pki.CAFile, ServerNameOverride: "localhost"}, true},
		{"mTLS without a client certificate", mtls, ClientConfig{CAFile: pki.CAFile}, false},
		{"mTLS with a client certificate", mtls, ClientConfig{CAFile: pki.CAFile, CertFile: pki.ClientCert, KeyFile: pki.ClientKey}, true},
		{"1.3 server, 1.3 client", tls13, ClientConfig{CAFile: pki.CAFile, MinVersion: "1.3"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, err := tt.server.LoadTLSConfig()
			if err != nil {
				t.Fatal(err)
			}
			cli, err := tt.client.LoadTLSConfig()
			if err != nil {
				t.Fatal(err)
			}
			if got := handshake(t, srv, cli); got != tt.ok {
				t.Errorf("handshake succeeded = %v, want %v", got, tt.ok)
			}
		})
	}
}

func handshake(t *testing.T, srv, cli *tls.Config) bool {
	ln, err := tls.Listen("tcp", "127.0.0.1:0", srv)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	served := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			served <- err
			return
		}
		defer c.Close()
		served <- c.(*tls.Conn).Handshake()
	}()
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	cli = cli.Clone()
	if cli.ServerName == "" {
		cli.ServerName = "127.0.0.1"
	}
	c := tls.Client(raw, cli)
	cerr := c.Handshake()
	if cerr == nil {
		// With TLS 1.3 a refused client certificate shows on first read.
		_, cerr = c.Read(make([]byte, 1))
		if cerr != nil && strings.Contains(cerr.Error(), "EOF") {
			cerr = nil
		}
	}
	serr := <-served
	return cerr == nil && serr == nil
}

func TestLoadOffAndErrors(t *testing.T) {
	if c, err := (ServerConfig{}).LoadTLSConfig(); c != nil || err != nil {
		t.Errorf("server without cert_file: %v, %v", c, err)
	}
	if c, err := (ClientConfig{Insecure: true, CAFile: "missing"}).LoadTLSConfig(); c != nil || err != nil {
		t.Errorf("insecure client: %v, %v", c, err)
	}
	if _, err := (ServerConfig{CertFile: "missing.crt", KeyFile: "missing.key"}).LoadTLSConfig(); err == nil {
		t.Error("missing server certificate loaded")
	}
	if _, err := (ClientConfig{CAFile: "missing.pem"}).LoadTLSConfig(); err == nil {
		t.Error("missing CA file loaded")
	}
}
