import datetime

from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AuthenticationFlow(_message.Message):
    __slots__ = ("id", "alias", "description", "built_in", "steps", "created_at", "updated_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    BUILT_IN_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    alias: str
    description: str
    built_in: bool
    steps: _struct_pb2.ListValue
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., alias: _Optional[str] = ..., description: _Optional[str] = ..., built_in: _Optional[bool] = ..., steps: _Optional[_Union[_struct_pb2.ListValue, _Mapping]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class AuthenticationFlowInput(_message.Message):
    __slots__ = ("alias", "description", "steps")
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    alias: str
    description: str
    steps: _struct_pb2.ListValue
    def __init__(self, alias: _Optional[str] = ..., description: _Optional[str] = ..., steps: _Optional[_Union[_struct_pb2.ListValue, _Mapping]] = ...) -> None: ...

class CreateFlowRequest(_message.Message):
    __slots__ = ("realm", "flow")
    REALM_FIELD_NUMBER: _ClassVar[int]
    FLOW_FIELD_NUMBER: _ClassVar[int]
    realm: str
    flow: AuthenticationFlowInput
    def __init__(self, realm: _Optional[str] = ..., flow: _Optional[_Union[AuthenticationFlowInput, _Mapping]] = ...) -> None: ...

class CreateFlowResponse(_message.Message):
    __slots__ = ("flow",)
    FLOW_FIELD_NUMBER: _ClassVar[int]
    flow: AuthenticationFlow
    def __init__(self, flow: _Optional[_Union[AuthenticationFlow, _Mapping]] = ...) -> None: ...

class ListFlowsRequest(_message.Message):
    __slots__ = ("realm", "first", "max")
    REALM_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    realm: str
    first: int
    max: int
    def __init__(self, realm: _Optional[str] = ..., first: _Optional[int] = ..., max: _Optional[int] = ...) -> None: ...

class ListFlowsResponse(_message.Message):
    __slots__ = ("flows",)
    FLOWS_FIELD_NUMBER: _ClassVar[int]
    flows: _containers.RepeatedCompositeFieldContainer[AuthenticationFlow]
    def __init__(self, flows: _Optional[_Iterable[_Union[AuthenticationFlow, _Mapping]]] = ...) -> None: ...

class GetFlowRequest(_message.Message):
    __slots__ = ("realm", "id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    id: str
    def __init__(self, realm: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class GetFlowResponse(_message.Message):
    __slots__ = ("flow",)
    FLOW_FIELD_NUMBER: _ClassVar[int]
    flow: AuthenticationFlow
    def __init__(self, flow: _Optional[_Union[AuthenticationFlow, _Mapping]] = ...) -> None: ...

class GetFlowByAliasRequest(_message.Message):
    __slots__ = ("realm", "alias")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    alias: str
    def __init__(self, realm: _Optional[str] = ..., alias: _Optional[str] = ...) -> None: ...

class GetFlowByAliasResponse(_message.Message):
    __slots__ = ("flow",)
    FLOW_FIELD_NUMBER: _ClassVar[int]
    flow: AuthenticationFlow
    def __init__(self, flow: _Optional[_Union[AuthenticationFlow, _Mapping]] = ...) -> None: ...

class UpdateFlowRequest(_message.Message):
    __slots__ = ("realm", "id", "flow")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    FLOW_FIELD_NUMBER: _ClassVar[int]
    realm: str
    id: str
    flow: AuthenticationFlowInput
    def __init__(self, realm: _Optional[str] = ..., id: _Optional[str] = ..., flow: _Optional[_Union[AuthenticationFlowInput, _Mapping]] = ...) -> None: ...

class UpdateFlowResponse(_message.Message):
    __slots__ = ("flow",)
    FLOW_FIELD_NUMBER: _ClassVar[int]
    flow: AuthenticationFlow
    def __init__(self, flow: _Optional[_Union[AuthenticationFlow, _Mapping]] = ...) -> None: ...

class DeleteFlowRequest(_message.Message):
    __slots__ = ("realm", "id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    id: str
    def __init__(self, realm: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class DeleteFlowResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class FlowCondition(_message.Message):
    __slots__ = ("type", "config")
    class ConfigEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    TYPE_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    type: str
    config: _containers.ScalarMap[str, str]
    def __init__(self, type: _Optional[str] = ..., config: _Optional[_Mapping[str, str]] = ...) -> None: ...

class EvaluateConditionsRequest(_message.Message):
    __slots__ = ("realm", "user_id", "client_id", "conditions")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CONDITIONS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    client_id: str
    conditions: _containers.RepeatedCompositeFieldContainer[FlowCondition]
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., client_id: _Optional[str] = ..., conditions: _Optional[_Iterable[_Union[FlowCondition, _Mapping]]] = ...) -> None: ...

class EvaluateConditionsResponse(_message.Message):
    __slots__ = ("holds",)
    HOLDS_FIELD_NUMBER: _ClassVar[int]
    holds: _containers.RepeatedScalarFieldContainer[bool]
    def __init__(self, holds: _Optional[_Iterable[bool]] = ...) -> None: ...

class SendLoginCodeRequest(_message.Message):
    __slots__ = ("realm", "user_id", "code", "minutes")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    MINUTES_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    code: str
    minutes: int
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., code: _Optional[str] = ..., minutes: _Optional[int] = ...) -> None: ...

class SendLoginCodeResponse(_message.Message):
    __slots__ = ("email",)
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    email: str
    def __init__(self, email: _Optional[str] = ...) -> None: ...
