import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Session(_message.Message):
    __slots__ = ("id", "type", "user_id", "username", "ip_address", "start", "last_access", "expires", "clients", "scope", "sso_session_id", "remember_me")
    ID_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    LAST_ACCESS_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_FIELD_NUMBER: _ClassVar[int]
    CLIENTS_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    SSO_SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    REMEMBER_ME_FIELD_NUMBER: _ClassVar[int]
    id: str
    type: str
    user_id: str
    username: str
    ip_address: str
    start: _timestamp_pb2.Timestamp
    last_access: _timestamp_pb2.Timestamp
    expires: _timestamp_pb2.Timestamp
    clients: _containers.RepeatedScalarFieldContainer[str]
    scope: str
    sso_session_id: str
    remember_me: bool
    def __init__(self, id: _Optional[str] = ..., type: _Optional[str] = ..., user_id: _Optional[str] = ..., username: _Optional[str] = ..., ip_address: _Optional[str] = ..., start: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., last_access: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., expires: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., clients: _Optional[_Iterable[str]] = ..., scope: _Optional[str] = ..., sso_session_id: _Optional[str] = ..., remember_me: _Optional[bool] = ...) -> None: ...

class ListRealmSessionsRequest(_message.Message):
    __slots__ = ("realm", "first", "max")
    REALM_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    realm: str
    first: int
    max: int
    def __init__(self, realm: _Optional[str] = ..., first: _Optional[int] = ..., max: _Optional[int] = ...) -> None: ...

class ListRealmSessionsResponse(_message.Message):
    __slots__ = ("sessions",)
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    sessions: _containers.RepeatedCompositeFieldContainer[Session]
    def __init__(self, sessions: _Optional[_Iterable[_Union[Session, _Mapping]]] = ...) -> None: ...

class ListUserSessionsRequest(_message.Message):
    __slots__ = ("realm", "user_id", "first", "max")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    first: int
    max: int
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., first: _Optional[int] = ..., max: _Optional[int] = ...) -> None: ...

class ListUserSessionsResponse(_message.Message):
    __slots__ = ("sessions",)
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    sessions: _containers.RepeatedCompositeFieldContainer[Session]
    def __init__(self, sessions: _Optional[_Iterable[_Union[Session, _Mapping]]] = ...) -> None: ...

class RevokeSessionRequest(_message.Message):
    __slots__ = ("realm", "session_id", "type")
    REALM_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    session_id: str
    type: str
    def __init__(self, realm: _Optional[str] = ..., session_id: _Optional[str] = ..., type: _Optional[str] = ...) -> None: ...

class RevokeSessionResponse(_message.Message):
    __slots__ = ("revoked", "session_id", "type")
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    revoked: bool
    session_id: str
    type: str
    def __init__(self, revoked: _Optional[bool] = ..., session_id: _Optional[str] = ..., type: _Optional[str] = ...) -> None: ...

class RevokeUserSessionsRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class RevokeUserSessionsResponse(_message.Message):
    __slots__ = ("count",)
    COUNT_FIELD_NUMBER: _ClassVar[int]
    count: int
    def __init__(self, count: _Optional[int] = ...) -> None: ...

class ListOfflineSessionsRequest(_message.Message):
    __slots__ = ("realm", "user_id", "first", "max")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    first: int
    max: int
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., first: _Optional[int] = ..., max: _Optional[int] = ...) -> None: ...

class ListOfflineSessionsResponse(_message.Message):
    __slots__ = ("sessions",)
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    sessions: _containers.RepeatedCompositeFieldContainer[Session]
    def __init__(self, sessions: _Optional[_Iterable[_Union[Session, _Mapping]]] = ...) -> None: ...

class RevokeOfflineSessionRequest(_message.Message):
    __slots__ = ("realm", "user_id", "token_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    token_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., token_id: _Optional[str] = ...) -> None: ...

class RevokeOfflineSessionResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
