package otlp

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"strings"
)

// lookup is [signal.get] that also returns the name of the variable the
// value came from, for errors. That is OTEL_EXPORTER_OTLP_<SIGNAL>_<key>,
// or else OTEL_EXPORTER_OTLP_<key>. Both are empty when neither is set.
func (s signal) lookup(key string) (name, value string) {
	for _, name := range []string{"OTEL_EXPORTER_OTLP_" + s.name + "_" + key, "OTEL_EXPORTER_OTLP_" + key} {
		if v := strings.TrimSpace(os.Getenv(name)); v != "" {
			return name, v
		}
	}
	return "", ""
}

// tlsConfig reads the specification's TLS variables for s. _CERTIFICATE
// is the PEM file of the certificates, a private CA's. The collector's
// certificate is checked against them instead of the system's roots.
// _CLIENT_CERTIFICATE and _CLIENT_KEY are the PEM files of the certificate
// (and chain) and private key toolhost presents for mutual TLS. Each is
// the signal's own variable or else the general one. It returns nil when
// none is set: the system's roots, no client certificate. Errors name the
// variable, the file and the fix, never a file's contents.
func (s signal) tlsConfig() (*tls.Config, error) {
	caVar, caFile := s.lookup("CERTIFICATE")
	certVar, certFile := s.lookup("CLIENT_CERTIFICATE")
	keyVar, keyFile := s.lookup("CLIENT_KEY")
	if caFile == "" && certFile == "" && keyFile == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("%s: cannot read the collector's CA certificate: %w: set it to a readable PEM file", caVar, err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s: %s holds no PEM certificate: set it to the PEM file (-----BEGIN CERTIFICATE-----) of the CA that signed the collector's certificate", caVar, caFile)
		}
		cfg.RootCAs = pool
	}
	switch {
	case certFile == "" && keyFile == "":
	case keyFile == "":
		return nil, fmt.Errorf("%s is set but OTEL_EXPORTER_OTLP_%s_CLIENT_KEY and OTEL_EXPORTER_OTLP_CLIENT_KEY are not: set one to the PEM file of the client certificate's private key, or unset %s", certVar, s.name, certVar)
	case certFile == "":
		return nil, fmt.Errorf("%s is set but OTEL_EXPORTER_OTLP_%s_CLIENT_CERTIFICATE and OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE are not: set one to the PEM file of the client certificate, or unset %s", keyVar, s.name, keyVar)
	default:
		certPEM, err := os.ReadFile(certFile)
		if err != nil {
			return nil, fmt.Errorf("%s: cannot read the client certificate: %w: set it to a readable PEM file", certVar, err)
		}
		keyPEM, err := os.ReadFile(keyFile)
		if err != nil {
			return nil, fmt.Errorf("%s: cannot read the client key: %w: set it to a readable PEM file", keyVar, err)
		}
		pair, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			return nil, fmt.Errorf("%s (%s) and %s (%s) are not a PEM certificate and its private key: %w", certVar, certFile, keyVar, keyFile, err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

// httpClient returns the client that sends to e. It is shared, unless e
// has its own TLS configuration. Such an e gets a transport of its own. It
// is a copy of the default one, with proxies from the environment and
// keep-alives.
func (e *endpoint) httpClient(shared *http.Client) *http.Client {
	if e.tls == nil {
		return shared
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = e.tls
	return &http.Client{Transport: t}
}
