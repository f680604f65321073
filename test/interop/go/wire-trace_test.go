package interop

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// traced returns the test's context carrying an HTTP client that go-oidc and x/oauth2 both use
// (they read the same context key, oauth2.HTTPClient) and that records each exchange with Tessera:
// method, URL, the client authentication scheme, the form's field names, status and body. The record
// is printed when the test fails, so a failure in CI says what went over the wire, and always with
// TESSERA_INTEROP_TRACE=1.
func traced(t *testing.T) context.Context {
	t.Helper()
	tr := &wireTrace{next: http.DefaultTransport}
	t.Cleanup(func() {
		if t.Failed() || os.Getenv("TESSERA_INTEROP_TRACE") == "1" {
			t.Logf("wire trace:\n%s", tr.String())
		}
	})
	return context.WithValue(t.Context(), oauth2.HTTPClient, &http.Client{Transport: tr, Timeout: 30 * time.Second})
}

type wireTrace struct {
	next http.RoundTripper
	mu   sync.Mutex
	log  strings.Builder
}

func (w *wireTrace) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.log.String()
}

func (w *wireTrace) RoundTrip(req *http.Request) (*http.Response, error) {
	line := fmt.Sprintf("> %s %s", req.Method, req.URL)
	if auth := req.Header.Get("Authorization"); auth != "" {
		line += " (Authorization: " + strings.SplitN(auth, " ", 2)[0] + " ...)"
	}
	if req.Body != nil && req.GetBody != nil {
		body, _ := req.GetBody()
		raw, _ := io.ReadAll(body)
		if form, err := url.ParseQuery(string(raw)); err == nil {
			names := make([]string, 0, len(form))
			for k := range form {
				names = append(names, k)
			}
			sort.Strings(names)
			line += fmt.Sprintf(" form fields %v", names)
		}
	}
	res, err := w.next.RoundTrip(req)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.log.WriteString(line + "\n")
	if err != nil {
		fmt.Fprintf(&w.log, "< error %v\n", err)
		return res, err
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(raw))
	fmt.Fprintf(&w.log, "< %d %s %.300s\n", res.StatusCode, res.Header.Get("Content-Type"), raw)
	return res, nil
}
