import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class IdentityProvider(_message.Message):
    __slots__ = ("alias", "display_name", "provider_type", "enabled", "client_id", "authorization_url", "token_url", "userinfo_url", "jwks_url", "issuer", "default_scopes", "trust_email", "sync_user_profile", "client_secret_set", "created_at", "updated_at", "login_hint")
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_TYPE_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    AUTHORIZATION_URL_FIELD_NUMBER: _ClassVar[int]
    TOKEN_URL_FIELD_NUMBER: _ClassVar[int]
    USERINFO_URL_FIELD_NUMBER: _ClassVar[int]
    JWKS_URL_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_SCOPES_FIELD_NUMBER: _ClassVar[int]
    TRUST_EMAIL_FIELD_NUMBER: _ClassVar[int]
    SYNC_USER_PROFILE_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SECRET_SET_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    LOGIN_HINT_FIELD_NUMBER: _ClassVar[int]
    alias: str
    display_name: str
    provider_type: str
    enabled: bool
    client_id: str
    authorization_url: str
    token_url: str
    userinfo_url: str
    jwks_url: str
    issuer: str
    default_scopes: str
    trust_email: bool
    sync_user_profile: bool
    client_secret_set: bool
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    login_hint: bool
    def __init__(self, alias: _Optional[str] = ..., display_name: _Optional[str] = ..., provider_type: _Optional[str] = ..., enabled: _Optional[bool] = ..., client_id: _Optional[str] = ..., authorization_url: _Optional[str] = ..., token_url: _Optional[str] = ..., userinfo_url: _Optional[str] = ..., jwks_url: _Optional[str] = ..., issuer: _Optional[str] = ..., default_scopes: _Optional[str] = ..., trust_email: _Optional[bool] = ..., sync_user_profile: _Optional[bool] = ..., client_secret_set: _Optional[bool] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., login_hint: _Optional[bool] = ...) -> None: ...

class IdentityProviderInput(_message.Message):
    __slots__ = ("alias", "display_name", "provider_type", "enabled", "client_id", "client_secret", "authorization_url", "token_url", "userinfo_url", "jwks_url", "issuer", "default_scopes", "trust_email", "sync_user_profile", "login_hint")
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_TYPE_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SECRET_FIELD_NUMBER: _ClassVar[int]
    AUTHORIZATION_URL_FIELD_NUMBER: _ClassVar[int]
    TOKEN_URL_FIELD_NUMBER: _ClassVar[int]
    USERINFO_URL_FIELD_NUMBER: _ClassVar[int]
    JWKS_URL_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_SCOPES_FIELD_NUMBER: _ClassVar[int]
    TRUST_EMAIL_FIELD_NUMBER: _ClassVar[int]
    SYNC_USER_PROFILE_FIELD_NUMBER: _ClassVar[int]
    LOGIN_HINT_FIELD_NUMBER: _ClassVar[int]
    alias: str
    display_name: str
    provider_type: str
    enabled: bool
    client_id: str
    client_secret: str
    authorization_url: str
    token_url: str
    userinfo_url: str
    jwks_url: str
    issuer: str
    default_scopes: str
    trust_email: bool
    sync_user_profile: bool
    login_hint: bool
    def __init__(self, alias: _Optional[str] = ..., display_name: _Optional[str] = ..., provider_type: _Optional[str] = ..., enabled: _Optional[bool] = ..., client_id: _Optional[str] = ..., client_secret: _Optional[str] = ..., authorization_url: _Optional[str] = ..., token_url: _Optional[str] = ..., userinfo_url: _Optional[str] = ..., jwks_url: _Optional[str] = ..., issuer: _Optional[str] = ..., default_scopes: _Optional[str] = ..., trust_email: _Optional[bool] = ..., sync_user_profile: _Optional[bool] = ..., login_hint: _Optional[bool] = ...) -> None: ...

class CreateIdentityProviderRequest(_message.Message):
    __slots__ = ("realm", "provider")
    REALM_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    realm: str
    provider: IdentityProviderInput
    def __init__(self, realm: _Optional[str] = ..., provider: _Optional[_Union[IdentityProviderInput, _Mapping]] = ...) -> None: ...

class CreateIdentityProviderResponse(_message.Message):
    __slots__ = ("provider",)
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    provider: IdentityProvider
    def __init__(self, provider: _Optional[_Union[IdentityProvider, _Mapping]] = ...) -> None: ...

class ListIdentityProvidersRequest(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: str
    def __init__(self, realm: _Optional[str] = ...) -> None: ...

class ListIdentityProvidersResponse(_message.Message):
    __slots__ = ("providers",)
    PROVIDERS_FIELD_NUMBER: _ClassVar[int]
    providers: _containers.RepeatedCompositeFieldContainer[IdentityProvider]
    def __init__(self, providers: _Optional[_Iterable[_Union[IdentityProvider, _Mapping]]] = ...) -> None: ...

class GetIdentityProviderRequest(_message.Message):
    __slots__ = ("realm", "alias")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    alias: str
    def __init__(self, realm: _Optional[str] = ..., alias: _Optional[str] = ...) -> None: ...

class GetIdentityProviderResponse(_message.Message):
    __slots__ = ("provider",)
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    provider: IdentityProvider
    def __init__(self, provider: _Optional[_Union[IdentityProvider, _Mapping]] = ...) -> None: ...

class UpdateIdentityProviderRequest(_message.Message):
    __slots__ = ("realm", "alias", "provider")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    realm: str
    alias: str
    provider: IdentityProviderInput
    def __init__(self, realm: _Optional[str] = ..., alias: _Optional[str] = ..., provider: _Optional[_Union[IdentityProviderInput, _Mapping]] = ...) -> None: ...

class UpdateIdentityProviderResponse(_message.Message):
    __slots__ = ("provider",)
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    provider: IdentityProvider
    def __init__(self, provider: _Optional[_Union[IdentityProvider, _Mapping]] = ...) -> None: ...

class DeleteIdentityProviderRequest(_message.Message):
    __slots__ = ("realm", "alias")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    alias: str
    def __init__(self, realm: _Optional[str] = ..., alias: _Optional[str] = ...) -> None: ...

class DeleteIdentityProviderResponse(_message.Message):
    __slots__ = ("provider",)
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    provider: IdentityProvider
    def __init__(self, provider: _Optional[_Union[IdentityProvider, _Mapping]] = ...) -> None: ...

class FederatedIdentity(_message.Message):
    __slots__ = ("identity_provider", "user_id", "user_name", "created_at")
    IDENTITY_PROVIDER_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    USER_NAME_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    identity_provider: str
    user_id: str
    user_name: str
    created_at: _timestamp_pb2.Timestamp
    def __init__(self, identity_provider: _Optional[str] = ..., user_id: _Optional[str] = ..., user_name: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListFederatedIdentitiesRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class ListFederatedIdentitiesResponse(_message.Message):
    __slots__ = ("identities",)
    IDENTITIES_FIELD_NUMBER: _ClassVar[int]
    identities: _containers.RepeatedCompositeFieldContainer[FederatedIdentity]
    def __init__(self, identities: _Optional[_Iterable[_Union[FederatedIdentity, _Mapping]]] = ...) -> None: ...

class DeleteFederatedIdentityRequest(_message.Message):
    __slots__ = ("realm", "user_id", "alias")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    alias: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., alias: _Optional[str] = ...) -> None: ...

class DeleteFederatedIdentityResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
