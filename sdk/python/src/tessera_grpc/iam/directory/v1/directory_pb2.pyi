from tessera_grpc.iam.kit.v1 import kit_pb2 as _kit_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class HealthRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class HealthResponse(_message.Message):
    __slots__ = ("health",)
    HEALTH_FIELD_NUMBER: _ClassVar[int]
    health: _kit_pb2.ServiceHealth
    def __init__(self, health: _Optional[_Union[_kit_pb2.ServiceHealth, _Mapping]] = ...) -> None: ...
