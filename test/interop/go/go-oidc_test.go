package interop

// Tessera's OpenID Connect provider as a Go relying party written for Keycloak sees it: discovery,
// ID token verification and userinfo by github.com/coreos/go-oidc/v3, the grants by
// golang.org/x/oauth2 (its defaults, e.g. client authentication auto-detected, Basic first), the
// user's browser played over HTTP on the hosted pages (hosted-pages_test.go).

import (
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// The realm's defaults the wrapper leaves as they are (spec 2.1): access tokens live 300 s.
const accessTokenLifespan = 300 * time.Second

// discover loads the settings and discovers the provider; the context it returns carries the
// traced HTTP client (wire-trace_test.go) for every call of the libraries.
func discover(t *testing.T) (settings, *oidc.Provider, context.Context) {
	t.Helper()
	s := load(t)
	ctx := traced(t)
	provider, err := oidc.NewProvider(ctx, s.issuer)
	if err != nil {
		t.Fatalf("discovery: %v", err)
	}
	return s, provider, ctx
}

// retrieveError asserts that err is the typed error x/oauth2 returns for an OAuth error response
// (RFC 6749 section 5.2), with that error code and HTTP status.
func retrieveError(t *testing.T, what string, err error, code string, status int) {
	t.Helper()
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) {
		t.Fatalf("%s: want *oauth2.RetrieveError %q, got %T %v", what, code, err, err)
	}
	if re.ErrorCode != code || re.Response.StatusCode != status {
		t.Fatalf("%s: want %d %q, got %d %q (%s)", what, status, code, re.Response.StatusCode, re.ErrorCode, re.Body)
	}
}

// expiresIn asserts a token's expiry is the lifespan from now (a few seconds' room for the run).
func expiresIn(t *testing.T, what string, expiry time.Time, lifespan time.Duration) {
	t.Helper()
	left := time.Until(expiry)
	if left > lifespan || left < lifespan-10*time.Second {
		t.Fatalf("%s: expires in %v, want about %v", what, left, lifespan)
	}
}

// OIDC Discovery 1.0 section 4.3: the issuer in the document must be the one the RP was configured
// with, exactly; go-oidc refuses the provider otherwise.
func TestDiscovery(t *testing.T) {
	s, provider, ctx := discover(t)
	ep := provider.Endpoint()
	base := s.issuer + "/protocol/openid-connect"
	if ep.AuthURL != base+"/auth" || ep.TokenURL != base+"/token" || ep.DeviceAuthURL != base+"/auth/device" {
		t.Fatalf("endpoints: %+v", ep)
	}
	if provider.UserInfoEndpoint() != base+"/userinfo" {
		t.Fatalf("userinfo endpoint: %q", provider.UserInfoEndpoint())
	}
	var meta struct {
		Issuer               string   `json:"issuer"`
		CodeChallengeMethods []string `json:"code_challenge_methods_supported"`
		SigningAlgs          []string `json:"id_token_signing_alg_values_supported"`
		IssParameter         bool     `json:"authorization_response_iss_parameter_supported"`
	}
	if err := provider.Claims(&meta); err != nil {
		t.Fatal(err)
	}
	if meta.Issuer != s.issuer || !slices.Equal(meta.CodeChallengeMethods, []string{"S256"}) ||
		!slices.Contains(meta.SigningAlgs, oidc.RS256) || !meta.IssParameter {
		t.Fatalf("metadata: %+v", meta)
	}

	// The check is live: the same issuer with a trailing slash is a different issuer.
	_, err := oidc.NewProvider(ctx, s.issuer+"/")
	var mismatch *oidc.IssuerMismatchError
	if !errors.As(err, &mismatch) || mismatch.Discovered != s.issuer {
		t.Fatalf("want *oidc.IssuerMismatchError discovering %q, got %T %v", s.issuer, err, err)
	}
}

// authorize runs the front channel of the code flow (OIDC Core 1.0 section 3.1.2) in b: the
// authorization request with state, nonce and a PKCE S256 challenge (RFC 7636 section 4.3),
// the login form when b has no SSO session yet, and the redirect back, whose state and iss
// (RFC 9207 section 2) are checked as an RP must. It returns the code.
func authorize(t *testing.T, s settings, cfg *oauth2.Config, b *browser, state, nonce, verifier string) string {
	t.Helper()
	res, err := b.get(cfg.AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier)))
	if err != nil {
		t.Fatal(err)
	}
	if res.status == http.StatusOK {
		if res, err = b.signIn(res, s.username, s.password); err != nil {
			t.Fatal(err)
		}
	}
	if res.status != http.StatusFound {
		t.Fatalf("want the redirect back to the client, got %d: %.400s", res.status, res.body)
	}
	back, err := url.Parse(res.location)
	if err != nil {
		t.Fatal(err)
	}
	q := back.Query()
	if got := back.Scheme + "://" + back.Host + back.Path; got != s.redirectURI {
		t.Fatalf("redirected to %q, want %q", got, s.redirectURI)
	}
	if q.Get("state") != state || q.Get("iss") != s.issuer || q.Get("error") != "" {
		t.Fatalf("redirect back: %s", res.location)
	}
	code := q.Get("code")
	if code == "" {
		t.Fatalf("no code: %s", res.location)
	}
	return code
}

// verifyIDToken verifies an ID token as go-oidc does (signature against the JWKS, iss, aud, exp),
// then what the RP must check itself: the nonce (OIDC Core 1.0 section 3.1.3.7 step 11) and the
// access token's at_hash (section 3.1.3.8).
func verifyIDToken(t *testing.T, ctx context.Context, provider *oidc.Provider, clientID, raw, nonce, accessToken string) *oidc.IDToken {
	t.Helper()
	idToken, err := provider.Verifier(&oidc.Config{ClientID: clientID}).Verify(ctx, raw)
	if err != nil {
		t.Fatalf("ID token: %v", err)
	}
	if idToken.Nonce != nonce {
		t.Fatalf("nonce %q, want %q", idToken.Nonce, nonce)
	}
	if err := idToken.VerifyAccessToken(accessToken); err != nil {
		t.Fatalf("at_hash: %v", err)
	}
	// The check is live: another access token does not match the hash.
	if err := idToken.VerifyAccessToken(accessToken + "x"); err == nil {
		t.Fatal("at_hash matched a different access token")
	}
	return idToken
}

// sameUser checks a token response that carries no nonce to compare (a refresh, the device flow):
// its ID token verifies for the client and names the user, its at_hash is that of the response's
// access token (OIDC Core 1.0 section 3.1.3.8), and userinfo answers for the same user.
func sameUser(t *testing.T, ctx context.Context, provider *oidc.Provider, clientID string, tok *oauth2.Token, userID, what string) {
	t.Helper()
	raw, _ := tok.Extra("id_token").(string)
	idToken, err := provider.Verifier(&oidc.Config{ClientID: clientID}).Verify(ctx, raw)
	if err != nil {
		t.Fatalf("%s, ID token: %v", what, err)
	}
	if idToken.Subject != userID || idToken.VerifyAccessToken(tok.AccessToken) != nil {
		t.Fatalf("%s, ID token: sub %q at_hash %q", what, idToken.Subject, idToken.AccessTokenHash)
	}
	if info, err := provider.UserInfo(ctx, oauth2.StaticTokenSource(tok)); err != nil || info.Subject != userID {
		t.Fatalf("%s, userinfo: %v %+v", what, err, info)
	}
}

func TestAuthorizationCodeFlow(t *testing.T) {
	s, provider, ctx := discover(t)
	cfg := &oauth2.Config{
		ClientID: s.clientID, ClientSecret: s.clientSecret, Endpoint: provider.Endpoint(),
		RedirectURL: s.redirectURI, Scopes: []string{oidc.ScopeOpenID, "profile", "email"},
	}
	b := newBrowser()
	state, nonce, verifier := rand.Text(), rand.Text(), oauth2.GenerateVerifier()
	code := authorize(t, s, cfg, b, state, nonce, verifier)

	tok, err := cfg.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatalf("code exchange: %v", err)
	}
	if tok.TokenType != "Bearer" || tok.RefreshToken == "" {
		t.Fatalf("token response: type %q, refresh token %t", tok.TokenType, tok.RefreshToken != "")
	}
	expiresIn(t, "access token", tok.Expiry, accessTokenLifespan)
	raw, _ := tok.Extra("id_token").(string)
	idToken := verifyIDToken(t, ctx, provider, s.clientID, raw, nonce, tok.AccessToken)
	if idToken.Issuer != s.issuer || idToken.Subject != s.userID || !slices.Equal(idToken.Audience, []string{s.clientID}) {
		t.Fatalf("ID token: iss %q sub %q aud %q", idToken.Issuer, idToken.Subject, idToken.Audience)
	}
	var claims struct {
		AuthorizedParty   string `json:"azp"`
		PreferredUsername string `json:"preferred_username"`
		Email             string `json:"email"`
		EmailVerified     bool   `json:"email_verified"`
	}
	if err := idToken.Claims(&claims); err != nil {
		t.Fatal(err)
	}
	if claims.AuthorizedParty != s.clientID || claims.PreferredUsername != s.username || claims.Email != s.email || claims.EmailVerified {
		t.Fatalf("ID token claims: %+v", claims)
	}

	// Userinfo (OIDC Core 1.0 section 5.3) with the access token as a bearer token.
	info, err := provider.UserInfo(ctx, oauth2.StaticTokenSource(tok))
	if err != nil {
		t.Fatalf("userinfo: %v", err)
	}
	var infoClaims struct {
		PreferredUsername string `json:"preferred_username"`
	}
	if err := info.Claims(&infoClaims); err != nil {
		t.Fatal(err)
	}
	if info.Subject != s.userID || info.Email != s.email || info.EmailVerified || infoClaims.PreferredUsername != s.username {
		t.Fatalf("userinfo: %+v %+v", info, infoClaims)
	}

	// Refresh (RFC 6749 section 6) as an app does: the token source renews a token it sees expired.
	expired := *tok
	expired.Expiry = time.Now().Add(-time.Minute)
	fresh, err := cfg.TokenSource(ctx, &expired).Token()
	if err != nil {
		t.Fatalf("refresh: %v", err)
	}
	if fresh.AccessToken == tok.AccessToken || fresh.RefreshToken == "" || fresh.TokenType != "Bearer" {
		t.Fatalf("refreshed token: %+v", fresh)
	}
	expiresIn(t, "refreshed access token", fresh.Expiry, accessTokenLifespan)
	// The refresh response's ID token (OIDC Core 1.0 section 12.2): same subject, and its at_hash
	// is that of the new access token.
	sameUser(t, ctx, provider, s.clientID, fresh, s.userID, "refreshed tokens")

	// A code is redeemed once (RFC 6749 section 4.1.2): the second exchange is invalid_grant, and
	// the tokens issued from the code are revoked (the section's SHOULD), the refreshed ones too.
	_, err = cfg.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	retrieveError(t, "reused code", err, "invalid_grant", http.StatusBadRequest)
	fresh.Expiry = time.Now().Add(-time.Minute)
	_, err = cfg.TokenSource(ctx, fresh).Token()
	retrieveError(t, "refresh after the code's reuse", err, "invalid_grant", http.StatusBadRequest)

	// An app configured with a wrong secret (RFC 6749 section 5.2): invalid_client, with 401 as
	// the section requires when the client tried HTTP Basic (x/oauth2 tries it first, then the
	// form). The code comes from the SSO session, without the login form.
	state, nonce, verifier = rand.Text(), rand.Text(), oauth2.GenerateVerifier()
	code = authorize(t, s, cfg, b, state, nonce, verifier)
	wrong := &oauth2.Config{
		ClientID: s.clientID, ClientSecret: s.clientSecret + "-wrong", Endpoint: provider.Endpoint(),
		RedirectURL: s.redirectURI, Scopes: cfg.Scopes,
	}
	_, err = wrong.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	retrieveError(t, "wrong client secret", err, "invalid_client", http.StatusUnauthorized)
}

func TestClientCredentials(t *testing.T) {
	s, provider, ctx := discover(t)
	cc := &clientcredentials.Config{ClientID: s.clientID, ClientSecret: s.clientSecret, TokenURL: provider.Endpoint().TokenURL}
	tok, err := cc.Token(ctx)
	if err != nil {
		t.Fatalf("client_credentials: %v", err)
	}
	// RFC 6749 section 4.4.3: no refresh token for this grant.
	if tok.TokenType != "Bearer" || tok.RefreshToken != "" || tok.AccessToken == "" {
		t.Fatalf("token response: %+v", tok)
	}
	expiresIn(t, "access token", tok.Expiry, accessTokenLifespan)
	// The access token is a JWT signed with a key of the realm's JWKS (RFC 9068 section 2), so
	// go-oidc's verifier (signature, iss, exp) accepts it; azp names the client.
	at, err := provider.Verifier(&oidc.Config{SkipClientIDCheck: true}).Verify(ctx, tok.AccessToken)
	if err != nil {
		t.Fatalf("access token: %v", err)
	}
	var claims struct {
		AuthorizedParty string `json:"azp"`
	}
	if err := at.Claims(&claims); err != nil || claims.AuthorizedParty != s.clientID || at.Issuer != s.issuer {
		t.Fatalf("access token claims: %v iss %q azp %q", err, at.Issuer, claims.AuthorizedParty)
	}

	wrong := &clientcredentials.Config{ClientID: s.clientID, ClientSecret: "not-the-secret", TokenURL: cc.TokenURL}
	_, err = wrong.Token(ctx)
	retrieveError(t, "wrong client secret", err, "invalid_client", http.StatusUnauthorized)
}

// The device authorization grant (RFC 8628): the device asks for codes, the user approves (or
// denies) on the verification page while the device polls, as x/oauth2 does it (interval 5 s,
// slow_down honoured).
func TestDeviceFlow(t *testing.T) {
	s, provider, ctx := discover(t)
	cfg := &oauth2.Config{ClientID: s.deviceClientID, Endpoint: provider.Endpoint(), Scopes: []string{oidc.ScopeOpenID, "profile", "email"}}
	userCode := regexp.MustCompile(`^[B-Z]{4}-[B-Z]{4}$`)

	start := func(t *testing.T) *oauth2.DeviceAuthResponse {
		da, err := cfg.DeviceAuth(ctx)
		if err != nil {
			t.Fatalf("device authorization: %v", err)
		}
		// RFC 8628 section 3.2.
		if !userCode.MatchString(da.UserCode) || da.VerificationURI != s.issuer+"/device" ||
			da.VerificationURIComplete != s.issuer+"/device?user_code="+da.UserCode || da.Interval != 5 || da.DeviceCode == "" {
			t.Fatalf("device authorization response: %+v", da)
		}
		expiresIn(t, "device code", da.Expiry, 600*time.Second)
		return da
	}
	poll := func(t *testing.T, da *oauth2.DeviceAuthResponse) (*oauth2.Token, error) {
		ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		return cfg.DeviceAccessToken(ctx, da)
	}

	// A device authorization the user decides on the verification page (in a goroutine, as the
	// user's browser does) while the device polls; the poll's outcome.
	decided := func(t *testing.T, decide func(uri, username, password string) error) (*oauth2.Token, error) {
		da := start(t)
		decision := make(chan error, 1)
		go func() { decision <- decide(da.VerificationURIComplete, s.username, s.password) }()
		tok, err := poll(t, da)
		if err := <-decision; err != nil {
			t.Fatalf("the user's decision: %v", err)
		}
		return tok, err
	}

	t.Run("approved", func(t *testing.T) {
		t.Parallel()
		tok, err := decided(t, approveDevice)
		if err != nil {
			t.Fatalf("device access token: %v", err)
		}
		if tok.TokenType != "Bearer" || tok.RefreshToken == "" {
			t.Fatalf("token response: %+v", tok)
		}
		sameUser(t, ctx, provider, s.deviceClientID, tok, s.userID, "device tokens")
	})

	// RFC 8628 section 3.5: the user said no, the poll ends with access_denied.
	t.Run("denied", func(t *testing.T) {
		t.Parallel()
		_, err := decided(t, denyDevice)
		retrieveError(t, "denied device", err, "access_denied", http.StatusBadRequest)
	})
}
