// Package configtls is the tls block of the OpenTelemetry Collector for
// servers and clients, with the Collector's key names (cert_file,
// key_file, ca_file, client_ca_file, min_version, insecure,
// insecure_skip_verify, server_name_override) and meanings.
//
// The Collector's configtls types are not used themselves: their fields
// carry mapstructure tags with squashed embedding for the Collector's
// confmap loader, which gopkg.in/yaml.v3 ignores, and the module brings
// confmap, koanf, zap and TPM support along.
package configtls

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// DefaultMinVersion is the lowest TLS version accepted by default.
const DefaultMinVersion = "1.2"

// ServerConfig is a server's tls block. TLS is on while CertFile is set.
type ServerConfig struct {
	// CertFile is the PEM server certificate (chain).
	CertFile string `yaml:"cert_file"`
	// KeyFile is the PEM private key of CertFile.
	KeyFile string `yaml:"key_file"`
	// ClientCAFile, when set, requires clients to present a certificate
	// signed by one of these PEM CAs (mTLS).
	ClientCAFile string `yaml:"client_ca_file"`
	// MinVersion is the lowest TLS version accepted: "1.2" or "1.3".
	MinVersion string `yaml:"min_version"`
}

// Enabled reports whether TLS is configured.
func (c ServerConfig) Enabled() bool { return c.CertFile != "" }

// Validate reports every invalid key, named as in the block.
func (c ServerConfig) Validate() error {
	var v errs.Checks
	if !c.Enabled() { // TLS off: the other keys are checked only when on
		v.Check(c.KeyFile != "" || c.ClientCAFile != "", "cert_file: required when key_file or client_ca_file is set")
		return v.Err()
	}
	v.Check(c.KeyFile == "", "key_file: required when cert_file is set")
	_, err := version(c.MinVersion)
	v.Add(errs.Prefix("min_version: ", err))
	return v.Err()
}

// LoadTLSConfig loads the certificate and, for mTLS, the client CAs. It
// returns nil when TLS is off.
func (c ServerConfig) LoadTLSConfig() (*tls.Config, error) {
	if !c.Enabled() {
		return nil, nil
	}
	minVer, err := version(c.MinVersion)
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

// ClientConfig is a client's tls block. TLS is on unless Insecure is set.
type ClientConfig struct {
	// Insecure sends without TLS (plain text); the other keys are unused.
	Insecure bool `yaml:"insecure"`
	// InsecureSkipVerify uses TLS without verifying the server's
	// certificate (testing only).
	InsecureSkipVerify bool `yaml:"insecure_skip_verify"`
	// ServerNameOverride is the name the server's certificate is checked
	// against, instead of the endpoint's host.
	ServerNameOverride string `yaml:"server_name_override"`
	// CAFile is a PEM bundle verifying the server instead of the system
	// roots.
	CAFile string `yaml:"ca_file"`
	// CertFile and KeyFile are the PEM client certificate and key (mTLS).
	CertFile string `yaml:"cert_file"`
	KeyFile  string `yaml:"key_file"`
	// MinVersion is the lowest TLS version accepted: "1.2" or "1.3".
	MinVersion string `yaml:"min_version"`
}

// Validate reports every invalid key, named as in the block.
func (c ClientConfig) Validate() error {
	if c.Insecure {
		return nil
	}
	var v errs.Checks
	v.Check((c.CertFile == "") != (c.KeyFile == ""), "cert_file, key_file: set both or neither")
	_, err := version(c.MinVersion)
	v.Add(errs.Prefix("min_version: ", err))
	return v.Err()
}

// LoadTLSConfig builds the client TLS configuration. It returns nil when
// Insecure is set.
func (c ClientConfig) LoadTLSConfig() (*tls.Config, error) {
	if c.Insecure {
		return nil, nil
	}
	minVer, err := version(c.MinVersion)
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{
		MinVersion:         minVer,
		ServerName:         c.ServerNameOverride,
		InsecureSkipVerify: c.InsecureSkipVerify, //nolint:gosec // opt-in, documented as testing only
	}
	if c.CAFile != "" {
		if cfg.RootCAs, err = loadCertPool(c.CAFile); err != nil {
			return nil, err
		}
	}
	if c.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(c.CertFile, c.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("load client certificate %s: %w", c.CertFile, err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}

// version maps a configured version to its crypto/tls constant. Only TLS
// 1.2 and 1.3 are allowed; empty means 1.2.
func version(s string) (uint16, error) {
	switch s {
	case "", "1.2":
		return tls.VersionTLS12, nil
	case "1.3":
		return tls.VersionTLS13, nil
	default:
		return 0, fmt.Errorf("must be \"1.2\" or \"1.3\", got %q", s)
	}
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
