from tessera_grpc.iam.directory.v1 import realm_pb2 as _realm_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BeginRealmImportRequest(_message.Message):
    __slots__ = ("realm_json", "overwrite")
    REALM_JSON_FIELD_NUMBER: _ClassVar[int]
    OVERWRITE_FIELD_NUMBER: _ClassVar[int]
    realm_json: bytes
    overwrite: bool
    def __init__(self, realm_json: _Optional[bytes] = ..., overwrite: _Optional[bool] = ...) -> None: ...

class BeginRealmImportResponse(_message.Message):
    __slots__ = ("realm_id",)
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    realm_id: str
    def __init__(self, realm_id: _Optional[str] = ...) -> None: ...

class HeartbeatRealmImportRequest(_message.Message):
    __slots__ = ("realm", "realm_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    realm_id: str
    def __init__(self, realm: _Optional[str] = ..., realm_id: _Optional[str] = ...) -> None: ...

class FinishRealmImportRequest(_message.Message):
    __slots__ = ("realm", "realm_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    realm_id: str
    def __init__(self, realm: _Optional[str] = ..., realm_id: _Optional[str] = ...) -> None: ...

class AbortRealmImportRequest(_message.Message):
    __slots__ = ("realm", "realm_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    realm_id: str
    def __init__(self, realm: _Optional[str] = ..., realm_id: _Optional[str] = ...) -> None: ...

class HeartbeatRealmImportResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class FinishRealmImportResponse(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: _realm_pb2.Realm
    def __init__(self, realm: _Optional[_Union[_realm_pb2.Realm, _Mapping]] = ...) -> None: ...

class AbortRealmImportResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
