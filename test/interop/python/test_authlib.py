"""Tessera's OpenID Connect provider as a Python relying party written for Keycloak sees it.

The grants, revocation (RFC 7009) and introspection (RFC 7662) go through authlib's
``OAuth2Session`` (requests); the ID token is validated as authlib's own OpenID client does it
(``OpenIDMixin.parse_id_token``): the signature with joserfc against the realm's JWKS (authlib 1.9
builds on joserfc; ``authlib.jose`` is deprecated there), the claims with
``authlib.oidc.core.CodeIDToken`` (iss, aud, exp, nonce, azp, at_hash). The user's browser is played
over HTTP on the hosted pages (hosted_pages.py). Run through test/interop/authlib.interop.test.ts,
which starts Tessera and provisions the realm; the settings arrive by environment.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import pytest
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session, OAuthError
from authlib.oidc.core import CodeIDToken, UserInfo
from joserfc import jwt
from joserfc.errors import BadSignatureError, InvalidClaimError
from joserfc.jwk import KeySet
from joserfc.jws import JWSRegistry

from hosted_pages import Browser

# The realm's default token lifespans (spec 2.1), which the wrapper leaves as they are.
ACCESS_TOKEN_LIFESPAN = 300
REFRESH_TOKEN_LIFESPAN = 1800
SCOPE = "openid profile email"


@dataclass(frozen=True)
class Settings:
    issuer: str
    client_id: str
    client_secret: str
    redirect_uri: str
    username: str
    password: str
    user_id: str
    email: str


@pytest.fixture(scope="module")
def settings() -> Settings:
    # Fails, never skips, when a value is missing: the wrapper reads a pass as evidence.
    names = {
        "issuer": "TESSERA_INTEROP_ISSUER", "client_id": "TESSERA_INTEROP_CLIENT_ID",
        "client_secret": "TESSERA_INTEROP_CLIENT_SECRET", "redirect_uri": "TESSERA_INTEROP_REDIRECT_URI",
        "username": "TESSERA_INTEROP_USERNAME", "password": "TESSERA_INTEROP_PASSWORD",
        "user_id": "TESSERA_INTEROP_USER_ID", "email": "TESSERA_INTEROP_EMAIL",
    }
    missing = [env for env in names.values() if not os.environ.get(env)]
    if missing:
        pytest.fail(f"{', '.join(missing)} not set: run this through test/interop/authlib.interop.test.ts (README, Tests)")
    return Settings(**{key: os.environ[env] for key, env in names.items()})


@pytest.fixture(scope="module")
def metadata(settings: Settings) -> dict:
    """OIDC Discovery 1.0 section 4, fetched as authlib's clients load ``server_metadata_url``."""
    with OAuth2Session() as session:
        res = session.get(f"{settings.issuer}/.well-known/openid-configuration", withhold_token=True, timeout=10)
    assert res.status_code == 200
    return res.json()


@pytest.fixture(scope="module")
def key_set(metadata: dict) -> KeySet:
    with OAuth2Session() as session:
        res = session.get(metadata["jwks_uri"], withhold_token=True, timeout=10)
    assert res.status_code == 200
    return KeySet.import_key_set(res.json())


def rp(settings: Settings, metadata: dict, **kwargs) -> OAuth2Session:
    """The confidential web client as an app configures it from discovery (client_secret_basic,
    authlib's default with a secret)."""
    return OAuth2Session(
        client_id=settings.client_id, client_secret=settings.client_secret, scope=SCOPE,
        redirect_uri=settings.redirect_uri, code_challenge_method="S256",
        token_endpoint=metadata["token_endpoint"], default_timeout=10, **kwargs,
    )


def id_token_claims(raw: str, key_set: KeySet, metadata: dict, settings: Settings, nonce: str | None,
                    access_token: str) -> CodeIDToken:
    """Validates an ID token as ``OpenIDMixin.parse_id_token`` does, with aud pinned to the client
    (OIDC Core 1.0 section 3.1.3.7: iss exact, aud contains the client, exp; step 11 the nonce;
    section 3.1.3.8 at_hash)."""
    token = jwt.decode(raw, key_set, registry=JWSRegistry(
        algorithms=metadata["id_token_signing_alg_values_supported"], strict_check_header=False))
    claims = CodeIDToken(
        token.claims, token.header,
        {"iss": {"essential": True, "value": settings.issuer}, "aud": {"essential": True, "value": settings.client_id}},
        {"nonce": nonce, "client_id": settings.client_id, "access_token": access_token},
    )
    claims.validate(leeway=120)
    return claims


@dataclass
class Login:
    session: OAuth2Session
    token: dict
    nonce: str
    state: str
    verifier: str
    code: str


def log_in(settings: Settings, metadata: dict, browser: Browser | None = None) -> Login:
    """The code flow (OIDC Core 1.0 section 3.1) with state, nonce and PKCE S256 (RFC 7636), the
    hosted login page filled in when the browser has no SSO session yet."""
    browser = browser or Browser()
    session = rp(settings, metadata)
    verifier, nonce = generate_token(48), generate_token(20)
    url, state = session.create_authorization_url(metadata["authorization_endpoint"], code_verifier=verifier, nonce=nonce)
    res = browser.get(url)
    if res.status_code == 200:
        res = browser.sign_in(res, settings.username, settings.password)
    assert res.status_code == 302, res.text[:400]
    location = res.headers["Location"]
    back = urlsplit(location)
    query = parse_qs(back.query)
    assert f"{back.scheme}://{back.netloc}{back.path}" == settings.redirect_uri
    # RFC 9207 section 2.4: the RP compares iss with the issuer it sent the request to (authlib
    # does not; an app that follows the RFC does).
    assert query["iss"] == [settings.issuer]
    assert query["state"] == [state]
    # authlib parses the redirect itself and checks state (a mismatch raises).
    token = session.fetch_token(authorization_response=location, state=state, code_verifier=verifier)
    return Login(session, token, nonce, state, verifier, query["code"][0])


def test_discovery(settings: Settings, metadata: dict) -> None:
    # OIDC Discovery 1.0 section 4.3: the issuer is the one the RP was configured with, exactly.
    base = f"{settings.issuer}/protocol/openid-connect"
    assert {k: metadata[k] for k in (
        "issuer", "authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri",
        "revocation_endpoint", "introspection_endpoint",
    )} == {
        "issuer": settings.issuer, "authorization_endpoint": f"{base}/auth", "token_endpoint": f"{base}/token",
        "userinfo_endpoint": f"{base}/userinfo", "jwks_uri": f"{base}/certs",
        "revocation_endpoint": f"{base}/revoke", "introspection_endpoint": f"{base}/token/introspect",
    }
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert "RS256" in metadata["id_token_signing_alg_values_supported"]
    assert "client_secret_basic" in metadata["token_endpoint_auth_methods_supported"]
    assert "client_secret_basic" in metadata["revocation_endpoint_auth_methods_supported"]
    assert "client_secret_basic" in metadata["introspection_endpoint_auth_methods_supported"]
    assert metadata["authorization_response_iss_parameter_supported"] is True


def test_code_flow_id_token_userinfo_and_refresh(settings: Settings, metadata: dict, key_set: KeySet) -> None:
    login = log_in(settings, metadata)
    token = login.token
    assert token["token_type"] == "Bearer"
    assert token["expires_in"] == ACCESS_TOKEN_LIFESPAN
    assert token["refresh_expires_in"] == REFRESH_TOKEN_LIFESPAN
    # The client's default scopes come with the requested ones, as Keycloak grants them.
    assert set(token["scope"].split()) == {"openid", "profile", "email", "acr", "basic", "roles", "web-origins"}
    assert token["refresh_token"]

    claims = id_token_claims(token["id_token"], key_set, metadata, settings, login.nonce, token["access_token"])
    assert (claims["iss"], claims["sub"], claims["aud"], claims["azp"], claims["typ"]) == (
        settings.issuer, settings.user_id, settings.client_id, settings.client_id, "ID")
    assert claims["nonce"] == login.nonce
    assert claims["exp"] - claims["iat"] == ACCESS_TOKEN_LIFESPAN
    # auth_time is the login (OIDC Core 1.0 section 2), iat the exchange that follows it: the same
    # second or a little later, never before.
    assert 0 <= claims["iat"] - claims["auth_time"] <= 10
    assert (claims["acr"], claims["amr"]) == ("1", ["pwd"])
    assert claims["sid"] == token["session_state"]
    assert (claims["preferred_username"], claims["email"], claims["email_verified"]) == (settings.username, settings.email, False)
    assert (claims["name"], claims["given_name"], claims["family_name"]) == ("Alice Liddell", "Alice", "Liddell")
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", claims["at_hash"])

    # The validation is live: another nonce, another access token, another audience, a tampered
    # signature are each refused.
    with pytest.raises(InvalidClaimError, match="nonce"):
        id_token_claims(token["id_token"], key_set, metadata, settings, "another-nonce", token["access_token"])
    with pytest.raises(InvalidClaimError, match="at_hash"):
        id_token_claims(token["id_token"], key_set, metadata, settings, login.nonce, token["access_token"] + "x")
    with pytest.raises(InvalidClaimError, match="aud"):
        other = Settings(**{**settings.__dict__, "client_id": "another-client"})
        id_token_claims(token["id_token"], key_set, metadata, other, login.nonce, token["access_token"])
    header, payload, signature = token["id_token"].split(".")
    with pytest.raises(BadSignatureError):
        id_token_claims(f"{header}.{payload}.{signature[::-1]}", key_set, metadata, settings, login.nonce, token["access_token"])

    # Userinfo (OIDC Core 1.0 section 5.3): the session sends the access token as a bearer token.
    res = login.session.get(metadata["userinfo_endpoint"])
    assert res.status_code == 200
    info = UserInfo(res.json())
    # updated_at (OIDC Core 1.0 section 5.1, profile scope): seconds since the epoch, the user's
    # last change, which the wrapper made moments ago.
    assert isinstance(info["updated_at"], int) and 0 <= time.time() - info.pop("updated_at") <= 300
    assert info == {
        "sub": settings.user_id, "preferred_username": settings.username, "email": settings.email,
        "email_verified": False, "name": "Alice Liddell", "given_name": "Alice", "family_name": "Liddell",
    }

    # Refresh (RFC 6749 section 6) as authlib does it by itself: a request with a token it sees
    # expired refreshes first, and hands the new token to update_token.
    updates: list[dict] = []
    login.session.update_token = lambda new, refresh_token=None, access_token=None: updates.append(new)
    login.session.token["expires_at"] = int(time.time()) - 1
    res = login.session.get(metadata["userinfo_endpoint"])
    assert res.status_code == 200
    assert res.json()["sub"] == settings.user_id
    assert len(updates) == 1
    fresh = updates[0]
    assert fresh["access_token"] != token["access_token"]
    assert fresh["token_type"] == "Bearer"
    assert fresh["expires_in"] == ACCESS_TOKEN_LIFESPAN
    assert fresh["refresh_token"]
    # The refreshed ID token (OIDC Core 1.0 section 12.2): same subject, at_hash of the new token.
    refreshed = id_token_claims(fresh["id_token"], key_set, metadata, settings, None, fresh["access_token"])
    assert refreshed["sub"] == settings.user_id

    # A code is redeemed once (RFC 6749 section 4.1.2): authlib raises the error response.
    again = rp(settings, metadata)
    with pytest.raises(OAuthError) as reused:
        again.fetch_token(code=login.code, code_verifier=login.verifier)
    assert reused.value.error == "invalid_grant"


def test_client_credentials(settings: Settings, metadata: dict, key_set: KeySet) -> None:
    session = rp(settings, metadata)
    token = session.fetch_token(grant_type="client_credentials")
    assert token["token_type"] == "Bearer"
    assert token["expires_in"] == ACCESS_TOKEN_LIFESPAN
    # RFC 6749 section 4.4.3: no refresh token for this grant.
    assert "refresh_token" not in token
    # A JWT access token signed with a key of the realm's JWKS (RFC 9068 section 2).
    access = jwt.decode(token["access_token"], key_set, registry=JWSRegistry(strict_check_header=False))
    assert (access.claims["iss"], access.claims["azp"]) == (settings.issuer, settings.client_id)

    # A wrong secret (RFC 6749 section 5.2): invalid_client.
    wrong = OAuth2Session(client_id=settings.client_id, client_secret="not-the-secret",
                          token_endpoint=metadata["token_endpoint"], default_timeout=10)
    with pytest.raises(OAuthError) as refused:
        wrong.fetch_token(grant_type="client_credentials")
    assert refused.value.error == "invalid_client"


def test_introspection_and_revocation(settings: Settings, metadata: dict) -> None:
    login = log_in(settings, metadata)
    session, token = login.session, login.token
    introspect = metadata["introspection_endpoint"]
    revoke = metadata["revocation_endpoint"]

    # RFC 7662 section 2.2: an active access token, described.
    res = session.introspect_token(introspect, token=token["access_token"], token_type_hint="access_token")
    assert res.status_code == 200
    body = res.json()
    assert body["active"] is True
    assert (body["client_id"], body["sub"], body["username"], body["iss"], body["token_type"]) == (
        settings.client_id, settings.user_id, settings.username, settings.issuer, "Bearer")
    assert set(body["scope"].split()) >= {"openid", "profile", "email"}
    assert body["exp"] - body["iat"] == ACCESS_TOKEN_LIFESPAN

    # And a string that is no token: {"active": false} alone (section 2.2).
    res = session.introspect_token(introspect, token="not-a-token")
    assert (res.status_code, res.json()) == (200, {"active": False})

    # A caller that does not authenticate is refused (section 2.1): invalid_client.
    stranger = OAuth2Session(client_id=settings.client_id, client_secret="not-the-secret", default_timeout=10)
    res = stranger.introspect_token(introspect, token=token["access_token"])
    assert res.status_code == 401
    assert res.json()["error"] == "invalid_client"

    # RFC 7009 section 2.2: revoking the refresh token answers 200; it and the access tokens of its
    # grant stop being active, and a refresh with it is invalid_grant.
    res = session.revoke_token(revoke, token=token["refresh_token"], token_type_hint="refresh_token")
    assert res.status_code == 200
    res = session.introspect_token(introspect, token=token["refresh_token"], token_type_hint="refresh_token")
    assert res.json() == {"active": False}
    res = session.introspect_token(introspect, token=token["access_token"])
    assert res.json() == {"active": False}
    with pytest.raises(OAuthError) as refused:
        session.refresh_token(metadata["token_endpoint"], refresh_token=token["refresh_token"])
    assert refused.value.error == "invalid_grant"

    # An invalid token is no error (section 2.2): 200.
    res = session.revoke_token(revoke, token="not-a-token")
    assert res.status_code == 200

    # An access token of another grant revoked on its own (token_type_hint access_token): no longer
    # active, and userinfo refuses it (RFC 6750 section 3.1: 401).
    other = log_in(settings, metadata)
    res = other.session.revoke_token(revoke, token=other.token["access_token"], token_type_hint="access_token")
    assert res.status_code == 200
    res = other.session.introspect_token(introspect, token=other.token["access_token"])
    assert res.json() == {"active": False}
    res = other.session.get(metadata["userinfo_endpoint"])
    assert res.status_code == 401
