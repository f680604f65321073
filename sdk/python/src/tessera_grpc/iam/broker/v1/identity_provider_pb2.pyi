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

class IdentityProviderMapper(_message.Message):
    __slots__ = ("id", "name", "identity_provider_alias", "identity_provider_mapper", "config")
    class ConfigEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_PROVIDER_ALIAS_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_PROVIDER_MAPPER_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    identity_provider_alias: str
    identity_provider_mapper: str
    config: _containers.ScalarMap[str, str]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., identity_provider_alias: _Optional[str] = ..., identity_provider_mapper: _Optional[str] = ..., config: _Optional[_Mapping[str, str]] = ...) -> None: ...

class IdentityProviderMapperInput(_message.Message):
    __slots__ = ("id", "name", "identity_provider_alias", "identity_provider_mapper", "config")
    class ConfigEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_PROVIDER_ALIAS_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_PROVIDER_MAPPER_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    identity_provider_alias: str
    identity_provider_mapper: str
    config: _containers.ScalarMap[str, str]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., identity_provider_alias: _Optional[str] = ..., identity_provider_mapper: _Optional[str] = ..., config: _Optional[_Mapping[str, str]] = ...) -> None: ...

class ListIdentityProviderMappersRequest(_message.Message):
    __slots__ = ("realm", "alias")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    alias: str
    def __init__(self, realm: _Optional[str] = ..., alias: _Optional[str] = ...) -> None: ...

class ListIdentityProviderMappersResponse(_message.Message):
    __slots__ = ("mappers",)
    MAPPERS_FIELD_NUMBER: _ClassVar[int]
    mappers: _containers.RepeatedCompositeFieldContainer[IdentityProviderMapper]
    def __init__(self, mappers: _Optional[_Iterable[_Union[IdentityProviderMapper, _Mapping]]] = ...) -> None: ...

class CreateIdentityProviderMapperRequest(_message.Message):
    __slots__ = ("realm", "alias", "mapper")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    MAPPER_FIELD_NUMBER: _ClassVar[int]
    realm: str
    alias: str
    mapper: IdentityProviderMapperInput
    def __init__(self, realm: _Optional[str] = ..., alias: _Optional[str] = ..., mapper: _Optional[_Union[IdentityProviderMapperInput, _Mapping]] = ...) -> None: ...

class CreateIdentityProviderMapperResponse(_message.Message):
    __slots__ = ("mapper",)
    MAPPER_FIELD_NUMBER: _ClassVar[int]
    mapper: IdentityProviderMapper
    def __init__(self, mapper: _Optional[_Union[IdentityProviderMapper, _Mapping]] = ...) -> None: ...

class GetIdentityProviderMapperRequest(_message.Message):
    __slots__ = ("realm", "alias", "id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    alias: str
    id: str
    def __init__(self, realm: _Optional[str] = ..., alias: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class GetIdentityProviderMapperResponse(_message.Message):
    __slots__ = ("mapper",)
    MAPPER_FIELD_NUMBER: _ClassVar[int]
    mapper: IdentityProviderMapper
    def __init__(self, mapper: _Optional[_Union[IdentityProviderMapper, _Mapping]] = ...) -> None: ...

class UpdateIdentityProviderMapperRequest(_message.Message):
    __slots__ = ("realm", "alias", "id", "mapper")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    MAPPER_FIELD_NUMBER: _ClassVar[int]
    realm: str
    alias: str
    id: str
    mapper: IdentityProviderMapperInput
    def __init__(self, realm: _Optional[str] = ..., alias: _Optional[str] = ..., id: _Optional[str] = ..., mapper: _Optional[_Union[IdentityProviderMapperInput, _Mapping]] = ...) -> None: ...

class UpdateIdentityProviderMapperResponse(_message.Message):
    __slots__ = ("mapper",)
    MAPPER_FIELD_NUMBER: _ClassVar[int]
    mapper: IdentityProviderMapper
    def __init__(self, mapper: _Optional[_Union[IdentityProviderMapper, _Mapping]] = ...) -> None: ...

class DeleteIdentityProviderMapperRequest(_message.Message):
    __slots__ = ("realm", "alias", "id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    alias: str
    id: str
    def __init__(self, realm: _Optional[str] = ..., alias: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class DeleteIdentityProviderMapperResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class IdentityProviderMapperType(_message.Message):
    __slots__ = ("id", "name", "category", "help_text", "properties")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    HELP_TEXT_FIELD_NUMBER: _ClassVar[int]
    PROPERTIES_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    category: str
    help_text: str
    properties: _containers.RepeatedCompositeFieldContainer[IdentityProviderMapperConfigProperty]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., category: _Optional[str] = ..., help_text: _Optional[str] = ..., properties: _Optional[_Iterable[_Union[IdentityProviderMapperConfigProperty, _Mapping]]] = ...) -> None: ...

class IdentityProviderMapperConfigProperty(_message.Message):
    __slots__ = ("name", "label", "help_text", "required", "default_value")
    NAME_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    HELP_TEXT_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_VALUE_FIELD_NUMBER: _ClassVar[int]
    name: str
    label: str
    help_text: str
    required: bool
    default_value: str
    def __init__(self, name: _Optional[str] = ..., label: _Optional[str] = ..., help_text: _Optional[str] = ..., required: _Optional[bool] = ..., default_value: _Optional[str] = ...) -> None: ...

class ListIdentityProviderMapperTypesRequest(_message.Message):
    __slots__ = ("realm", "alias")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    alias: str
    def __init__(self, realm: _Optional[str] = ..., alias: _Optional[str] = ...) -> None: ...

class ListIdentityProviderMapperTypesResponse(_message.Message):
    __slots__ = ("types",)
    TYPES_FIELD_NUMBER: _ClassVar[int]
    types: _containers.RepeatedCompositeFieldContainer[IdentityProviderMapperType]
    def __init__(self, types: _Optional[_Iterable[_Union[IdentityProviderMapperType, _Mapping]]] = ...) -> None: ...
