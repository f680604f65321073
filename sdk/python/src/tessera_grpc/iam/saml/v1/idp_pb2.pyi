import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SigningKey(_message.Message):
    __slots__ = ("id", "status", "algorithm", "certificate", "subject", "not_before", "not_after", "fingerprint_sha256", "created_at", "retires_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ALGORITHM_FIELD_NUMBER: _ClassVar[int]
    CERTIFICATE_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    NOT_BEFORE_FIELD_NUMBER: _ClassVar[int]
    NOT_AFTER_FIELD_NUMBER: _ClassVar[int]
    FINGERPRINT_SHA256_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    RETIRES_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    status: str
    algorithm: str
    certificate: str
    subject: str
    not_before: _timestamp_pb2.Timestamp
    not_after: _timestamp_pb2.Timestamp
    fingerprint_sha256: str
    created_at: _timestamp_pb2.Timestamp
    retires_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., status: _Optional[str] = ..., algorithm: _Optional[str] = ..., certificate: _Optional[str] = ..., subject: _Optional[str] = ..., not_before: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., not_after: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., fingerprint_sha256: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., retires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListSigningKeysRequest(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: str
    def __init__(self, realm: _Optional[str] = ...) -> None: ...

class ListSigningKeysResponse(_message.Message):
    __slots__ = ("keys",)
    KEYS_FIELD_NUMBER: _ClassVar[int]
    keys: _containers.RepeatedCompositeFieldContainer[SigningKey]
    def __init__(self, keys: _Optional[_Iterable[_Union[SigningKey, _Mapping]]] = ...) -> None: ...

class RotateSigningKeyRequest(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: str
    def __init__(self, realm: _Optional[str] = ...) -> None: ...

class RotateSigningKeyResponse(_message.Message):
    __slots__ = ("key",)
    KEY_FIELD_NUMBER: _ClassVar[int]
    key: SigningKey
    def __init__(self, key: _Optional[_Union[SigningKey, _Mapping]] = ...) -> None: ...

class GetMetadataRequest(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: str
    def __init__(self, realm: _Optional[str] = ...) -> None: ...

class GetMetadataResponse(_message.Message):
    __slots__ = ("xml",)
    XML_FIELD_NUMBER: _ClassVar[int]
    xml: str
    def __init__(self, xml: _Optional[str] = ...) -> None: ...
