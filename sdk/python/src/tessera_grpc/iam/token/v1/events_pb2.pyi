import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SsoSessionEnded(_message.Message):
    __slots__ = ("realm_id", "realm_name", "session_id", "user_id", "client_ids", "reason", "ended_at")
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    REALM_NAME_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_IDS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ENDED_AT_FIELD_NUMBER: _ClassVar[int]
    realm_id: str
    realm_name: str
    session_id: str
    user_id: str
    client_ids: _containers.RepeatedScalarFieldContainer[str]
    reason: str
    ended_at: _timestamp_pb2.Timestamp
    def __init__(self, realm_id: _Optional[str] = ..., realm_name: _Optional[str] = ..., session_id: _Optional[str] = ..., user_id: _Optional[str] = ..., client_ids: _Optional[_Iterable[str]] = ..., reason: _Optional[str] = ..., ended_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class SigningKeysChanged(_message.Message):
    __slots__ = ("realm_id", "reason", "changed_at")
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    CHANGED_AT_FIELD_NUMBER: _ClassVar[int]
    realm_id: str
    reason: str
    changed_at: _timestamp_pb2.Timestamp
    def __init__(self, realm_id: _Optional[str] = ..., reason: _Optional[str] = ..., changed_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
