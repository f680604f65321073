// Package tessera connects the generated Connect clients (package gen/...) to a Tessera service
// process in cluster mode: the gRPC protocol over HTTP/2, with the admin API key as the bearer
// credential every service port asks for (docs/sdks.md).
package tessera

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"time"

	"connectrpc.com/connect"
	kitv1 "github.com/tessera-iam/tessera/sdk/go/gen/iam/kit/v1"
)

// HTTPClient returns a client that speaks HTTP/2 to a service: cleartext HTTP/2 with prior
// knowledge (RFC 9113 section 3.3) for http:// URLs, as the service ports serve it on a private
// network, and HTTP/2 over TLS for https:// URLs (a TLS-terminating proxy in front of them).
// gRPC needs HTTP/2 either way: Go's default client would speak HTTP/1.1 to an http:// URL.
func HTTPClient() *http.Client {
	protocols := new(http.Protocols)
	protocols.SetHTTP2(true)
	protocols.SetUnencryptedHTTP2(true)
	return &http.Client{Transport: &http.Transport{
		Protocols:           protocols,
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSClientConfig:     &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout: 10 * time.Second,
		IdleConnTimeout:     90 * time.Second,
	}}
}

// WithAPIKey sends `authorization: Bearer <key>` on every call, the credential a service port
// accepts from a first-party backend (the admin API key, TESSERA_ADMIN_API_KEY).
func WithAPIKey(key string) connect.ClientOption {
	return connect.WithInterceptors(apiKey("Bearer " + key))
}

// ClientOptions is what a client of a Tessera service takes: the gRPC protocol and the key.
func ClientOptions(key string) []connect.ClientOption {
	return []connect.ClientOption{connect.WithGRPC(), WithAPIKey(key)}
}

type apiKey string

func (k apiKey) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		req.Header().Set("Authorization", string(k))
		return next(ctx, req)
	}
}

func (k apiKey) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return func(ctx context.Context, spec connect.Spec) connect.StreamingClientConn {
		conn := next(ctx, spec)
		conn.RequestHeader().Set("Authorization", string(k))
		return conn
	}
}

func (k apiKey) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return next
}

// ErrorDetail returns the service's account of a failed call (its stable reason, the request
// field it names), carried as an iam.kit.v1.ErrorDetail in the gRPC status details, or nil.
func ErrorDetail(err error) *kitv1.ErrorDetail {
	var ce *connect.Error
	if !errors.As(err, &ce) {
		return nil
	}
	for _, d := range ce.Details() {
		if v, e := d.Value(); e == nil {
			if detail, ok := v.(*kitv1.ErrorDetail); ok {
				return detail
			}
		}
	}
	return nil
}
