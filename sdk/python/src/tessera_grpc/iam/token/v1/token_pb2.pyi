import datetime

from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from tessera_grpc.iam.kit.v1 import kit_pb2 as _kit_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
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

class Jwk(_message.Message):
    __slots__ = ("kty", "kid", "use", "alg", "n", "e", "crv", "x", "y")
    KTY_FIELD_NUMBER: _ClassVar[int]
    KID_FIELD_NUMBER: _ClassVar[int]
    USE_FIELD_NUMBER: _ClassVar[int]
    ALG_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    E_FIELD_NUMBER: _ClassVar[int]
    CRV_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    kty: str
    kid: str
    use: str
    alg: str
    n: str
    e: str
    crv: str
    x: str
    y: str
    def __init__(self, kty: _Optional[str] = ..., kid: _Optional[str] = ..., use: _Optional[str] = ..., alg: _Optional[str] = ..., n: _Optional[str] = ..., e: _Optional[str] = ..., crv: _Optional[str] = ..., x: _Optional[str] = ..., y: _Optional[str] = ...) -> None: ...

class GetJwksRequest(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: str
    def __init__(self, realm: _Optional[str] = ...) -> None: ...

class GetJwksResponse(_message.Message):
    __slots__ = ("keys",)
    KEYS_FIELD_NUMBER: _ClassVar[int]
    keys: _containers.RepeatedCompositeFieldContainer[Jwk]
    def __init__(self, keys: _Optional[_Iterable[_Union[Jwk, _Mapping]]] = ...) -> None: ...

class GetDiscoveryRequest(_message.Message):
    __slots__ = ("realm", "base_url")
    REALM_FIELD_NUMBER: _ClassVar[int]
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    realm: str
    base_url: str
    def __init__(self, realm: _Optional[str] = ..., base_url: _Optional[str] = ...) -> None: ...

class GetDiscoveryResponse(_message.Message):
    __slots__ = ("metadata",)
    METADATA_FIELD_NUMBER: _ClassVar[int]
    metadata: _struct_pb2.Struct
    def __init__(self, metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class SigningKey(_message.Message):
    __slots__ = ("kid", "alg", "status", "created_at", "rotated_at", "not_after", "public_key")
    KID_FIELD_NUMBER: _ClassVar[int]
    ALG_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ROTATED_AT_FIELD_NUMBER: _ClassVar[int]
    NOT_AFTER_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    kid: str
    alg: str
    status: str
    created_at: _timestamp_pb2.Timestamp
    rotated_at: _timestamp_pb2.Timestamp
    not_after: _timestamp_pb2.Timestamp
    public_key: Jwk
    def __init__(self, kid: _Optional[str] = ..., alg: _Optional[str] = ..., status: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., rotated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., not_after: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., public_key: _Optional[_Union[Jwk, _Mapping]] = ...) -> None: ...

class ListKeysRequest(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: str
    def __init__(self, realm: _Optional[str] = ...) -> None: ...

class ListKeysResponse(_message.Message):
    __slots__ = ("keys",)
    KEYS_FIELD_NUMBER: _ClassVar[int]
    keys: _containers.RepeatedCompositeFieldContainer[SigningKey]
    def __init__(self, keys: _Optional[_Iterable[_Union[SigningKey, _Mapping]]] = ...) -> None: ...

class RotateKeysRequest(_message.Message):
    __slots__ = ("realm", "alg")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ALG_FIELD_NUMBER: _ClassVar[int]
    realm: str
    alg: str
    def __init__(self, realm: _Optional[str] = ..., alg: _Optional[str] = ...) -> None: ...

class RotateKeysResponse(_message.Message):
    __slots__ = ("keys",)
    KEYS_FIELD_NUMBER: _ClassVar[int]
    keys: _containers.RepeatedCompositeFieldContainer[SigningKey]
    def __init__(self, keys: _Optional[_Iterable[_Union[SigningKey, _Mapping]]] = ...) -> None: ...
