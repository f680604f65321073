package interop

// private_key_jwt client authentication (RFC 7523 section 2.2, OIDC Core 1.0 section 9) and
// pushed authorization requests (RFC 9126) as a Go app does them: x/oauth2 has neither, so the
// app signs its client assertion with github.com/go-jose/go-jose/v4 (go-oidc's JOSE library) and
// hands it to x/oauth2 as extra form parameters (clientcredentials.Config.EndpointParams,
// oauth2.SetAuthURLParam) with AuthStyleInParams, and posts the pushed request with net/http.

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

const assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// assertion signs a client assertion (RFC 7523 section 3): iss = sub = the client, aud the
// endpoint it is sent to, a fresh jti and a 60 s life, ES256 with the registered key (its kid in
// the header, as go-jose puts it from the JWK).
func assertion(t *testing.T, s settings, audience string) string {
	t.Helper()
	var key jose.JSONWebKey
	if err := json.Unmarshal([]byte(s.jwtPrivateJWK), &key); err != nil {
		t.Fatalf("TESSERA_INTEROP_JWT_PRIVATE_JWK: %v", err)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	raw, err := jwt.Signed(signer).Claims(jwt.Claims{
		Issuer: s.jwtClientID, Subject: s.jwtClientID, Audience: jwt.Audience{audience}, ID: rand.Text(),
		IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(60 * time.Second)),
	}).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestPrivateKeyJWTClientCredentials(t *testing.T) {
	s, provider, ctx := discover(t)
	tokenURL := provider.Endpoint().TokenURL
	cc := &clientcredentials.Config{
		ClientID: s.jwtClientID, TokenURL: tokenURL, AuthStyle: oauth2.AuthStyleInParams,
		EndpointParams: url.Values{"client_assertion_type": {assertionType}, "client_assertion": {assertion(t, s, tokenURL)}},
	}
	tok, err := cc.Token(ctx)
	if err != nil {
		t.Fatalf("client_credentials with private_key_jwt: %v", err)
	}
	if tok.TokenType != "Bearer" || tok.RefreshToken != "" || tok.AccessToken == "" {
		t.Fatalf("token response: %+v", tok)
	}
	expiresIn(t, "access token", tok.Expiry, accessTokenLifespan)
	at, err := provider.Verifier(&oidc.Config{SkipClientIDCheck: true}).Verify(ctx, tok.AccessToken)
	if err != nil {
		t.Fatalf("access token: %v", err)
	}
	var claims struct {
		AuthorizedParty string `json:"azp"`
	}
	if err := at.Claims(&claims); err != nil || claims.AuthorizedParty != s.jwtClientID {
		t.Fatalf("access token claims: %v azp %q", err, claims.AuthorizedParty)
	}

	// The same config asks again with the same assertion, as an app that built EndpointParams
	// once would: a replayed jti (RFC 7523 section 3 item 7) is invalid_client.
	_, err = cc.Token(ctx)
	retrieveError(t, "replayed assertion", err, "invalid_client", http.StatusUnauthorized)

	// An assertion for another audience (section 3 item 3) is refused the same way.
	cc.EndpointParams.Set("client_assertion", assertion(t, s, "https://elsewhere.example/token"))
	_, err = cc.Token(ctx)
	retrieveError(t, "wrong audience", err, "invalid_client", http.StatusUnauthorized)
}

// pushAuthorization posts the authorization request's parameters to the PAR endpoint (RFC 9126
// section 2.1) with the client authenticated by assertion, through the context's traced client.
func pushAuthorization(t *testing.T, ctx context.Context, parURL string, form url.Values) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, parURL, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := ctx.Value(oauth2.HTTPClient).(*http.Client).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatalf("PAR response: %v", err)
	}
	return res.StatusCode, body
}

func TestPushedAuthorizationWithPrivateKeyJWT(t *testing.T) {
	s, provider, ctx := discover(t)
	var meta struct {
		PAR        string   `json:"pushed_authorization_request_endpoint"`
		RequirePAR bool     `json:"require_pushed_authorization_requests"`
		AuthMethod []string `json:"token_endpoint_auth_methods_supported"`
	}
	if err := provider.Claims(&meta); err != nil {
		t.Fatal(err)
	}
	if meta.PAR != s.issuer+"/protocol/openid-connect/ext/par/request" || meta.RequirePAR || !slices.Contains(meta.AuthMethod, "private_key_jwt") {
		t.Fatalf("metadata: %+v", meta)
	}
	cfg := &oauth2.Config{
		ClientID: s.jwtClientID, Endpoint: provider.Endpoint(), RedirectURL: s.redirectURI,
		Scopes: []string{oidc.ScopeOpenID, "profile", "email"},
	}
	cfg.Endpoint.AuthStyle = oauth2.AuthStyleInParams
	state, nonce, verifier := rand.Text(), rand.Text(), oauth2.GenerateVerifier()
	form := url.Values{
		"response_type": {"code"}, "client_id": {s.jwtClientID}, "redirect_uri": {s.redirectURI},
		"scope": {strings.Join(cfg.Scopes, " ")}, "state": {state}, "nonce": {nonce},
		"code_challenge": {oauth2.S256ChallengeFromVerifier(verifier)}, "code_challenge_method": {"S256"},
		"client_assertion_type": {assertionType},
	}
	// Without client authentication the push is refused as the token endpoint refuses it.
	if status, body := pushAuthorization(t, ctx, meta.PAR, form); status != http.StatusUnauthorized || body["error"] != "invalid_client" {
		t.Fatalf("unauthenticated push: %d %v", status, body)
	}
	form.Set("client_assertion", assertion(t, s, meta.PAR))
	status, body := pushAuthorization(t, ctx, meta.PAR, form)
	requestURI, _ := body["request_uri"].(string)
	if status != http.StatusCreated || !strings.HasPrefix(requestURI, "urn:ietf:params:oauth:request_uri:") || body["expires_in"] != float64(60) {
		t.Fatalf("push: %d %v", status, body)
	}

	// Section 4: the browser goes to the authorization endpoint with client_id and request_uri only.
	authURL := cfg.Endpoint.AuthURL + "?" + url.Values{"client_id": {s.jwtClientID}, "request_uri": {requestURI}}.Encode()
	b := newBrowser()
	res, err := b.get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	if res, err = b.signIn(res, s.username, s.password); err != nil {
		t.Fatal(err)
	}
	if res.status != http.StatusFound {
		t.Fatalf("want the redirect back to the client, got %d: %.400s", res.status, res.body)
	}
	back, err := url.Parse(res.location)
	if err != nil {
		t.Fatal(err)
	}
	q := back.Query()
	if back.Scheme+"://"+back.Host+back.Path != s.redirectURI || q.Get("state") != state || q.Get("iss") != s.issuer || q.Get("code") == "" {
		t.Fatalf("redirect back: %s", res.location)
	}

	tok, err := cfg.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(verifier),
		oauth2.SetAuthURLParam("client_assertion_type", assertionType),
		oauth2.SetAuthURLParam("client_assertion", assertion(t, s, cfg.Endpoint.TokenURL)))
	if err != nil {
		t.Fatalf("code exchange with private_key_jwt: %v", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	idToken := verifyIDToken(t, ctx, provider, s.jwtClientID, raw, nonce, tok.AccessToken)
	if idToken.Subject != s.userID {
		t.Fatalf("ID token sub %q, want %q", idToken.Subject, s.userID)
	}

	// Section 7.3: the request_uri was used; a second visit is the error page.
	again, err := newBrowser().get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	if again.status != http.StatusBadRequest || !strings.Contains(again.body, "The request_uri is unknown, expired or already used.") {
		t.Fatalf("reused request_uri: %d %.400s", again.status, again.body)
	}
}
