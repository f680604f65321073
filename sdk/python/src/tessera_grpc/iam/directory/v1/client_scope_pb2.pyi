from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ScopeKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SCOPE_KIND_UNSPECIFIED: _ClassVar[ScopeKind]
    SCOPE_KIND_DEFAULT: _ClassVar[ScopeKind]
    SCOPE_KIND_OPTIONAL: _ClassVar[ScopeKind]
SCOPE_KIND_UNSPECIFIED: ScopeKind
SCOPE_KIND_DEFAULT: ScopeKind
SCOPE_KIND_OPTIONAL: ScopeKind

class ProtocolMapper(_message.Message):
    __slots__ = ("id", "name", "mapper_type", "protocol", "config")
    class ConfigEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    MAPPER_TYPE_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    mapper_type: str
    protocol: str
    config: _containers.ScalarMap[str, str]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., mapper_type: _Optional[str] = ..., protocol: _Optional[str] = ..., config: _Optional[_Mapping[str, str]] = ...) -> None: ...

class ClientScope(_message.Message):
    __slots__ = ("id", "name", "description", "protocol", "protocol_mappers")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_MAPPERS_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    description: str
    protocol: str
    protocol_mappers: _containers.RepeatedCompositeFieldContainer[ProtocolMapper]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., protocol: _Optional[str] = ..., protocol_mappers: _Optional[_Iterable[_Union[ProtocolMapper, _Mapping]]] = ...) -> None: ...

class ClientScopeInput(_message.Message):
    __slots__ = ("name", "description", "protocol")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    protocol: str
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., protocol: _Optional[str] = ...) -> None: ...

class ClientScopeUpdate(_message.Message):
    __slots__ = ("name", "description")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ...) -> None: ...

class ProtocolMapperInput(_message.Message):
    __slots__ = ("name", "mapper_type", "protocol", "config")
    class ConfigEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    NAME_FIELD_NUMBER: _ClassVar[int]
    MAPPER_TYPE_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    name: str
    mapper_type: str
    protocol: str
    config: _containers.ScalarMap[str, str]
    def __init__(self, name: _Optional[str] = ..., mapper_type: _Optional[str] = ..., protocol: _Optional[str] = ..., config: _Optional[_Mapping[str, str]] = ...) -> None: ...

class ProtocolMapperUpdate(_message.Message):
    __slots__ = ("name", "config", "config_present")
    class ConfigEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    NAME_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    CONFIG_PRESENT_FIELD_NUMBER: _ClassVar[int]
    name: str
    config: _containers.ScalarMap[str, str]
    config_present: bool
    def __init__(self, name: _Optional[str] = ..., config: _Optional[_Mapping[str, str]] = ..., config_present: _Optional[bool] = ...) -> None: ...

class ScopeAssignment(_message.Message):
    __slots__ = ("client_id", "client_scope_id", "client_scope_name", "kind")
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SCOPE_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SCOPE_NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    client_scope_id: str
    client_scope_name: str
    kind: str
    def __init__(self, client_id: _Optional[str] = ..., client_scope_id: _Optional[str] = ..., client_scope_name: _Optional[str] = ..., kind: _Optional[str] = ...) -> None: ...

class ScopeAssignmentInput(_message.Message):
    __slots__ = ("client_scope_id",)
    CLIENT_SCOPE_ID_FIELD_NUMBER: _ClassVar[int]
    client_scope_id: str
    def __init__(self, client_scope_id: _Optional[str] = ...) -> None: ...

class CreateClientScopeRequest(_message.Message):
    __slots__ = ("realm", "scope")
    REALM_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    scope: ClientScopeInput
    def __init__(self, realm: _Optional[str] = ..., scope: _Optional[_Union[ClientScopeInput, _Mapping]] = ...) -> None: ...

class CreateClientScopeResponse(_message.Message):
    __slots__ = ("scope",)
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    scope: ClientScope
    def __init__(self, scope: _Optional[_Union[ClientScope, _Mapping]] = ...) -> None: ...

class ListClientScopesRequest(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: str
    def __init__(self, realm: _Optional[str] = ...) -> None: ...

class ListClientScopesResponse(_message.Message):
    __slots__ = ("scopes",)
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    scopes: _containers.RepeatedCompositeFieldContainer[ClientScope]
    def __init__(self, scopes: _Optional[_Iterable[_Union[ClientScope, _Mapping]]] = ...) -> None: ...

class GetClientScopeRequest(_message.Message):
    __slots__ = ("realm", "scope_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    SCOPE_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    scope_id: str
    def __init__(self, realm: _Optional[str] = ..., scope_id: _Optional[str] = ...) -> None: ...

class GetClientScopeResponse(_message.Message):
    __slots__ = ("scope",)
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    scope: ClientScope
    def __init__(self, scope: _Optional[_Union[ClientScope, _Mapping]] = ...) -> None: ...

class UpdateClientScopeRequest(_message.Message):
    __slots__ = ("realm", "scope_id", "update")
    REALM_FIELD_NUMBER: _ClassVar[int]
    SCOPE_ID_FIELD_NUMBER: _ClassVar[int]
    UPDATE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    scope_id: str
    update: ClientScopeUpdate
    def __init__(self, realm: _Optional[str] = ..., scope_id: _Optional[str] = ..., update: _Optional[_Union[ClientScopeUpdate, _Mapping]] = ...) -> None: ...

class UpdateClientScopeResponse(_message.Message):
    __slots__ = ("scope",)
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    scope: ClientScope
    def __init__(self, scope: _Optional[_Union[ClientScope, _Mapping]] = ...) -> None: ...

class DeleteClientScopeRequest(_message.Message):
    __slots__ = ("realm", "scope_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    SCOPE_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    scope_id: str
    def __init__(self, realm: _Optional[str] = ..., scope_id: _Optional[str] = ...) -> None: ...

class DeleteClientScopeResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class CreateProtocolMapperRequest(_message.Message):
    __slots__ = ("realm", "scope_id", "mapper")
    REALM_FIELD_NUMBER: _ClassVar[int]
    SCOPE_ID_FIELD_NUMBER: _ClassVar[int]
    MAPPER_FIELD_NUMBER: _ClassVar[int]
    realm: str
    scope_id: str
    mapper: ProtocolMapperInput
    def __init__(self, realm: _Optional[str] = ..., scope_id: _Optional[str] = ..., mapper: _Optional[_Union[ProtocolMapperInput, _Mapping]] = ...) -> None: ...

class CreateProtocolMapperResponse(_message.Message):
    __slots__ = ("mapper",)
    MAPPER_FIELD_NUMBER: _ClassVar[int]
    mapper: ProtocolMapper
    def __init__(self, mapper: _Optional[_Union[ProtocolMapper, _Mapping]] = ...) -> None: ...

class UpdateProtocolMapperRequest(_message.Message):
    __slots__ = ("realm", "scope_id", "mapper_id", "update")
    REALM_FIELD_NUMBER: _ClassVar[int]
    SCOPE_ID_FIELD_NUMBER: _ClassVar[int]
    MAPPER_ID_FIELD_NUMBER: _ClassVar[int]
    UPDATE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    scope_id: str
    mapper_id: str
    update: ProtocolMapperUpdate
    def __init__(self, realm: _Optional[str] = ..., scope_id: _Optional[str] = ..., mapper_id: _Optional[str] = ..., update: _Optional[_Union[ProtocolMapperUpdate, _Mapping]] = ...) -> None: ...

class UpdateProtocolMapperResponse(_message.Message):
    __slots__ = ("mapper",)
    MAPPER_FIELD_NUMBER: _ClassVar[int]
    mapper: ProtocolMapper
    def __init__(self, mapper: _Optional[_Union[ProtocolMapper, _Mapping]] = ...) -> None: ...

class DeleteProtocolMapperRequest(_message.Message):
    __slots__ = ("realm", "scope_id", "mapper_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    SCOPE_ID_FIELD_NUMBER: _ClassVar[int]
    MAPPER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    scope_id: str
    mapper_id: str
    def __init__(self, realm: _Optional[str] = ..., scope_id: _Optional[str] = ..., mapper_id: _Optional[str] = ...) -> None: ...

class DeleteProtocolMapperResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListScopeAssignmentsRequest(_message.Message):
    __slots__ = ("realm", "client_id", "kind")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    kind: ScopeKind
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., kind: _Optional[_Union[ScopeKind, str]] = ...) -> None: ...

class ListScopeAssignmentsResponse(_message.Message):
    __slots__ = ("scopes",)
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    scopes: _containers.RepeatedCompositeFieldContainer[ClientScope]
    def __init__(self, scopes: _Optional[_Iterable[_Union[ClientScope, _Mapping]]] = ...) -> None: ...

class AssignScopeRequest(_message.Message):
    __slots__ = ("realm", "client_id", "kind", "client_scope_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SCOPE_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    kind: ScopeKind
    client_scope_id: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., kind: _Optional[_Union[ScopeKind, str]] = ..., client_scope_id: _Optional[str] = ...) -> None: ...

class AssignScopeResponse(_message.Message):
    __slots__ = ("assignment",)
    ASSIGNMENT_FIELD_NUMBER: _ClassVar[int]
    assignment: ScopeAssignment
    def __init__(self, assignment: _Optional[_Union[ScopeAssignment, _Mapping]] = ...) -> None: ...

class RemoveScopeAssignmentRequest(_message.Message):
    __slots__ = ("realm", "client_id", "kind", "scope_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SCOPE_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    kind: ScopeKind
    scope_id: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., kind: _Optional[_Union[ScopeKind, str]] = ..., scope_id: _Optional[str] = ...) -> None: ...

class RemoveScopeAssignmentResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
