package otlp

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// client posts OTLP/HTTP protobuf requests to one endpoint.
type client struct {
	endpoint
	hc *http.Client
}

// retryDelays are the waits before another attempt of an export the
// collector refused for now (429, 502, 503, 504). They fit within the
// timeout.
var retryDelays = []time.Duration{100 * time.Millisecond, 400 * time.Millisecond, time.Second}

// post sends body, a serialised Export*ServiceRequest. An error names the
// endpoint and the collector's status. The SDK hands it to otel's error
// handler (see [Options.Errors]).
func (c *client) post(ctx context.Context, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	if c.gzip {
		var b bytes.Buffer
		z := gzip.NewWriter(&b)
		_, _ = z.Write(body)
		_ = z.Close()
		body = b.Bytes()
	}
	for attempt := 0; ; attempt++ {
		status, err := c.send(ctx, body)
		if err == nil {
			return nil
		}
		retry := status == http.StatusTooManyRequests || status == http.StatusBadGateway ||
			status == http.StatusServiceUnavailable || status == http.StatusGatewayTimeout
		if !retry || attempt == len(retryDelays) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(retryDelays[attempt]):
		}
	}
}

// send makes one attempt, returning the HTTP status (0 without an answer).
func (c *client) send(ctx context.Context, body []byte) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("OTLP export to %s: %w", c.url, err)
	}
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	if c.gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := c.hc.Do(req)
	var unknownCA x509.UnknownAuthorityError
	if errors.As(err, &unknownCA) {
		return 0, fmt.Errorf("OTLP export to %s: %w (set OTEL_EXPORTER_OTLP_CERTIFICATE to the PEM file of the CA that signed the collector's certificate)", c.url, err)
	}
	if err != nil {
		return 0, fmt.Errorf("OTLP export to %s: %w (is the collector listening? check OTEL_EXPORTER_OTLP_ENDPOINT)", c.url, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, fmt.Errorf("OTLP export to %s: the collector answered %s", c.url, resp.Status)
	}
	return resp.StatusCode, nil
}
