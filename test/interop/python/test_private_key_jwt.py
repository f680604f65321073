"""``private_key_jwt`` client authentication (RFC 7523 section 2.2, OIDC Core 1.0 section 9) and
pushed authorization requests (RFC 9126) from authlib's ``OAuth2Session``.

The client signs its assertions with ``authlib.oauth2.rfc7523.PrivateKeyJWT`` (ES256, the key the
wrapper registered by value, test/interop/support/interop-realm.ts). authlib has no PAR helper, so
the pushed request is a form POST through the same session and the same client authentication,
as an app does it, and the browser then follows the authorization URL with ``request_uri`` alone.
The shared fixtures and the ID token validation come from test_authlib.py.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session, OAuthError
from authlib.oauth2.rfc7523 import PrivateKeyJWT
from authlib.oauth2.rfc7636 import create_s256_code_challenge
from joserfc import jwt
from joserfc.jwk import ECKey, KeySet
from joserfc.jws import JWSRegistry

from hosted_pages import Browser
from test_authlib import ACCESS_TOKEN_LIFESPAN, SCOPE, Settings, id_token_claims, key_set, metadata, settings  # noqa: F401

class Es256PrivateKeyJWT(PrivateKeyJWT):
    """authlib's PrivateKeyJWT with ES256 and authlib's own lifetime (``exp`` an hour after
    ``iat``): Tessera accepts an assertion for ten minutes from its ``iat`` (RFC 7523 section 3
    item 4 lets the server bound it), as Keycloak accepts authlib's default. ``claims`` is read on
    every signature, and a fresh dict each time keeps authlib's generated ``jti`` fresh too (it
    writes it into the dict it is given). ``jti`` pins one, to replay it."""

    alg = "ES256"

    def __init__(self, jti: str | None = None) -> None:
        super().__init__()
        self._jti = jti

    @property
    def claims(self) -> dict:
        return {"jti": self._jti} if self._jti else {}

    @claims.setter
    def claims(self, _value) -> None:
        pass


@dataclass(frozen=True)
class Signer:
    client_id: str
    key: ECKey


@pytest.fixture(scope="module")
def signer() -> Signer:
    names = ("TESSERA_INTEROP_JWT_CLIENT_ID", "TESSERA_INTEROP_JWT_PRIVATE_JWK")
    missing = [env for env in names if not os.environ.get(env)]
    if missing:
        pytest.fail(f"{', '.join(missing)} not set: run this through test/interop/authlib.interop.test.ts")
    return Signer(os.environ[names[0]], ECKey.import_key(json.loads(os.environ[names[1]])))


def signed_session(signer: Signer, settings: Settings, metadata: dict, jti: str | None = None) -> OAuth2Session:
    """The session as authlib documents it for private_key_jwt: the key in place of the secret,
    the method registered; with no token_endpoint the assertion's aud is the URL it is sent to
    (the token or PAR endpoint, RFC 7523 section 3 item 3)."""
    session = OAuth2Session(
        client_id=signer.client_id, client_secret=signer.key, token_endpoint_auth_method="private_key_jwt",
        scope=SCOPE, redirect_uri=settings.redirect_uri, code_challenge_method="S256",
        token_endpoint=metadata["token_endpoint"], default_timeout=10,
    )
    session.register_client_auth_method(Es256PrivateKeyJWT(jti))
    return session


def test_private_key_jwt_client_credentials(signer: Signer, settings: Settings, metadata: dict, key_set: KeySet) -> None:
    assert "private_key_jwt" in metadata["token_endpoint_auth_methods_supported"]
    assert "ES256" in metadata["token_endpoint_auth_signing_alg_values_supported"]
    token = signed_session(signer, settings, metadata).fetch_token(grant_type="client_credentials")
    assert (token["token_type"], token["expires_in"]) == ("Bearer", ACCESS_TOKEN_LIFESPAN)
    assert "refresh_token" not in token
    access = jwt.decode(token["access_token"], key_set, registry=JWSRegistry(strict_check_header=False))
    assert (access.claims["iss"], access.claims["azp"]) == (settings.issuer, signer.client_id)

    # Each request signs a new assertion, so a second grant passes too.
    assert signed_session(signer, settings, metadata).fetch_token(grant_type="client_credentials")["access_token"]

    # A replayed assertion (the same jti, RFC 7523 section 3 item 7) is refused: invalid_client.
    jti = generate_token(32)
    assert signed_session(signer, settings, metadata, jti).fetch_token(grant_type="client_credentials")["access_token"]
    with pytest.raises(OAuthError) as replayed:
        signed_session(signer, settings, metadata, jti).fetch_token(grant_type="client_credentials")
    assert replayed.value.error == "invalid_client"

    # The client's secret is no way in for a private_key_jwt client, nor another client's secret.
    other = OAuth2Session(client_id=signer.client_id, client_secret=settings.client_secret,
                          token_endpoint=metadata["token_endpoint"], default_timeout=10)
    with pytest.raises(OAuthError) as refused:
        other.fetch_token(grant_type="client_credentials")
    assert refused.value.error == "invalid_client"


def test_pushed_authorization_code_flow(signer: Signer, settings: Settings, metadata: dict, key_set: KeySet) -> None:
    par = metadata["pushed_authorization_request_endpoint"]
    assert par == f"{settings.issuer}/protocol/openid-connect/ext/par/request"
    assert metadata["require_pushed_authorization_requests"] is False
    session = signed_session(signer, settings, metadata)
    verifier, nonce, state = generate_token(48), generate_token(20), generate_token(20)
    form = {
        "response_type": "code", "client_id": signer.client_id, "redirect_uri": settings.redirect_uri,
        "scope": SCOPE, "state": state, "nonce": nonce,
        "code_challenge": create_s256_code_challenge(verifier), "code_challenge_method": "S256",
    }
    # RFC 9126 section 2.1: the pushed request, the client authenticated as at the token endpoint.
    res = session.post(par, data=form, auth=session.client_auth("private_key_jwt"), withhold_token=True)
    assert res.status_code == 201, res.text
    assert res.headers["Cache-Control"] == "no-store"
    pushed = res.json()
    assert set(pushed) == {"request_uri", "expires_in"}
    assert pushed["request_uri"].startswith("urn:ietf:params:oauth:request_uri:")
    assert pushed["expires_in"] == 60

    # Section 4: the authorization request carries client_id and request_uri only.
    url = f"{metadata['authorization_endpoint']}?{urlencode({'client_id': signer.client_id, 'request_uri': pushed['request_uri']})}"
    browser = Browser()
    res = browser.sign_in(browser.get(url), settings.username, settings.password)
    assert res.status_code == 302, res.text[:400]
    back = urlsplit(res.headers["Location"])
    query = parse_qs(back.query)
    assert f"{back.scheme}://{back.netloc}{back.path}" == settings.redirect_uri
    assert (query["state"], query["iss"]) == ([state], [settings.issuer])

    # The code redeemed with another private_key_jwt assertion (aud the token endpoint).
    token = session.fetch_token(authorization_response=res.headers["Location"], state=state, code_verifier=verifier)
    assert (token["token_type"], token["expires_in"]) == ("Bearer", ACCESS_TOKEN_LIFESPAN)
    signed = Settings(**{**settings.__dict__, "client_id": signer.client_id})
    claims = id_token_claims(token["id_token"], key_set, metadata, signed, nonce, token["access_token"])
    assert (claims["sub"], claims["aud"], claims["azp"], claims["nonce"]) == (
        settings.user_id, signer.client_id, signer.client_id, nonce)

    # Section 7.3: a request_uri is used once; the second visit is the error page.
    again = Browser().get(url)
    assert again.status_code == 400
    assert "The request_uri is unknown, expired or already used." in again.text

    # A push without client authentication is refused as at the token endpoint (section 2.1).
    res = OAuth2Session(default_timeout=10).post(par, data=form, withhold_token=True)
    assert res.status_code == 401
    assert res.json()["error"] == "invalid_client"
