import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AdminAccount(_message.Message):
    __slots__ = ("id", "username", "created_at", "server_admin", "realm_access")
    ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    SERVER_ADMIN_FIELD_NUMBER: _ClassVar[int]
    REALM_ACCESS_FIELD_NUMBER: _ClassVar[int]
    id: str
    username: str
    created_at: _timestamp_pb2.Timestamp
    server_admin: bool
    realm_access: _containers.RepeatedCompositeFieldContainer[RealmAccess]
    def __init__(self, id: _Optional[str] = ..., username: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., server_admin: _Optional[bool] = ..., realm_access: _Optional[_Iterable[_Union[RealmAccess, _Mapping]]] = ...) -> None: ...

class RealmAccess(_message.Message):
    __slots__ = ("realm", "roles")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ROLES_FIELD_NUMBER: _ClassVar[int]
    realm: str
    roles: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, realm: _Optional[str] = ..., roles: _Optional[_Iterable[str]] = ...) -> None: ...

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
    __slots__ = ("active", "admin")
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    ADMIN_FIELD_NUMBER: _ClassVar[int]
    active: bool
    admin: AdminAccount
    def __init__(self, active: _Optional[bool] = ..., admin: _Optional[_Union[AdminAccount, _Mapping]] = ...) -> None: ...

class ListAdminsRequest(_message.Message):
    __slots__ = ("search", "first", "max")
    SEARCH_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    search: str
    first: int
    max: int
    def __init__(self, search: _Optional[str] = ..., first: _Optional[int] = ..., max: _Optional[int] = ...) -> None: ...

class ListAdminsResponse(_message.Message):
    __slots__ = ("admins",)
    ADMINS_FIELD_NUMBER: _ClassVar[int]
    admins: _containers.RepeatedCompositeFieldContainer[AdminAccount]
    def __init__(self, admins: _Optional[_Iterable[_Union[AdminAccount, _Mapping]]] = ...) -> None: ...

class CreateAdminRequest(_message.Message):
    __slots__ = ("username", "password", "server_admin", "realm_access")
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    SERVER_ADMIN_FIELD_NUMBER: _ClassVar[int]
    REALM_ACCESS_FIELD_NUMBER: _ClassVar[int]
    username: str
    password: str
    server_admin: bool
    realm_access: _containers.RepeatedCompositeFieldContainer[RealmAccess]
    def __init__(self, username: _Optional[str] = ..., password: _Optional[str] = ..., server_admin: _Optional[bool] = ..., realm_access: _Optional[_Iterable[_Union[RealmAccess, _Mapping]]] = ...) -> None: ...

class CreateAdminResponse(_message.Message):
    __slots__ = ("admin",)
    ADMIN_FIELD_NUMBER: _ClassVar[int]
    admin: AdminAccount
    def __init__(self, admin: _Optional[_Union[AdminAccount, _Mapping]] = ...) -> None: ...

class UpdateAdminRequest(_message.Message):
    __slots__ = ("id", "caller_id", "password", "server_admin", "set_realm_access", "realm_access")
    ID_FIELD_NUMBER: _ClassVar[int]
    CALLER_ID_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    SERVER_ADMIN_FIELD_NUMBER: _ClassVar[int]
    SET_REALM_ACCESS_FIELD_NUMBER: _ClassVar[int]
    REALM_ACCESS_FIELD_NUMBER: _ClassVar[int]
    id: str
    caller_id: str
    password: str
    server_admin: bool
    set_realm_access: bool
    realm_access: _containers.RepeatedCompositeFieldContainer[RealmAccess]
    def __init__(self, id: _Optional[str] = ..., caller_id: _Optional[str] = ..., password: _Optional[str] = ..., server_admin: _Optional[bool] = ..., set_realm_access: _Optional[bool] = ..., realm_access: _Optional[_Iterable[_Union[RealmAccess, _Mapping]]] = ...) -> None: ...

class UpdateAdminResponse(_message.Message):
    __slots__ = ("admin",)
    ADMIN_FIELD_NUMBER: _ClassVar[int]
    admin: AdminAccount
    def __init__(self, admin: _Optional[_Union[AdminAccount, _Mapping]] = ...) -> None: ...

class DeleteAdminRequest(_message.Message):
    __slots__ = ("id", "caller_id")
    ID_FIELD_NUMBER: _ClassVar[int]
    CALLER_ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    caller_id: str
    def __init__(self, id: _Optional[str] = ..., caller_id: _Optional[str] = ...) -> None: ...

class DeleteAdminResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
