package receiver

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
)

// tlsVersion maps a configured version string to its crypto/tls constant.
// Only TLS 1.2 and 1.3 are allowed; empty means 1.2.
func tlsVersion(s string) (uint16, error) {
	switch s {
	case "", "1.2":
		return tls.VersionTLS12, nil
	case "1.3":
		return tls.VersionTLS13, nil
	default:
		return 0, fmt.Errorf("must be \"1.2\" or \"1.3\", got %q", s)
	}
}

// serverTLS loads the server certificate and, for mTLS, the client CA pool.
func (c TLSConfig) serverTLS() (*tls.Config, error) {
	minVer, err := tlsVersion(c.MinVersion)
	if err != nil {
		return nil, err
	}
	cert, err := tls.LoadX509KeyPair(c.CertFile, c.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("load certificate %s: %w", c.CertFile, err)
	}
	cfg := &tls.Config{MinVersion: minVer, Certificates: []tls.Certificate{cert}}
	if c.ClientCAFile != "" {
		pool, err := loadCertPool(c.ClientCAFile)
		if err != nil {
			return nil, err
		}
		cfg.ClientCAs = pool
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
	}
	return cfg, nil
}

// clientTLS builds the TLS configuration used to reach the upstream.
func (c ForwardTLSConfig) clientTLS() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: c.InsecureSkipVerify} //nolint:gosec // opt-in, documented as testing only
	if c.CAFile != "" {
		pool, err := loadCertPool(c.CAFile)
		if err != nil {
			return nil, err
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

func loadCertPool(path string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read CA file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("CA file %s: no PEM certificates found", path)
	}
	return pool, nil
}
