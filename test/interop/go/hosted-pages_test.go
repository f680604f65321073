package interop

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// browser plays the user's browser on Tessera's hosted pages over plain HTTP: a cookie jar (the
// login transaction and SSO cookies are scoped to /realms/<realm>/) and no redirect following, so
// the redirect back to the relying party is read from its Location and never sent (nothing listens
// at the registered redirect_uri). It returns errors rather than failing a test, so the device
// flow's approval can run it on a goroutine of its own.
type browser struct {
	client *http.Client
}

type page struct {
	status   int
	url      *url.URL
	body     string
	location string
}

func newBrowser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{client: &http.Client{
		Jar:     jar,
		Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}}
}

func (b *browser) get(rawURL string) (*page, error) {
	req, err := http.NewRequest(http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, err
	}
	return b.do(req)
}

func (b *browser) post(target *url.URL, form url.Values) (*page, error) {
	req, err := http.NewRequest(http.MethodPost, target.String(), strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

func (b *browser) do(req *http.Request) (*page, error) {
	res, err := b.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	return &page{status: res.StatusCode, url: req.URL, body: string(body), location: res.Header.Get("Location")}, nil
}

var (
	formRe  = regexp.MustCompile(`(?s)<form\b([^>]*)>(.*?)</form>`)
	inputRe = regexp.MustCompile(`<input\b([^>]*)>`)
	attrRe  = func(name string) *regexp.Regexp { return regexp.MustCompile(`\b` + name + `="([^"]*)"`) }
	actionA = attrRe("action")
	nameA   = attrRe("name")
	valueA  = attrRe("value")
)

// submit posts the page's first form as a browser would: to its action (resolved against the
// page's URL), with every input it renders (the hidden tx, csrf and step among them) and `values`
// filled in or overriding.
func (b *browser) submit(p *page, values map[string]string) (*page, error) {
	m := formRe.FindStringSubmatch(p.body)
	if m == nil {
		return nil, fmt.Errorf("no form on the page (status %d): %.400s", p.status, p.body)
	}
	action := actionA.FindStringSubmatch(m[1])
	if action == nil {
		return nil, fmt.Errorf("the form has no action: %s", m[1])
	}
	target, err := p.url.Parse(html.UnescapeString(action[1]))
	if err != nil {
		return nil, err
	}
	form := url.Values{}
	for _, in := range inputRe.FindAllStringSubmatch(m[2], -1) {
		name := nameA.FindStringSubmatch(in[1])
		if name == nil {
			continue
		}
		value := ""
		if v := valueA.FindStringSubmatch(in[1]); v != nil {
			value = html.UnescapeString(v[1])
		}
		form.Set(html.UnescapeString(name[1]), value)
	}
	for k, v := range values {
		form.Set(k, v)
	}
	return b.post(target, form)
}

// field is the value of a named input of the page's first form ("" when absent).
func field(p *page, name string) string {
	m := formRe.FindStringSubmatch(p.body)
	if m == nil {
		return ""
	}
	for _, in := range inputRe.FindAllStringSubmatch(m[2], -1) {
		if n := nameA.FindStringSubmatch(in[1]); n != nil && html.UnescapeString(n[1]) == name {
			if v := valueA.FindStringSubmatch(in[1]); v != nil {
				return html.UnescapeString(v[1])
			}
			return ""
		}
	}
	return ""
}

// signIn submits the hosted login page's credentials form; it must be that form (step=login).
func (b *browser) signIn(p *page, username, password string) (*page, error) {
	if p.status != http.StatusOK || field(p, "step") != "login" {
		return nil, fmt.Errorf("expected the login page, got status %d: %.400s", p.status, p.body)
	}
	return b.submit(p, map[string]string{"username": username, "password": password})
}

// approveDevice is the user's side of RFC 8628 section 3.3: open the verification URI the device
// shows (with the user code, verification_uri_complete), sign in, and allow on the consent page.
func approveDevice(verificationURIComplete, username, password string) error {
	return decideDevice(verificationURIComplete, username, password, "approve",
		`<p id="device-result">Your device is connected to`)
}

// denyDevice is the same with "Deny" pressed on the consent page.
func denyDevice(verificationURIComplete, username, password string) error {
	return decideDevice(verificationURIComplete, username, password, "deny", `<p id="device-result">`)
}

func decideDevice(verificationURIComplete, username, password, decision, result string) error {
	b := newBrowser()
	login, err := b.get(verificationURIComplete)
	if err != nil {
		return err
	}
	consent, err := b.signIn(login, username, password)
	if err != nil {
		return err
	}
	if consent.status != http.StatusOK || field(consent, "step") != "consent" {
		return fmt.Errorf("expected the device consent page, got status %d: %.400s", consent.status, consent.body)
	}
	done, err := b.submit(consent, map[string]string{"decision": decision})
	if err != nil {
		return err
	}
	if done.status != http.StatusOK || !strings.Contains(done.body, result) {
		return fmt.Errorf("device %s: status %d: %.400s", decision, done.status, done.body)
	}
	return nil
}
