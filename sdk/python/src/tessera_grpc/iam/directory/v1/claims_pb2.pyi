from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class ResolveClaimsRequest(_message.Message):
    __slots__ = ("realm", "user_id", "client_id", "scopes", "only_requested", "from_store", "session_id", "auth_time", "introspection")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    ONLY_REQUESTED_FIELD_NUMBER: _ClassVar[int]
    FROM_STORE_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    AUTH_TIME_FIELD_NUMBER: _ClassVar[int]
    INTROSPECTION_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    client_id: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    only_requested: bool
    from_store: bool
    session_id: str
    auth_time: int
    introspection: bool
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., client_id: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., only_requested: _Optional[bool] = ..., from_store: _Optional[bool] = ..., session_id: _Optional[str] = ..., auth_time: _Optional[int] = ..., introspection: _Optional[bool] = ...) -> None: ...

class ResolveClaimsResponse(_message.Message):
    __slots__ = ("access_token_claims_json", "id_token_claims_json", "userinfo_claims_json", "granted_scopes", "realm_roles", "client_roles", "introspection_claims_json")
    ACCESS_TOKEN_CLAIMS_JSON_FIELD_NUMBER: _ClassVar[int]
    ID_TOKEN_CLAIMS_JSON_FIELD_NUMBER: _ClassVar[int]
    USERINFO_CLAIMS_JSON_FIELD_NUMBER: _ClassVar[int]
    GRANTED_SCOPES_FIELD_NUMBER: _ClassVar[int]
    REALM_ROLES_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ROLES_FIELD_NUMBER: _ClassVar[int]
    INTROSPECTION_CLAIMS_JSON_FIELD_NUMBER: _ClassVar[int]
    access_token_claims_json: str
    id_token_claims_json: str
    userinfo_claims_json: str
    granted_scopes: _containers.RepeatedScalarFieldContainer[str]
    realm_roles: _containers.RepeatedScalarFieldContainer[str]
    client_roles: _containers.RepeatedScalarFieldContainer[str]
    introspection_claims_json: str
    def __init__(self, access_token_claims_json: _Optional[str] = ..., id_token_claims_json: _Optional[str] = ..., userinfo_claims_json: _Optional[str] = ..., granted_scopes: _Optional[_Iterable[str]] = ..., realm_roles: _Optional[_Iterable[str]] = ..., client_roles: _Optional[_Iterable[str]] = ..., introspection_claims_json: _Optional[str] = ...) -> None: ...
