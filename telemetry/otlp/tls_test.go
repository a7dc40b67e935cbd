package otlp_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolhost/toolhost/telemetry/otlp"
)

// tlsVars are the variables these tests set; each case sets all of them.
var tlsVars = []string{
	"OTEL_EXPORTER_OTLP_CERTIFICATE", "OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE", "OTEL_EXPORTER_OTLP_METRICS_CERTIFICATE",
	"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE", "OTEL_EXPORTER_OTLP_TRACES_CLIENT_CERTIFICATE",
	"OTEL_EXPORTER_OTLP_CLIENT_KEY", "OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY",
	"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "OTEL_EXPORTER_OTLP_TIMEOUT",
}

// writePEM writes one PEM block of the given type to a file in dir.
func writePEM(t *testing.T, dir, name, typ string, der []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// selfSigned makes a self-signed CA certificate, usable for client
// authentication too, and writes it and its key as PEM files in dir.
func selfSigned(t *testing.T, dir, name string) (cert *x509.Certificate, certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	if cert, err = x509.ParseCertificate(der); err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return cert, writePEM(t, dir, name+".pem", "CERTIFICATE", der), writePEM(t, dir, name+"-key.pem", "PRIVATE KEY", keyDER)
}

// TestCollectorTLS: an https:// collector whose certificate a private CA
// signed is reached when OTEL_EXPORTER_OTLP_CERTIFICATE (or the signal's
// own _TRACES_CERTIFICATE, which wins) names that CA's PEM file, and one
// that asks for a client certificate gets the one _CLIENT_CERTIFICATE and
// _CLIENT_KEY name; otherwise the export fails with a warning naming the
// variable to set, and never the call or shutdown.
func TestCollectorTLS(t *testing.T) {
	dir := t.TempDir()
	client, clientCert, clientKey := selfSigned(t, dir, "client")
	_, otherCA, _ := selfSigned(t, dir, "other-ca")
	clientCAs := x509.NewCertPool()
	clientCAs.AddCert(client)

	for _, tc := range []struct {
		name       string
		mutual     bool // the collector asks for a client certificate
		env        map[string]string
		wantSpans  bool
		wantWarned string // in the warning, when the spans do not arrive
	}{
		{"no CA: the system's roots", false, nil, false,
			"x509: certificate signed by unknown authority (set OTEL_EXPORTER_OTLP_CERTIFICATE to the PEM file of the CA that signed the collector's certificate)"},
		{"general CA", false, map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": "{ca}"}, true, ""},
		{"the signal's CA wins", false, map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": otherCA, "OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE": "{ca}"}, true, ""},
		{"another CA", false, map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": otherCA}, false, "x509: certificate signed by unknown authority"},
		{"mTLS", true, map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": "{ca}",
			"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE": clientCert, "OTEL_EXPORTER_OTLP_CLIENT_KEY": clientKey}, true, ""},
		{"mTLS per signal", true, map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": "{ca}",
			"OTEL_EXPORTER_OTLP_TRACES_CLIENT_CERTIFICATE": clientCert, "OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY": clientKey}, true, ""},
		{"mTLS without a client certificate", true, map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": "{ca}"}, false, "certificate required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var posts atomic.Int32
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/v1/traces" {
					posts.Add(1)
				}
			}))
			srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes
			if tc.mutual {
				srv.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: clientCAs}
			}
			srv.StartTLS()
			defer srv.Close()
			ca := writePEM(t, t.TempDir(), "ca.pem", "CERTIFICATE", srv.Certificate().Raw)
			for _, k := range tlsVars {
				t.Setenv(k, strings.ReplaceAll(tc.env[k], "{ca}", ca))
			}
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
			t.Setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "2000")
			err, warnings, _ := oneCall(t)
			if err != nil {
				t.Errorf("shutdown error %v, want none", err)
			}
			if got := posts.Load() > 0; got != tc.wantSpans {
				t.Errorf("spans received: %v, want %v (warnings %q)", got, tc.wantSpans, warnings)
			}
			if tc.wantSpans && warnings != "" {
				t.Errorf("warnings %q, want none", warnings)
			}
			wantPrefix := "toolhost: warning: telemetry: OTLP export to " + srv.URL + "/v1/traces: "
			if !tc.wantSpans && (!strings.HasPrefix(warnings, wantPrefix) || !strings.Contains(warnings, tc.wantWarned)) {
				t.Errorf("warnings %q, want one starting %q and saying %q", warnings, wantPrefix, tc.wantWarned)
			}
		})
	}
}

// TestSetupTLSErrors: a TLS variable naming a file that cannot be read, or
// that holds no certificate, or half of a client certificate's pair, is a
// Setup error naming the variable, the file and the fix (the CLI then
// warns and runs without telemetry); a key's contents are never quoted.
// The variables are not read for an http:// endpoint.
func TestSetupTLSErrors(t *testing.T) {
	dir := t.TempDir()
	_, cert, key := selfSigned(t, dir, "c")
	missing := filepath.Join(dir, "missing.pem")
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("s3cr3t, not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		endpoint string
		env      map[string]string
		want     string // "" for no error
	}{
		{"CA missing", "https://127.0.0.1:1", map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": missing},
			"telemetry: OTEL_EXPORTER_OTLP_CERTIFICATE: cannot read the collector's CA certificate: open " + missing + ": no such file or directory: set it to a readable PEM file"},
		{"metrics CA not PEM", "https://127.0.0.1:1", map[string]string{"OTEL_EXPORTER_OTLP_METRICS_CERTIFICATE": notPEM},
			"telemetry: OTEL_EXPORTER_OTLP_METRICS_CERTIFICATE: " + notPEM + " holds no PEM certificate: set it to the PEM file (-----BEGIN CERTIFICATE-----) of the CA that signed the collector's certificate"},
		{"CA is a key", "https://127.0.0.1:1", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE": key},
			"telemetry: OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE: " + key + " holds no PEM certificate: set it to the PEM file (-----BEGIN CERTIFICATE-----) of the CA that signed the collector's certificate"},
		{"client certificate without key", "https://127.0.0.1:1", map[string]string{"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE": cert},
			"telemetry: OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE is set but OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY and OTEL_EXPORTER_OTLP_CLIENT_KEY are not: set one to the PEM file of the client certificate's private key, or unset OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE"},
		{"client key without certificate", "https://127.0.0.1:1", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY": key},
			"telemetry: OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY is set but OTEL_EXPORTER_OTLP_TRACES_CLIENT_CERTIFICATE and OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE are not: set one to the PEM file of the client certificate, or unset OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY"},
		{"client key missing", "https://127.0.0.1:1", map[string]string{"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE": cert, "OTEL_EXPORTER_OTLP_CLIENT_KEY": missing},
			"telemetry: OTEL_EXPORTER_OTLP_CLIENT_KEY: cannot read the client key: open " + missing + ": no such file or directory: set it to a readable PEM file"},
		{"client pair swapped", "https://127.0.0.1:1", map[string]string{"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE": key, "OTEL_EXPORTER_OTLP_CLIENT_KEY": cert},
			"telemetry: OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE (" + key + ") and OTEL_EXPORTER_OTLP_CLIENT_KEY (" + cert + ") are not a PEM certificate and its private key: tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched"},
		{"key not PEM", "https://127.0.0.1:1", map[string]string{"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE": cert, "OTEL_EXPORTER_OTLP_CLIENT_KEY": notPEM},
			"telemetry: OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE (" + cert + ") and OTEL_EXPORTER_OTLP_CLIENT_KEY (" + notPEM + ") are not a PEM certificate and its private key: tls: failed to find any PEM data in key input"},
		{"http:// ignores them", "http://127.0.0.1:1", map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": missing}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range tlsVars {
				t.Setenv(k, tc.env[k])
			}
			t.Setenv("OTEL_EXPORTER_OTLP_METRICS_CERTIFICATE", tc.env["OTEL_EXPORTER_OTLP_METRICS_CERTIFICATE"])
			t.Setenv("OTEL_SDK_DISABLED", "")
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", tc.endpoint)
			shutdown, err := otlp.Setup(t.Context(), nil)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Setup error %v, want none", err)
				}
				if err := shutdown(t.Context()); err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Setup error:\n got %v\nwant %s", err, tc.want)
			}
			if strings.Contains(err.Error(), "s3cr3t") {
				t.Errorf("the error quotes a file's contents: %v", err)
			}
		})
	}
}
