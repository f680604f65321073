import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AdminAccount(_message.Message):
    __slots__ = ("id", "username", "created_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    username: str
    created_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., username: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class AuthenticateAdminRequest(_message.Message):
    __slots__ = ("username", "password", "ip_address")
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    username: str
    password: str
    ip_address: str
    def __init__(self, username: _Optional[str] = ..., password: _Optional[str] = ..., ip_address: _Optional[str] = ...) -> None: ...

class AuthenticateAdminResponse(_message.Message):
    __slots__ = ("admin", "retry_after_seconds")
    ADMIN_FIELD_NUMBER: _ClassVar[int]
    RETRY_AFTER_SECONDS_FIELD_NUMBER: _ClassVar[int]
    admin: AdminAccount
    retry_after_seconds: int
    def __init__(self, admin: _Optional[_Union[AdminAccount, _Mapping]] = ..., retry_after_seconds: _Optional[int] = ...) -> None: ...

class GetAdminRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class GetAdminResponse(_message.Message):
    __slots__ = ("admin",)
    ADMIN_FIELD_NUMBER: _ClassVar[int]
    admin: AdminAccount
    def __init__(self, admin: _Optional[_Union[AdminAccount, _Mapping]] = ...) -> None: ...

class StartAdminSessionRequest(_message.Message):
    __slots__ = ("admin_id", "expires_at")
    ADMIN_ID_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    admin_id: str
    expires_at: _timestamp_pb2.Timestamp
    def __init__(self, admin_id: _Optional[str] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class StartAdminSessionResponse(_message.Message):
    __slots__ = ("session_id", "refresh_id")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    REFRESH_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    refresh_id: str
    def __init__(self, session_id: _Optional[str] = ..., refresh_id: _Optional[str] = ...) -> None: ...

class RenewAdminSessionRequest(_message.Message):
    __slots__ = ("session_id", "refresh_id", "expires_at")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    REFRESH_ID_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    refresh_id: str
    expires_at: _timestamp_pb2.Timestamp
    def __init__(self, session_id: _Optional[str] = ..., refresh_id: _Optional[str] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class RenewAdminSessionResponse(_message.Message):
    __slots__ = ("refresh_id", "admin")
    REFRESH_ID_FIELD_NUMBER: _ClassVar[int]
    ADMIN_FIELD_NUMBER: _ClassVar[int]
    refresh_id: str
    admin: AdminAccount
    def __init__(self, refresh_id: _Optional[str] = ..., admin: _Optional[_Union[AdminAccount, _Mapping]] = ...) -> None: ...

class EndAdminSessionRequest(_message.Message):
    __slots__ = ("session_id",)
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    def __init__(self, session_id: _Optional[str] = ...) -> None: ...

class EndAdminSessionResponse(_message.Message):
    __slots__ = ("ended",)
    ENDED_FIELD_NUMBER: _ClassVar[int]
    ended: bool
    def __init__(self, ended: _Optional[bool] = ...) -> None: ...

class CheckAdminSessionRequest(_message.Message):
    __slots__ = ("session_id",)
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    def __init__(self, session_id: _Optional[str] = ...) -> None: ...

class CheckAdminSessionResponse(_message.Message):
    __slots__ = ("active",)
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    active: bool
    def __init__(self, active: _Optional[bool] = ...) -> None: ...
