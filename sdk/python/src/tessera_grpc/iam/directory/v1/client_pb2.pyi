import datetime

from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Client(_message.Message):
    __slots__ = ("id", "client_id", "name", "description", "client_type", "enabled", "redirect_uris", "web_origins", "grant_types", "require_consent", "backchannel_logout_uri", "backchannel_logout_session_required", "secret", "created_at", "updated_at", "token_endpoint_auth_method", "client_authenticator_type", "jwks", "jwks_uri", "request_object_signature_alg", "require_pushed_authorization_requests", "dpop_bound_access_tokens", "dpop_nonce_required", "standard_token_exchange_enabled", "id_token_signed_response_alg", "access_token_signed_response_alg", "client_profile", "browser_flow_override", "direct_grant_flow_override")
    ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    CLIENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URIS_FIELD_NUMBER: _ClassVar[int]
    WEB_ORIGINS_FIELD_NUMBER: _ClassVar[int]
    GRANT_TYPES_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_CONSENT_FIELD_NUMBER: _ClassVar[int]
    BACKCHANNEL_LOGOUT_URI_FIELD_NUMBER: _ClassVar[int]
    BACKCHANNEL_LOGOUT_SESSION_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_ENDPOINT_AUTH_METHOD_FIELD_NUMBER: _ClassVar[int]
    CLIENT_AUTHENTICATOR_TYPE_FIELD_NUMBER: _ClassVar[int]
    JWKS_FIELD_NUMBER: _ClassVar[int]
    JWKS_URI_FIELD_NUMBER: _ClassVar[int]
    REQUEST_OBJECT_SIGNATURE_ALG_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_PUSHED_AUTHORIZATION_REQUESTS_FIELD_NUMBER: _ClassVar[int]
    DPOP_BOUND_ACCESS_TOKENS_FIELD_NUMBER: _ClassVar[int]
    DPOP_NONCE_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    STANDARD_TOKEN_EXCHANGE_ENABLED_FIELD_NUMBER: _ClassVar[int]
    ID_TOKEN_SIGNED_RESPONSE_ALG_FIELD_NUMBER: _ClassVar[int]
    ACCESS_TOKEN_SIGNED_RESPONSE_ALG_FIELD_NUMBER: _ClassVar[int]
    CLIENT_PROFILE_FIELD_NUMBER: _ClassVar[int]
    BROWSER_FLOW_OVERRIDE_FIELD_NUMBER: _ClassVar[int]
    DIRECT_GRANT_FLOW_OVERRIDE_FIELD_NUMBER: _ClassVar[int]
    id: str
    client_id: str
    name: str
    description: str
    client_type: str
    enabled: bool
    redirect_uris: _containers.RepeatedScalarFieldContainer[str]
    web_origins: _containers.RepeatedScalarFieldContainer[str]
    grant_types: _containers.RepeatedScalarFieldContainer[str]
    require_consent: bool
    backchannel_logout_uri: str
    backchannel_logout_session_required: bool
    secret: str
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    token_endpoint_auth_method: str
    client_authenticator_type: str
    jwks: _struct_pb2.Struct
    jwks_uri: str
    request_object_signature_alg: str
    require_pushed_authorization_requests: bool
    dpop_bound_access_tokens: bool
    dpop_nonce_required: bool
    standard_token_exchange_enabled: bool
    id_token_signed_response_alg: str
    access_token_signed_response_alg: str
    client_profile: str
    browser_flow_override: str
    direct_grant_flow_override: str
    def __init__(self, id: _Optional[str] = ..., client_id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., client_type: _Optional[str] = ..., enabled: _Optional[bool] = ..., redirect_uris: _Optional[_Iterable[str]] = ..., web_origins: _Optional[_Iterable[str]] = ..., grant_types: _Optional[_Iterable[str]] = ..., require_consent: _Optional[bool] = ..., backchannel_logout_uri: _Optional[str] = ..., backchannel_logout_session_required: _Optional[bool] = ..., secret: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., token_endpoint_auth_method: _Optional[str] = ..., client_authenticator_type: _Optional[str] = ..., jwks: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., jwks_uri: _Optional[str] = ..., request_object_signature_alg: _Optional[str] = ..., require_pushed_authorization_requests: _Optional[bool] = ..., dpop_bound_access_tokens: _Optional[bool] = ..., dpop_nonce_required: _Optional[bool] = ..., standard_token_exchange_enabled: _Optional[bool] = ..., id_token_signed_response_alg: _Optional[str] = ..., access_token_signed_response_alg: _Optional[str] = ..., client_profile: _Optional[str] = ..., browser_flow_override: _Optional[str] = ..., direct_grant_flow_override: _Optional[str] = ...) -> None: ...

class ClientInput(_message.Message):
    __slots__ = ("client_id", "name", "description", "client_type", "type", "enabled", "redirect_uris", "web_origins", "grant_types", "require_consent", "backchannel_logout_uri", "backchannel_logout_session_required", "grant_types_present", "token_endpoint_auth_method", "client_authenticator_type", "jwks", "jwks_uri", "request_object_signature_alg", "require_pushed_authorization_requests", "dpop_bound_access_tokens", "dpop_nonce_required", "standard_token_exchange_enabled", "id_token_signed_response_alg", "access_token_signed_response_alg", "client_profile", "browser_flow_override", "direct_grant_flow_override")
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    CLIENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URIS_FIELD_NUMBER: _ClassVar[int]
    WEB_ORIGINS_FIELD_NUMBER: _ClassVar[int]
    GRANT_TYPES_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_CONSENT_FIELD_NUMBER: _ClassVar[int]
    BACKCHANNEL_LOGOUT_URI_FIELD_NUMBER: _ClassVar[int]
    BACKCHANNEL_LOGOUT_SESSION_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    GRANT_TYPES_PRESENT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_ENDPOINT_AUTH_METHOD_FIELD_NUMBER: _ClassVar[int]
    CLIENT_AUTHENTICATOR_TYPE_FIELD_NUMBER: _ClassVar[int]
    JWKS_FIELD_NUMBER: _ClassVar[int]
    JWKS_URI_FIELD_NUMBER: _ClassVar[int]
    REQUEST_OBJECT_SIGNATURE_ALG_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_PUSHED_AUTHORIZATION_REQUESTS_FIELD_NUMBER: _ClassVar[int]
    DPOP_BOUND_ACCESS_TOKENS_FIELD_NUMBER: _ClassVar[int]
    DPOP_NONCE_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    STANDARD_TOKEN_EXCHANGE_ENABLED_FIELD_NUMBER: _ClassVar[int]
    ID_TOKEN_SIGNED_RESPONSE_ALG_FIELD_NUMBER: _ClassVar[int]
    ACCESS_TOKEN_SIGNED_RESPONSE_ALG_FIELD_NUMBER: _ClassVar[int]
    CLIENT_PROFILE_FIELD_NUMBER: _ClassVar[int]
    BROWSER_FLOW_OVERRIDE_FIELD_NUMBER: _ClassVar[int]
    DIRECT_GRANT_FLOW_OVERRIDE_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    name: str
    description: str
    client_type: str
    type: str
    enabled: bool
    redirect_uris: _containers.RepeatedScalarFieldContainer[str]
    web_origins: _containers.RepeatedScalarFieldContainer[str]
    grant_types: _containers.RepeatedScalarFieldContainer[str]
    require_consent: bool
    backchannel_logout_uri: str
    backchannel_logout_session_required: bool
    grant_types_present: bool
    token_endpoint_auth_method: str
    client_authenticator_type: str
    jwks: _struct_pb2.Struct
    jwks_uri: str
    request_object_signature_alg: str
    require_pushed_authorization_requests: bool
    dpop_bound_access_tokens: bool
    dpop_nonce_required: bool
    standard_token_exchange_enabled: bool
    id_token_signed_response_alg: str
    access_token_signed_response_alg: str
    client_profile: str
    browser_flow_override: str
    direct_grant_flow_override: str
    def __init__(self, client_id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., client_type: _Optional[str] = ..., type: _Optional[str] = ..., enabled: _Optional[bool] = ..., redirect_uris: _Optional[_Iterable[str]] = ..., web_origins: _Optional[_Iterable[str]] = ..., grant_types: _Optional[_Iterable[str]] = ..., require_consent: _Optional[bool] = ..., backchannel_logout_uri: _Optional[str] = ..., backchannel_logout_session_required: _Optional[bool] = ..., grant_types_present: _Optional[bool] = ..., token_endpoint_auth_method: _Optional[str] = ..., client_authenticator_type: _Optional[str] = ..., jwks: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., jwks_uri: _Optional[str] = ..., request_object_signature_alg: _Optional[str] = ..., require_pushed_authorization_requests: _Optional[bool] = ..., dpop_bound_access_tokens: _Optional[bool] = ..., dpop_nonce_required: _Optional[bool] = ..., standard_token_exchange_enabled: _Optional[bool] = ..., id_token_signed_response_alg: _Optional[str] = ..., access_token_signed_response_alg: _Optional[str] = ..., client_profile: _Optional[str] = ..., browser_flow_override: _Optional[str] = ..., direct_grant_flow_override: _Optional[str] = ...) -> None: ...

class ClientUpdate(_message.Message):
    __slots__ = ("name", "description", "enabled", "redirect_uris", "web_origins", "grant_types", "require_consent", "backchannel_logout_uri", "redirect_uris_present", "web_origins_present", "grant_types_present", "token_endpoint_auth_method", "client_authenticator_type", "jwks", "jwks_uri", "request_object_signature_alg", "require_pushed_authorization_requests", "dpop_bound_access_tokens", "dpop_nonce_required", "standard_token_exchange_enabled", "id_token_signed_response_alg", "access_token_signed_response_alg", "client_profile", "browser_flow_override", "direct_grant_flow_override")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URIS_FIELD_NUMBER: _ClassVar[int]
    WEB_ORIGINS_FIELD_NUMBER: _ClassVar[int]
    GRANT_TYPES_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_CONSENT_FIELD_NUMBER: _ClassVar[int]
    BACKCHANNEL_LOGOUT_URI_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URIS_PRESENT_FIELD_NUMBER: _ClassVar[int]
    WEB_ORIGINS_PRESENT_FIELD_NUMBER: _ClassVar[int]
    GRANT_TYPES_PRESENT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_ENDPOINT_AUTH_METHOD_FIELD_NUMBER: _ClassVar[int]
    CLIENT_AUTHENTICATOR_TYPE_FIELD_NUMBER: _ClassVar[int]
    JWKS_FIELD_NUMBER: _ClassVar[int]
    JWKS_URI_FIELD_NUMBER: _ClassVar[int]
    REQUEST_OBJECT_SIGNATURE_ALG_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_PUSHED_AUTHORIZATION_REQUESTS_FIELD_NUMBER: _ClassVar[int]
    DPOP_BOUND_ACCESS_TOKENS_FIELD_NUMBER: _ClassVar[int]
    DPOP_NONCE_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    STANDARD_TOKEN_EXCHANGE_ENABLED_FIELD_NUMBER: _ClassVar[int]
    ID_TOKEN_SIGNED_RESPONSE_ALG_FIELD_NUMBER: _ClassVar[int]
    ACCESS_TOKEN_SIGNED_RESPONSE_ALG_FIELD_NUMBER: _ClassVar[int]
    CLIENT_PROFILE_FIELD_NUMBER: _ClassVar[int]
    BROWSER_FLOW_OVERRIDE_FIELD_NUMBER: _ClassVar[int]
    DIRECT_GRANT_FLOW_OVERRIDE_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    enabled: bool
    redirect_uris: _containers.RepeatedScalarFieldContainer[str]
    web_origins: _containers.RepeatedScalarFieldContainer[str]
    grant_types: _containers.RepeatedScalarFieldContainer[str]
    require_consent: bool
    backchannel_logout_uri: str
    redirect_uris_present: bool
    web_origins_present: bool
    grant_types_present: bool
    token_endpoint_auth_method: str
    client_authenticator_type: str
    jwks: _struct_pb2.Struct
    jwks_uri: str
    request_object_signature_alg: str
    require_pushed_authorization_requests: bool
    dpop_bound_access_tokens: bool
    dpop_nonce_required: bool
    standard_token_exchange_enabled: bool
    id_token_signed_response_alg: str
    access_token_signed_response_alg: str
    client_profile: str
    browser_flow_override: str
    direct_grant_flow_override: str
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., enabled: _Optional[bool] = ..., redirect_uris: _Optional[_Iterable[str]] = ..., web_origins: _Optional[_Iterable[str]] = ..., grant_types: _Optional[_Iterable[str]] = ..., require_consent: _Optional[bool] = ..., backchannel_logout_uri: _Optional[str] = ..., redirect_uris_present: _Optional[bool] = ..., web_origins_present: _Optional[bool] = ..., grant_types_present: _Optional[bool] = ..., token_endpoint_auth_method: _Optional[str] = ..., client_authenticator_type: _Optional[str] = ..., jwks: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., jwks_uri: _Optional[str] = ..., request_object_signature_alg: _Optional[str] = ..., require_pushed_authorization_requests: _Optional[bool] = ..., dpop_bound_access_tokens: _Optional[bool] = ..., dpop_nonce_required: _Optional[bool] = ..., standard_token_exchange_enabled: _Optional[bool] = ..., id_token_signed_response_alg: _Optional[str] = ..., access_token_signed_response_alg: _Optional[str] = ..., client_profile: _Optional[str] = ..., browser_flow_override: _Optional[str] = ..., direct_grant_flow_override: _Optional[str] = ...) -> None: ...

class ServiceAccountUser(_message.Message):
    __slots__ = ("id", "username", "email", "first_name", "last_name", "enabled", "email_verified", "service_account_client_id", "created_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    FIRST_NAME_FIELD_NUMBER: _ClassVar[int]
    LAST_NAME_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    SERVICE_ACCOUNT_CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    username: str
    email: str
    first_name: str
    last_name: str
    enabled: bool
    email_verified: bool
    service_account_client_id: str
    created_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., username: _Optional[str] = ..., email: _Optional[str] = ..., first_name: _Optional[str] = ..., last_name: _Optional[str] = ..., enabled: _Optional[bool] = ..., email_verified: _Optional[bool] = ..., service_account_client_id: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CreateClientRequest(_message.Message):
    __slots__ = ("realm", "client")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client: ClientInput
    def __init__(self, realm: _Optional[str] = ..., client: _Optional[_Union[ClientInput, _Mapping]] = ...) -> None: ...

class CreateClientResponse(_message.Message):
    __slots__ = ("client",)
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    client: Client
    def __init__(self, client: _Optional[_Union[Client, _Mapping]] = ...) -> None: ...

class ListClientsRequest(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: str
    def __init__(self, realm: _Optional[str] = ...) -> None: ...

class ListClientsResponse(_message.Message):
    __slots__ = ("clients",)
    CLIENTS_FIELD_NUMBER: _ClassVar[int]
    clients: _containers.RepeatedCompositeFieldContainer[Client]
    def __init__(self, clients: _Optional[_Iterable[_Union[Client, _Mapping]]] = ...) -> None: ...

class GetClientRequest(_message.Message):
    __slots__ = ("realm", "client_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ...) -> None: ...

class GetClientResponse(_message.Message):
    __slots__ = ("client",)
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    client: Client
    def __init__(self, client: _Optional[_Union[Client, _Mapping]] = ...) -> None: ...

class UpdateClientRequest(_message.Message):
    __slots__ = ("realm", "client_id", "update")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    UPDATE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    update: ClientUpdate
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., update: _Optional[_Union[ClientUpdate, _Mapping]] = ...) -> None: ...

class UpdateClientResponse(_message.Message):
    __slots__ = ("client",)
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    client: Client
    def __init__(self, client: _Optional[_Union[Client, _Mapping]] = ...) -> None: ...

class DeleteClientRequest(_message.Message):
    __slots__ = ("realm", "client_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ...) -> None: ...

class DeleteClientResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RegenerateClientSecretRequest(_message.Message):
    __slots__ = ("realm", "client_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ...) -> None: ...

class RegenerateClientSecretResponse(_message.Message):
    __slots__ = ("client",)
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    client: Client
    def __init__(self, client: _Optional[_Union[Client, _Mapping]] = ...) -> None: ...

class GetServiceAccountUserRequest(_message.Message):
    __slots__ = ("realm", "client_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ...) -> None: ...

class GetServiceAccountUserResponse(_message.Message):
    __slots__ = ("user",)
    USER_FIELD_NUMBER: _ClassVar[int]
    user: ServiceAccountUser
    def __init__(self, user: _Optional[_Union[ServiceAccountUser, _Mapping]] = ...) -> None: ...

class AuthenticateClientRequest(_message.Message):
    __slots__ = ("realm", "client_id", "secret")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    secret: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., secret: _Optional[str] = ...) -> None: ...

class AuthenticateClientResponse(_message.Message):
    __slots__ = ("client",)
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    client: Client
    def __init__(self, client: _Optional[_Union[Client, _Mapping]] = ...) -> None: ...

class VerifyClientSecretJwtRequest(_message.Message):
    __slots__ = ("realm", "client_id", "assertion")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    ASSERTION_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    assertion: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., assertion: _Optional[str] = ...) -> None: ...

class VerifyClientSecretJwtResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetClientCredentialVerifierRequest(_message.Message):
    __slots__ = ("realm", "client_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ...) -> None: ...

class GetClientCredentialVerifierResponse(_message.Message):
    __slots__ = ("client", "verifier_salt", "verifier", "scope_names", "scopes", "introspection_claims_differ")
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    VERIFIER_SALT_FIELD_NUMBER: _ClassVar[int]
    VERIFIER_FIELD_NUMBER: _ClassVar[int]
    SCOPE_NAMES_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    INTROSPECTION_CLAIMS_DIFFER_FIELD_NUMBER: _ClassVar[int]
    client: Client
    verifier_salt: bytes
    verifier: bytes
    scope_names: _containers.RepeatedScalarFieldContainer[str]
    scopes: _containers.RepeatedCompositeFieldContainer[ConsentScreenScope]
    introspection_claims_differ: bool
    def __init__(self, client: _Optional[_Union[Client, _Mapping]] = ..., verifier_salt: _Optional[bytes] = ..., verifier: _Optional[bytes] = ..., scope_names: _Optional[_Iterable[str]] = ..., scopes: _Optional[_Iterable[_Union[ConsentScreenScope, _Mapping]]] = ..., introspection_claims_differ: _Optional[bool] = ...) -> None: ...

class ConsentScreenScope(_message.Message):
    __slots__ = ("name", "is_default", "on_consent_screen", "consent_text")
    NAME_FIELD_NUMBER: _ClassVar[int]
    IS_DEFAULT_FIELD_NUMBER: _ClassVar[int]
    ON_CONSENT_SCREEN_FIELD_NUMBER: _ClassVar[int]
    CONSENT_TEXT_FIELD_NUMBER: _ClassVar[int]
    name: str
    is_default: bool
    on_consent_screen: bool
    consent_text: str
    def __init__(self, name: _Optional[str] = ..., is_default: _Optional[bool] = ..., on_consent_screen: _Optional[bool] = ..., consent_text: _Optional[str] = ...) -> None: ...

class ClientUpdated(_message.Message):
    __slots__ = ("realm_id", "realm_name", "client_id", "id", "deleted", "disabled")
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    REALM_NAME_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    realm_id: str
    realm_name: str
    client_id: str
    id: str
    deleted: bool
    disabled: bool
    def __init__(self, realm_id: _Optional[str] = ..., realm_name: _Optional[str] = ..., client_id: _Optional[str] = ..., id: _Optional[str] = ..., deleted: _Optional[bool] = ..., disabled: _Optional[bool] = ...) -> None: ...

class TokenConfigChanged(_message.Message):
    __slots__ = ("changed_at", "realm_id", "realm_name")
    CHANGED_AT_FIELD_NUMBER: _ClassVar[int]
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    REALM_NAME_FIELD_NUMBER: _ClassVar[int]
    changed_at: _timestamp_pb2.Timestamp
    realm_id: str
    realm_name: str
    def __init__(self, changed_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., realm_id: _Optional[str] = ..., realm_name: _Optional[str] = ...) -> None: ...
