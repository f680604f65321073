from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ErrorDetail(_message.Message):
    __slots__ = ("reason", "field", "oauth_error", "dpop_nonce")
    REASON_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    OAUTH_ERROR_FIELD_NUMBER: _ClassVar[int]
    DPOP_NONCE_FIELD_NUMBER: _ClassVar[int]
    reason: str
    field: str
    oauth_error: str
    dpop_nonce: str
    def __init__(self, reason: _Optional[str] = ..., field: _Optional[str] = ..., oauth_error: _Optional[str] = ..., dpop_nonce: _Optional[str] = ...) -> None: ...

class ServiceHealth(_message.Message):
    __slots__ = ("service", "ready", "store", "bus", "heap_used_ratio", "heap_used_bytes")
    SERVICE_FIELD_NUMBER: _ClassVar[int]
    READY_FIELD_NUMBER: _ClassVar[int]
    STORE_FIELD_NUMBER: _ClassVar[int]
    BUS_FIELD_NUMBER: _ClassVar[int]
    HEAP_USED_RATIO_FIELD_NUMBER: _ClassVar[int]
    HEAP_USED_BYTES_FIELD_NUMBER: _ClassVar[int]
    service: str
    ready: bool
    store: ComponentHealth
    bus: ComponentHealth
    heap_used_ratio: float
    heap_used_bytes: int
    def __init__(self, service: _Optional[str] = ..., ready: _Optional[bool] = ..., store: _Optional[_Union[ComponentHealth, _Mapping]] = ..., bus: _Optional[_Union[ComponentHealth, _Mapping]] = ..., heap_used_ratio: _Optional[float] = ..., heap_used_bytes: _Optional[int] = ...) -> None: ...

class ComponentHealth(_message.Message):
    __slots__ = ("up", "detail")
    UP_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    up: bool
    detail: str
    def __init__(self, up: _Optional[bool] = ..., detail: _Optional[str] = ...) -> None: ...
