import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from tessera_grpc.iam.kit.v1 import kit_pb2 as _kit_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AuthDetails(_message.Message):
    __slots__ = ("type", "admin_id", "username", "ip_address")
    TYPE_FIELD_NUMBER: _ClassVar[int]
    ADMIN_ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    type: str
    admin_id: str
    username: str
    ip_address: str
    def __init__(self, type: _Optional[str] = ..., admin_id: _Optional[str] = ..., username: _Optional[str] = ..., ip_address: _Optional[str] = ...) -> None: ...

class AdminEvent(_message.Message):
    __slots__ = ("id", "time", "realm", "operation_type", "resource_type", "resource_path", "auth_details", "representation", "request_id")
    ID_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    REALM_FIELD_NUMBER: _ClassVar[int]
    OPERATION_TYPE_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_TYPE_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_PATH_FIELD_NUMBER: _ClassVar[int]
    AUTH_DETAILS_FIELD_NUMBER: _ClassVar[int]
    REPRESENTATION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    time: _timestamp_pb2.Timestamp
    realm: str
    operation_type: str
    resource_type: str
    resource_path: str
    auth_details: AuthDetails
    representation: str
    request_id: str
    def __init__(self, id: _Optional[str] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., realm: _Optional[str] = ..., operation_type: _Optional[str] = ..., resource_type: _Optional[str] = ..., resource_path: _Optional[str] = ..., auth_details: _Optional[_Union[AuthDetails, _Mapping]] = ..., representation: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class QueryAdminEventsRequest(_message.Message):
    __slots__ = ("realm", "operation_type", "resource_type", "date_from", "date_to", "first", "max")
    REALM_FIELD_NUMBER: _ClassVar[int]
    OPERATION_TYPE_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_TYPE_FIELD_NUMBER: _ClassVar[int]
    DATE_FROM_FIELD_NUMBER: _ClassVar[int]
    DATE_TO_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    realm: str
    operation_type: str
    resource_type: str
    date_from: _timestamp_pb2.Timestamp
    date_to: _timestamp_pb2.Timestamp
    first: int
    max: int
    def __init__(self, realm: _Optional[str] = ..., operation_type: _Optional[str] = ..., resource_type: _Optional[str] = ..., date_from: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., date_to: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., first: _Optional[int] = ..., max: _Optional[int] = ...) -> None: ...

class QueryAdminEventsResponse(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[AdminEvent]
    def __init__(self, events: _Optional[_Iterable[_Union[AdminEvent, _Mapping]]] = ...) -> None: ...

class HealthRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class HealthResponse(_message.Message):
    __slots__ = ("health",)
    HEALTH_FIELD_NUMBER: _ClassVar[int]
    health: _kit_pb2.ServiceHealth
    def __init__(self, health: _Optional[_Union[_kit_pb2.ServiceHealth, _Mapping]] = ...) -> None: ...

class LoginEvent(_message.Message):
    __slots__ = ("id", "time", "realm", "type", "client_id", "user_id", "session_id", "ip_address", "error", "details", "expires_at")
    class DetailsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    REALM_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    time: _timestamp_pb2.Timestamp
    realm: str
    type: str
    client_id: str
    user_id: str
    session_id: str
    ip_address: str
    error: str
    details: _containers.ScalarMap[str, str]
    expires_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., realm: _Optional[str] = ..., type: _Optional[str] = ..., client_id: _Optional[str] = ..., user_id: _Optional[str] = ..., session_id: _Optional[str] = ..., ip_address: _Optional[str] = ..., error: _Optional[str] = ..., details: _Optional[_Mapping[str, str]] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class QueryLoginEventsRequest(_message.Message):
    __slots__ = ("realm", "type", "user_id", "client_id", "date_from", "date_to", "first", "max")
    REALM_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    DATE_FROM_FIELD_NUMBER: _ClassVar[int]
    DATE_TO_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    realm: str
    type: str
    user_id: str
    client_id: str
    date_from: _timestamp_pb2.Timestamp
    date_to: _timestamp_pb2.Timestamp
    first: int
    max: int
    def __init__(self, realm: _Optional[str] = ..., type: _Optional[str] = ..., user_id: _Optional[str] = ..., client_id: _Optional[str] = ..., date_from: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., date_to: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., first: _Optional[int] = ..., max: _Optional[int] = ...) -> None: ...

class QueryLoginEventsResponse(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[LoginEvent]
    def __init__(self, events: _Optional[_Iterable[_Union[LoginEvent, _Mapping]]] = ...) -> None: ...

class ClearLoginEventsRequest(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: str
    def __init__(self, realm: _Optional[str] = ...) -> None: ...

class ClearLoginEventsResponse(_message.Message):
    __slots__ = ("deleted",)
    DELETED_FIELD_NUMBER: _ClassVar[int]
    deleted: int
    def __init__(self, deleted: _Optional[int] = ...) -> None: ...
