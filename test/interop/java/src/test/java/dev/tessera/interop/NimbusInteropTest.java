package dev.tessera.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.oauth2.sdk.AccessTokenResponse;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationGrant;
import com.nimbusds.oauth2.sdk.AuthorizationResponse;
import com.nimbusds.oauth2.sdk.AuthorizationSuccessResponse;
import com.nimbusds.oauth2.sdk.ClientCredentialsGrant;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.GeneralException;
import com.nimbusds.oauth2.sdk.OAuth2Error;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenErrorResponse;
import com.nimbusds.oauth2.sdk.TokenIntrospectionErrorResponse;
import com.nimbusds.oauth2.sdk.TokenIntrospectionRequest;
import com.nimbusds.oauth2.sdk.TokenIntrospectionResponse;
import com.nimbusds.oauth2.sdk.TokenIntrospectionSuccessResponse;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.TokenRevocationRequest;
import com.nimbusds.oauth2.sdk.auth.ClientAuthentication;
import com.nimbusds.oauth2.sdk.auth.ClientAuthenticationMethod;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.id.Audience;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.id.Subject;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.AccessToken;
import com.nimbusds.oauth2.sdk.token.AccessTokenType;
import com.nimbusds.oauth2.sdk.token.BearerAccessToken;
import com.nimbusds.oauth2.sdk.token.RefreshToken;
import com.nimbusds.oauth2.sdk.token.Token;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.UserInfoRequest;
import com.nimbusds.openid.connect.sdk.UserInfoResponse;
import com.nimbusds.openid.connect.sdk.claims.AuthorizedParty;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.openid.connect.sdk.validators.AccessTokenValidator;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import com.nimbusds.openid.connect.sdk.validators.InvalidHashException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tessera's OpenID Connect provider as a Java relying party written for Keycloak sees it, through
 * the Nimbus OAuth 2.0 / OpenID Connect SDK's own request, response and validator classes (what
 * Spring Security's OAuth2 client uses underneath): discovery with the SDK's issuer check, the
 * code flow with PKCE S256, state and nonce, the ID token and at_hash validated by the SDK, userinfo,
 * refresh, client_credentials, RFC 7662 introspection, RFC 7009 revocation, and the SDK's parsed
 * error responses. The user's browser is played over HTTP on the hosted pages (HostedPages.java).
 * Run through test/interop/nimbus.interop.test.ts, which starts Tessera and provisions the realm.
 */
class NimbusInteropTest {
  /** The realm's default token lifespans (spec 2.1), which the wrapper leaves as they are. */
  private static final long ACCESS_TOKEN_LIFESPAN = 300;
  private static final long REFRESH_TOKEN_LIFESPAN = 1800;
  private static final Scope SCOPE = new Scope("openid", "profile", "email");

  private static Settings s;
  private static OIDCProviderMetadata metadata;
  private static ClientID clientId;
  private static ClientAuthentication basic;

  @BeforeAll
  static void discover() throws Exception {
    s = Settings.load();
    // OIDC Discovery 1.0 section 4: the SDK fetches <issuer>/.well-known/openid-configuration and
    // refuses a document whose issuer is not the one it was asked for (section 4.3).
    metadata = OIDCProviderMetadata.resolve(new Issuer(s.issuer()));
    clientId = new ClientID(s.clientId());
    // The web client authenticates with client_secret_basic (RFC 6749 section 2.3.1).
    basic = new ClientSecretBasic(clientId, new Secret(s.clientSecret()));
  }

  @Test
  void discovery() throws Exception {
    String base = s.issuer() + "/protocol/openid-connect";
    assertEquals(new Issuer(s.issuer()), metadata.getIssuer());
    assertEquals(URI.create(base + "/auth"), metadata.getAuthorizationEndpointURI());
    assertEquals(URI.create(base + "/token"), metadata.getTokenEndpointURI());
    assertEquals(URI.create(base + "/userinfo"), metadata.getUserInfoEndpointURI());
    assertEquals(URI.create(base + "/certs"), metadata.getJWKSetURI());
    assertEquals(URI.create(base + "/token/introspect"), metadata.getIntrospectionEndpointURI());
    assertEquals(URI.create(base + "/revoke"), metadata.getRevocationEndpointURI());
    assertEquals(URI.create(base + "/auth/device"), metadata.getDeviceAuthorizationEndpointURI());
    assertEquals(List.of(CodeChallengeMethod.S256), metadata.getCodeChallengeMethods());
    assertTrue(metadata.getIDTokenJWSAlgs().contains(JWSAlgorithm.RS256), () -> "ID token algs " + metadata.getIDTokenJWSAlgs());
    assertTrue(metadata.getTokenEndpointAuthMethods().contains(ClientAuthenticationMethod.CLIENT_SECRET_BASIC));
    assertTrue(metadata.getIntrospectionEndpointAuthMethods().contains(ClientAuthenticationMethod.CLIENT_SECRET_BASIC));
    assertTrue(metadata.getRevocationEndpointAuthMethods().contains(ClientAuthenticationMethod.CLIENT_SECRET_BASIC));
    // RFC 9207 section 3: the provider says it sends iss with the authorization response.
    assertTrue(metadata.supportsAuthorizationResponseIssuerParam());

    // The check is the SDK's own and it is live: the same issuer with a trailing slash is another
    // issuer. The SDK fetches <issuer>/.well-known/openid-configuration (the same document) and
    // resolve() itself throws, naming the issuer the document declares.
    GeneralException mismatch = assertThrows(GeneralException.class, () -> OIDCProviderMetadata.resolve(new Issuer(s.issuer() + "/")));
    assertEquals("The returned issuer doesn't match the expected: " + s.issuer(), mismatch.getMessage());
  }

  @Test
  void codeFlowIdTokenUserInfoAndRefresh() throws Exception {
    Login login = logIn(new HostedPages());
    OIDCTokenResponse res = login.token;
    AccessToken access = res.getOIDCTokens().getAccessToken();
    RefreshToken refresh = res.getOIDCTokens().getRefreshToken();
    assertEquals(AccessTokenType.BEARER, access.getType());
    assertInstanceOf(BearerAccessToken.class, access);
    assertEquals(ACCESS_TOKEN_LIFESPAN, access.getLifetime());
    assertEquals(REFRESH_TOKEN_LIFESPAN, ((Number) res.getCustomParameters().get("refresh_expires_in")).longValue());
    // The client's default scopes come with the requested ones, as Keycloak grants them.
    assertEquals(new Scope("openid", "profile", "email", "acr", "basic", "roles", "web-origins"), access.getScope());
    assertNotNull(refresh);

    IDTokenClaimsSet claims = validateIdToken(res.getOIDCTokens().getIDToken(), login.nonce, access);
    assertEquals(new Issuer(s.issuer()), claims.getIssuer());
    assertEquals(new Subject(s.userId()), claims.getSubject());
    assertEquals(List.of(new Audience(s.clientId())), claims.getAudience());
    assertEquals(new AuthorizedParty(s.clientId()), claims.getAuthorizedParty());
    assertEquals(login.nonce, claims.getNonce());
    assertEquals(ACCESS_TOKEN_LIFESPAN, (claims.getExpirationTime().getTime() - claims.getIssueTime().getTime()) / 1000);
    // auth_time is the sign-in on the login page, iat the code's exchange: the same second or just after.
    long signInToIssue = claims.getIssueTime().getTime() - claims.getAuthenticationTime().getTime();
    assertTrue(signInToIssue >= 0 && signInToIssue <= 10_000, () -> "auth_time " + claims.getAuthenticationTime() + ", iat " + claims.getIssueTime());
    assertEquals("ID", claims.getStringClaim("typ"));
    assertEquals(s.username(), claims.getStringClaim("preferred_username"));
    assertEquals(s.email(), claims.getStringClaim("email"));
    assertEquals(Boolean.FALSE, claims.getBooleanClaim("email_verified"));
    assertEquals("Alice Liddell", claims.getStringClaim("name"));
    assertEquals("Alice", claims.getStringClaim("given_name"));
    assertEquals("Liddell", claims.getStringClaim("family_name"));
    assertEquals(res.getCustomParameters().get("session_state"), claims.getStringClaim("sid"));

    // The validation is live: another nonce, another access token, another audience, a tampered
    // signature are each refused by the SDK.
    JWT idToken = res.getOIDCTokens().getIDToken();
    BadJWTException badNonce = assertThrows(BadJWTException.class, () -> idTokenValidator(clientId).validate(idToken, new Nonce()));
    assertTrue(badNonce.getMessage().contains("nonce"), badNonce::getMessage);
    assertThrows(InvalidHashException.class, () -> validateIdToken(idToken, login.nonce, new BearerAccessToken(access.getValue() + "x")));
    BadJWTException badAud = assertThrows(BadJWTException.class, () -> idTokenValidator(new ClientID("another-client")).validate(idToken, login.nonce));
    assertTrue(badAud.getMessage().contains("audience"), badAud::getMessage);
    String[] parts = idToken.getParsedString().split("\\.");
    JWT tampered = SignedJWT.parse(parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse());
    assertThrows(BadJWSException.class, () -> idTokenValidator(clientId).validate(tampered, login.nonce));

    // Userinfo (OIDC Core 1.0 section 5.3) with the access token as a bearer token (RFC 6750 section 2.1).
    HTTPResponse info = new UserInfoRequest(metadata.getUserInfoEndpointURI(), (BearerAccessToken) access).toHTTPRequest().send();
    UserInfoResponse userInfo = UserInfoResponse.parse(info);
    assertTrue(userInfo.indicatesSuccess(), info::getBody);
    Map<String, Object> infoClaims = new HashMap<>(userInfo.toSuccessResponse().getUserInfo().toJSONObject());
    // updated_at (OIDC Core 1.0 section 5.1, profile scope): seconds since the epoch, the user's
    // last change, which the wrapper made moments ago.
    long updatedAt = ((Number) infoClaims.remove("updated_at")).longValue();
    assertTrue(Math.abs(System.currentTimeMillis() / 1000 - updatedAt) <= 300, () -> "updated_at " + updatedAt);
    assertEquals(Map.of(
        "sub", s.userId(), "preferred_username", s.username(), "email", s.email(), "email_verified", false,
        "name", "Alice Liddell", "given_name", "Alice", "family_name", "Liddell"),
        infoClaims);

    // Refresh (RFC 6749 section 6): a new access token, the refresh token rotated, and an ID token
    // (OIDC Core 1.0 section 12.2) for the same subject whose at_hash is the new access token's.
    HTTPResponse refreshed = token(new RefreshTokenGrant(refresh));
    TokenResponse parsed = OIDCTokenResponseParser.parse(refreshed);
    assertTrue(parsed.indicatesSuccess(), refreshed::getBody);
    OIDCTokenResponse fresh = (OIDCTokenResponse) parsed.toSuccessResponse();
    AccessToken freshAccess = fresh.getOIDCTokens().getAccessToken();
    assertNotEquals(access, freshAccess);
    assertEquals(AccessTokenType.BEARER, freshAccess.getType());
    assertEquals(ACCESS_TOKEN_LIFESPAN, freshAccess.getLifetime());
    assertNotNull(fresh.getOIDCTokens().getRefreshToken());
    assertNotEquals(refresh, fresh.getOIDCTokens().getRefreshToken());
    JWT freshIdToken = fresh.getOIDCTokens().getIDToken();
    assertNotNull(freshIdToken, refreshed::getBody);
    // Section 12.2: a refreshed ID token SHOULD NOT carry a nonce, and Tessera's has none, so the
    // SDK validates it with no expected nonce (it would reject one it cannot compare).
    IDTokenClaimsSet freshClaims = validateIdToken(freshIdToken, null, freshAccess);
    assertNull(freshClaims.getNonce());
    assertEquals(new Subject(s.userId()), freshClaims.getSubject());
    assertEquals(claims.getAuthenticationTime(), freshClaims.getAuthenticationTime());
    assertThrows(InvalidHashException.class, () -> AccessTokenValidator.validate(access, JWSAlgorithm.RS256, freshClaims.getAccessTokenHash()));

    // A code is redeemed once (RFC 6749 section 4.1.2): the SDK parses the error response.
    HTTPResponse again = token(new AuthorizationCodeGrant(login.code, URI.create(s.redirectUri()), login.verifier));
    expectError(again, OAuth2Error.INVALID_GRANT, 400);
  }

  @Test
  void clientCredentials() throws Exception {
    HTTPResponse http = token(new ClientCredentialsGrant());
    TokenResponse res = TokenResponse.parse(http);
    assertTrue(res.indicatesSuccess(), http::getBody);
    AccessTokenResponse ok = res.toSuccessResponse();
    AccessToken access = ok.getTokens().getAccessToken();
    assertEquals(AccessTokenType.BEARER, access.getType());
    assertEquals(ACCESS_TOKEN_LIFESPAN, access.getLifetime());
    // RFC 6749 section 4.4.3: no refresh token for this grant.
    assertNull(ok.getTokens().getRefreshToken(), http::getBody);

    // A JWT access token signed with a key of the realm's JWKS (RFC 9068 section 2), verified by
    // Nimbus JOSE's JWT processor against the jwks_uri, iss and azp exact.
    DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.RS256,
        JWKSourceBuilder.<SecurityContext>create(metadata.getJWKSetURI().toURL()).retrying(false).build()));
    processor.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(
        new JWTClaimsSet.Builder().issuer(s.issuer()).claim("azp", s.clientId()).build(), Set.of("exp", "iat")));
    JWTClaimsSet at = processor.process(access.getValue(), null);
    assertEquals(ACCESS_TOKEN_LIFESPAN, (at.getExpirationTime().getTime() - at.getIssueTime().getTime()) / 1000);

    // A wrong secret (RFC 6749 section 5.2): 401 invalid_client, parsed by the SDK.
    ClientAuthentication wrong = new ClientSecretBasic(clientId, new Secret("not-the-secret"));
    HTTPResponse refused = new TokenRequest.Builder(metadata.getTokenEndpointURI(), wrong, new ClientCredentialsGrant())
        .build().toHTTPRequest().send();
    expectError(refused, OAuth2Error.INVALID_CLIENT, 401);
    // The client authenticated with the Authorization header, so the 401 carries the scheme's
    // challenge (section 5.2); the realm is the issuer's last path segment.
    String realmName = s.issuer().substring(s.issuer().lastIndexOf('/') + 1);
    assertEquals("Basic realm=\"" + realmName + "\"", refused.getHeaderValue("WWW-Authenticate"));
  }

  @Test
  void introspectionAndRevocation() throws Exception {
    Login login = logIn(new HostedPages());
    AccessToken access = login.token.getOIDCTokens().getAccessToken();
    RefreshToken refresh = login.token.getOIDCTokens().getRefreshToken();

    // RFC 7662 section 2.2: an active access token, described.
    TokenIntrospectionSuccessResponse active = introspect(basic, access);
    assertTrue(active.isActive());
    assertEquals(clientId, active.getClientID());
    assertEquals(new Subject(s.userId()), active.getSubject());
    assertEquals(s.username(), active.getUsername());
    assertEquals(new Issuer(s.issuer()), active.getIssuer());
    assertEquals(AccessTokenType.BEARER, active.getTokenType());
    assertTrue(active.getScope().containsAll(SCOPE), () -> "scope " + active.getScope());
    assertEquals(ACCESS_TOKEN_LIFESPAN, (active.getExpirationTime().getTime() - active.getIssueTime().getTime()) / 1000);

    // A string that is no token: {"active": false} alone (section 2.2).
    TokenIntrospectionSuccessResponse madeUp = introspect(basic, new BearerAccessToken("not-a-token"));
    assertEquals(Map.of("active", false), madeUp.toJSONObject());

    // A caller that does not authenticate is refused (section 2.1): 401 invalid_client.
    HTTPResponse strangerHttp = new TokenIntrospectionRequest(metadata.getIntrospectionEndpointURI(),
        new ClientSecretBasic(clientId, new Secret("not-the-secret")), access).toHTTPRequest().send();
    TokenIntrospectionResponse stranger = TokenIntrospectionResponse.parse(strangerHttp);
    assertInstanceOf(TokenIntrospectionErrorResponse.class, stranger, strangerHttp::getBody);
    assertEquals(OAuth2Error.INVALID_CLIENT, stranger.toErrorResponse().getErrorObject());
    assertEquals(401, strangerHttp.getStatusCode());

    // RFC 7009 section 2.2: revoking the refresh token (the SDK sends token_type_hint=refresh_token)
    // answers 200; it and the access tokens of its grant stop being active, and a refresh with it
    // is invalid_grant.
    HTTPResponse revoked = new TokenRevocationRequest(metadata.getRevocationEndpointURI(), basic, refresh).toHTTPRequest().send();
    assertEquals(200, revoked.getStatusCode(), revoked::getBody);
    assertEquals(Map.of("active", false), introspect(basic, refresh).toJSONObject());
    assertEquals(Map.of("active", false), introspect(basic, access).toJSONObject());
    expectError(token(new RefreshTokenGrant(refresh)), OAuth2Error.INVALID_GRANT, 400);

    // An invalid token is no error (section 2.2): 200.
    HTTPResponse unknown = new TokenRevocationRequest(metadata.getRevocationEndpointURI(), basic, new BearerAccessToken("not-a-token"))
        .toHTTPRequest().send();
    assertEquals(200, unknown.getStatusCode(), unknown::getBody);

    // An access token of another grant revoked on its own (token_type_hint=access_token): no longer
    // active, and userinfo refuses it (RFC 6750 section 3.1: 401 invalid_token).
    Login other = logIn(new HostedPages());
    AccessToken otherAccess = other.token.getOIDCTokens().getAccessToken();
    HTTPResponse revokedAccess = new TokenRevocationRequest(metadata.getRevocationEndpointURI(), basic, otherAccess).toHTTPRequest().send();
    assertEquals(200, revokedAccess.getStatusCode(), revokedAccess::getBody);
    assertEquals(Map.of("active", false), introspect(basic, otherAccess).toJSONObject());
    HTTPResponse info = new UserInfoRequest(metadata.getUserInfoEndpointURI(), (BearerAccessToken) otherAccess).toHTTPRequest().send();
    // The SDK reads the error from the response's Bearer challenge (WWW-Authenticate, RFC 6750 section 3).
    UserInfoResponse refusedInfo = UserInfoResponse.parse(info);
    assertEquals(401, info.getStatusCode(), info::getBody);
    assertEquals("invalid_token", refusedInfo.toErrorResponse().getErrorObject().getCode());
  }

  // --- helpers ---------------------------------------------------------------------------------

  private record Login(OIDCTokenResponse token, Nonce nonce, CodeVerifier verifier, AuthorizationCode code) {}

  /**
   * The code flow (OIDC Core 1.0 section 3.1) with state, nonce and PKCE S256 (RFC 7636 section
   * 4.3): the SDK builds the authentication request, the browser signs in on the hosted login page
   * when it has no SSO session yet, the SDK parses the redirect back (whose state and iss, RFC 9207
   * section 2.4, the RP compares), and the code is exchanged with client_secret_basic.
   */
  private static Login logIn(HostedPages browser) throws Exception {
    State state = new State();
    Nonce nonce = new Nonce();
    CodeVerifier verifier = new CodeVerifier();
    URI authorize = new AuthenticationRequest.Builder(new ResponseType(ResponseType.Value.CODE), SCOPE, clientId, URI.create(s.redirectUri()))
        .endpointURI(metadata.getAuthorizationEndpointURI())
        .state(state).nonce(nonce).codeChallenge(verifier, CodeChallengeMethod.S256)
        .build().toURI();
    HttpResponse<String> page = browser.get(authorize);
    if (page.statusCode() == 200) {
      page = browser.signIn(page, s.username(), s.password());
    }
    URI location = HostedPages.location(page);
    AuthorizationResponse back = AuthorizationResponse.parse(location);
    assertEquals(URI.create(s.redirectUri()), back.getRedirectionURI());
    assertTrue(back.indicatesSuccess(), location::toString);
    AuthorizationSuccessResponse ok = back.toSuccessResponse();
    assertEquals(state, ok.getState());
    assertEquals(metadata.getIssuer(), ok.getIssuer(), location::toString);
    AuthorizationCode code = ok.getAuthorizationCode();
    assertNotNull(code, location::toString);

    HTTPResponse http = token(new AuthorizationCodeGrant(code, URI.create(s.redirectUri()), verifier));
    TokenResponse res = OIDCTokenResponseParser.parse(http);
    assertTrue(res.indicatesSuccess(), http::getBody);
    return new Login((OIDCTokenResponse) res.toSuccessResponse(), nonce, verifier, code);
  }

  private static HTTPResponse token(AuthorizationGrant grant) throws Exception {
    return new TokenRequest.Builder(metadata.getTokenEndpointURI(), basic, grant).build().toHTTPRequest().send();
  }

  /** An error response (RFC 6749 section 5.2) as the SDK parses it: the code and the HTTP status. */
  private static void expectError(HTTPResponse http, ErrorObject error, int status) throws Exception {
    TokenResponse res = TokenResponse.parse(http);
    assertInstanceOf(TokenErrorResponse.class, res, http::getBody);
    ErrorObject got = res.toErrorResponse().getErrorObject();
    assertEquals(error.getCode(), got.getCode(), http::getBody);
    assertEquals(status, got.getHTTPStatusCode(), http::getBody);
    assertEquals(status, http.getStatusCode());
  }

  private static TokenIntrospectionSuccessResponse introspect(ClientAuthentication auth, Token token) throws Exception {
    HTTPResponse http = new TokenIntrospectionRequest(metadata.getIntrospectionEndpointURI(), auth, token).toHTTPRequest().send();
    TokenIntrospectionResponse res = TokenIntrospectionResponse.parse(http);
    assertTrue(res.indicatesSuccess(), http::getBody);
    return res.toSuccessResponse();
  }

  private static IDTokenValidator idTokenValidator(ClientID audience) throws Exception {
    return new IDTokenValidator(metadata.getIssuer(), audience, JWSAlgorithm.RS256, metadata.getJWKSetURI().toURL());
  }

  /**
   * The SDK's ID token validation (OIDC Core 1.0 section 3.1.3.7: the RS256 signature against the
   * jwks_uri, iss exact, aud contains the client, azp, exp and iat, and the nonce), then the
   * access token's at_hash (section 3.1.3.8) by the SDK's AccessTokenValidator.
   */
  private static IDTokenClaimsSet validateIdToken(JWT idToken, Nonce nonce, AccessToken access) throws Exception {
    IDTokenClaimsSet claims = idTokenValidator(clientId).validate(idToken, nonce);
    assertNotNull(claims.getAccessTokenHash(), "at_hash");
    AccessTokenValidator.validate(access, JWSAlgorithm.RS256, claims.getAccessTokenHash());
    return claims;
  }
}
