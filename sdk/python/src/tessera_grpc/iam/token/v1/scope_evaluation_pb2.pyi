from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GenerateExampleTokensRequest(_message.Message):
    __slots__ = ("realm", "client_id", "user_id", "scope", "base_url")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    user_id: str
    scope: str
    base_url: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., user_id: _Optional[str] = ..., scope: _Optional[str] = ..., base_url: _Optional[str] = ...) -> None: ...

class GenerateExampleTokensResponse(_message.Message):
    __slots__ = ("access_token", "id_token", "userinfo")
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ID_TOKEN_FIELD_NUMBER: _ClassVar[int]
    USERINFO_FIELD_NUMBER: _ClassVar[int]
    access_token: _struct_pb2.Struct
    id_token: _struct_pb2.Struct
    userinfo: _struct_pb2.Struct
    def __init__(self, access_token: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., id_token: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., userinfo: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...
