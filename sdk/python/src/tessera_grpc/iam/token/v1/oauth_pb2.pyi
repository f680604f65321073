from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class PushAuthorizationRequestRequest(_message.Message):
    __slots__ = ("realm", "base_url", "client", "params", "ip_address", "dpop_proof")
    class ParamsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REALM_FIELD_NUMBER: _ClassVar[int]
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    PARAMS_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    DPOP_PROOF_FIELD_NUMBER: _ClassVar[int]
    realm: str
    base_url: str
    client: ClientCredentials
    params: _containers.ScalarMap[str, str]
    ip_address: str
    dpop_proof: str
    def __init__(self, realm: _Optional[str] = ..., base_url: _Optional[str] = ..., client: _Optional[_Union[ClientCredentials, _Mapping]] = ..., params: _Optional[_Mapping[str, str]] = ..., ip_address: _Optional[str] = ..., dpop_proof: _Optional[str] = ...) -> None: ...

class PushAuthorizationRequestResponse(_message.Message):
    __slots__ = ("request_uri", "expires_in")
    REQUEST_URI_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    request_uri: str
    expires_in: int
    def __init__(self, request_uri: _Optional[str] = ..., expires_in: _Optional[int] = ...) -> None: ...

class ClientCredentials(_message.Message):
    __slots__ = ("client_id", "client_secret", "client_assertion_type", "client_assertion")
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SECRET_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ASSERTION_TYPE_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ASSERTION_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    client_secret: str
    client_assertion_type: str
    client_assertion: str
    def __init__(self, client_id: _Optional[str] = ..., client_secret: _Optional[str] = ..., client_assertion_type: _Optional[str] = ..., client_assertion: _Optional[str] = ...) -> None: ...

class TokenRequest(_message.Message):
    __slots__ = ("realm", "base_url", "client", "grant_type", "code", "redirect_uri", "code_verifier", "username", "password", "otp", "refresh_token", "scope", "device_code", "ip_address", "dpop_proof", "subject_token", "subject_token_type", "audience", "requested_token_type", "actor_token", "resource")
    REALM_FIELD_NUMBER: _ClassVar[int]
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    GRANT_TYPE_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URI_FIELD_NUMBER: _ClassVar[int]
    CODE_VERIFIER_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    OTP_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    DEVICE_CODE_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    DPOP_PROOF_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    AUDIENCE_FIELD_NUMBER: _ClassVar[int]
    REQUESTED_TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    ACTOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    base_url: str
    client: ClientCredentials
    grant_type: str
    code: str
    redirect_uri: str
    code_verifier: str
    username: str
    password: str
    otp: str
    refresh_token: str
    scope: str
    device_code: str
    ip_address: str
    dpop_proof: str
    subject_token: str
    subject_token_type: str
    audience: str
    requested_token_type: str
    actor_token: str
    resource: str
    def __init__(self, realm: _Optional[str] = ..., base_url: _Optional[str] = ..., client: _Optional[_Union[ClientCredentials, _Mapping]] = ..., grant_type: _Optional[str] = ..., code: _Optional[str] = ..., redirect_uri: _Optional[str] = ..., code_verifier: _Optional[str] = ..., username: _Optional[str] = ..., password: _Optional[str] = ..., otp: _Optional[str] = ..., refresh_token: _Optional[str] = ..., scope: _Optional[str] = ..., device_code: _Optional[str] = ..., ip_address: _Optional[str] = ..., dpop_proof: _Optional[str] = ..., subject_token: _Optional[str] = ..., subject_token_type: _Optional[str] = ..., audience: _Optional[str] = ..., requested_token_type: _Optional[str] = ..., actor_token: _Optional[str] = ..., resource: _Optional[str] = ...) -> None: ...

class TokenResponse(_message.Message):
    __slots__ = ("access_token", "token_type", "expires_in", "refresh_token", "refresh_expires_in", "id_token", "scope", "session_state", "dpop_nonce", "issued_token_type")
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    REFRESH_EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    ID_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    SESSION_STATE_FIELD_NUMBER: _ClassVar[int]
    DPOP_NONCE_FIELD_NUMBER: _ClassVar[int]
    ISSUED_TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    access_token: str
    token_type: str
    expires_in: int
    refresh_token: str
    refresh_expires_in: int
    id_token: str
    scope: str
    session_state: str
    dpop_nonce: str
    issued_token_type: str
    def __init__(self, access_token: _Optional[str] = ..., token_type: _Optional[str] = ..., expires_in: _Optional[int] = ..., refresh_token: _Optional[str] = ..., refresh_expires_in: _Optional[int] = ..., id_token: _Optional[str] = ..., scope: _Optional[str] = ..., session_state: _Optional[str] = ..., dpop_nonce: _Optional[str] = ..., issued_token_type: _Optional[str] = ...) -> None: ...

class AuthorizeDeviceRequest(_message.Message):
    __slots__ = ("realm", "base_url", "client", "scope", "ip_address")
    REALM_FIELD_NUMBER: _ClassVar[int]
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    base_url: str
    client: ClientCredentials
    scope: str
    ip_address: str
    def __init__(self, realm: _Optional[str] = ..., base_url: _Optional[str] = ..., client: _Optional[_Union[ClientCredentials, _Mapping]] = ..., scope: _Optional[str] = ..., ip_address: _Optional[str] = ...) -> None: ...

class AuthorizeDeviceResponse(_message.Message):
    __slots__ = ("device_code", "user_code", "verification_uri", "verification_uri_complete", "expires_in", "interval")
    DEVICE_CODE_FIELD_NUMBER: _ClassVar[int]
    USER_CODE_FIELD_NUMBER: _ClassVar[int]
    VERIFICATION_URI_FIELD_NUMBER: _ClassVar[int]
    VERIFICATION_URI_COMPLETE_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    INTERVAL_FIELD_NUMBER: _ClassVar[int]
    device_code: str
    user_code: str
    verification_uri: str
    verification_uri_complete: str
    expires_in: int
    interval: int
    def __init__(self, device_code: _Optional[str] = ..., user_code: _Optional[str] = ..., verification_uri: _Optional[str] = ..., verification_uri_complete: _Optional[str] = ..., expires_in: _Optional[int] = ..., interval: _Optional[int] = ...) -> None: ...

class IntrospectRequest(_message.Message):
    __slots__ = ("realm", "base_url", "client", "token", "token_type_hint", "ip_address")
    REALM_FIELD_NUMBER: _ClassVar[int]
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_HINT_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    base_url: str
    client: ClientCredentials
    token: str
    token_type_hint: str
    ip_address: str
    def __init__(self, realm: _Optional[str] = ..., base_url: _Optional[str] = ..., client: _Optional[_Union[ClientCredentials, _Mapping]] = ..., token: _Optional[str] = ..., token_type_hint: _Optional[str] = ..., ip_address: _Optional[str] = ...) -> None: ...

class IntrospectResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _struct_pb2.Struct
    def __init__(self, result: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class RevokeRequest(_message.Message):
    __slots__ = ("realm", "base_url", "client", "token", "token_type_hint", "ip_address")
    REALM_FIELD_NUMBER: _ClassVar[int]
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_HINT_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    base_url: str
    client: ClientCredentials
    token: str
    token_type_hint: str
    ip_address: str
    def __init__(self, realm: _Optional[str] = ..., base_url: _Optional[str] = ..., client: _Optional[_Union[ClientCredentials, _Mapping]] = ..., token: _Optional[str] = ..., token_type_hint: _Optional[str] = ..., ip_address: _Optional[str] = ...) -> None: ...

class RevokeResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class UserInfoRequest(_message.Message):
    __slots__ = ("realm", "base_url", "access_token", "scheme", "dpop_proof", "http_method")
    REALM_FIELD_NUMBER: _ClassVar[int]
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SCHEME_FIELD_NUMBER: _ClassVar[int]
    DPOP_PROOF_FIELD_NUMBER: _ClassVar[int]
    HTTP_METHOD_FIELD_NUMBER: _ClassVar[int]
    realm: str
    base_url: str
    access_token: str
    scheme: str
    dpop_proof: str
    http_method: str
    def __init__(self, realm: _Optional[str] = ..., base_url: _Optional[str] = ..., access_token: _Optional[str] = ..., scheme: _Optional[str] = ..., dpop_proof: _Optional[str] = ..., http_method: _Optional[str] = ...) -> None: ...

class UserInfoResponse(_message.Message):
    __slots__ = ("claims",)
    CLAIMS_FIELD_NUMBER: _ClassVar[int]
    claims: _struct_pb2.Struct
    def __init__(self, claims: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class LogoutRequest(_message.Message):
    __slots__ = ("realm", "base_url", "client", "refresh_token", "ip_address")
    REALM_FIELD_NUMBER: _ClassVar[int]
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    base_url: str
    client: ClientCredentials
    refresh_token: str
    ip_address: str
    def __init__(self, realm: _Optional[str] = ..., base_url: _Optional[str] = ..., client: _Optional[_Union[ClientCredentials, _Mapping]] = ..., refresh_token: _Optional[str] = ..., ip_address: _Optional[str] = ...) -> None: ...

class LogoutResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
