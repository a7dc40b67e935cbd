package otlp

import (
	"crypto/tls"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// signal is one kind of telemetry an exporter sends: traces or metrics.
type signal struct {
	name string // TRACES, METRICS: the infix of the signal's variables
	path string // appended to OTEL_EXPORTER_OTLP_ENDPOINT
	kind string // OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER
}

var (
	traces  = signal{"TRACES", "/v1/traces", "OTEL_TRACES_EXPORTER"}
	metrics = signal{"METRICS", "/v1/metrics", "OTEL_METRICS_EXPORTER"}
)

// defaultTimeout is an export's time limit when OTEL_EXPORTER_OTLP_TIMEOUT
// is unset (the specification's 10s).
const defaultTimeout = 10 * time.Second

// endpoint is where and how one signal is sent. It follows the
// specification's OTEL_EXPORTER_OTLP_* variables. The signal's own win
// over the general ones.
type endpoint struct {
	url     string
	headers map[string]string
	timeout time.Duration
	gzip    bool
	tls     *tls.Config // nil: the system's roots, no client certificate
}

// get returns the signal's variable OTEL_EXPORTER_OTLP_<SIGNAL>_<key>, or
// else OTEL_EXPORTER_OTLP_<key>.
func (s signal) get(key string) string {
	if v := strings.TrimSpace(os.Getenv("OTEL_EXPORTER_OTLP_" + s.name + "_" + key)); v != "" {
		return v
	}
	return strings.TrimSpace(os.Getenv("OTEL_EXPORTER_OTLP_" + key))
}

// configured reports whether the environment names an endpoint for s. It
// must not turn it off (OTEL_<SIGNAL>_EXPORTER=none).
func (s signal) configured() bool {
	if strings.EqualFold(strings.TrimSpace(os.Getenv(s.kind)), "none") {
		return false
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_"+s.name+"_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != ""
}

// endpoint reads s's configuration from the environment. Errors name the
// variable and the fix.
func (s signal) endpoint() (*endpoint, error) {
	e := &endpoint{timeout: defaultTimeout, headers: map[string]string{}}
	if v := strings.TrimSpace(os.Getenv("OTEL_EXPORTER_OTLP_" + s.name + "_ENDPOINT")); v != "" {
		e.url = v // the signal's endpoint is used as given
	} else {
		e.url = strings.TrimRight(strings.TrimSpace(os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT")), "/") + s.path
	}
	u, err := url.Parse(e.url)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the OTLP %s endpoint %q is not an http:// or https:// URL: set OTEL_EXPORTER_OTLP_ENDPOINT to one, such as http://localhost:4318", strings.ToLower(s.name), e.url)
	}
	if u.Scheme == "https" { // the TLS variables are for a secure connection only
		if e.tls, err = s.tlsConfig(); err != nil {
			return nil, err
		}
	}
	switch p := s.get("PROTOCOL"); p {
	case "", "http/protobuf":
	default:
		return nil, fmt.Errorf("OTLP protocol %q is not supported: toolhost sends http/protobuf only; unset OTEL_EXPORTER_OTLP_PROTOCOL (and OTEL_EXPORTER_OTLP_%s_PROTOCOL) or set it to http/protobuf, with the collector's OTLP/HTTP port (4318)", p, s.name)
	}
	switch c := strings.ToLower(s.get("COMPRESSION")); c {
	case "", "none":
	case "gzip":
		e.gzip = true
	default:
		return nil, fmt.Errorf("OTLP compression %q is not supported: set OTEL_EXPORTER_OTLP_COMPRESSION to gzip or none", c)
	}
	if v := s.get("TIMEOUT"); v != "" {
		ms, err := strconv.Atoi(v)
		if err != nil || ms < 0 {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_TIMEOUT %q is not a number of milliseconds: set it to one, such as 10000", v)
		}
		if ms > 0 {
			e.timeout = time.Duration(ms) * time.Millisecond
		}
	}
	for _, key := range []string{"OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_" + s.name + "_HEADERS"} {
		if err := parseHeaders(os.Getenv(key), e.headers); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
	}
	return e, nil
}

// parseHeaders adds the headers of a W3C-baggage-style list to h. The
// list is "key1=value1,key2=value2" with percent-encoded values.
func parseHeaders(list string, h map[string]string) error {
	for i, item := range strings.Split(list, ",") {
		if strings.TrimSpace(item) == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" { // the item is not quoted: it may hold a token
			return fmt.Errorf("item %d is not key=value: write the headers as key1=value1,key2=value2", i+1)
		}
		dv, err := url.PathUnescape(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("the value of %q is not percent-encoded: encode it (%%20 for a space)", k)
		}
		h[k] = dv
	}
	return nil
}
