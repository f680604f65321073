from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class HolderType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HOLDER_TYPE_UNSPECIFIED: _ClassVar[HolderType]
    HOLDER_TYPE_USER: _ClassVar[HolderType]
    HOLDER_TYPE_GROUP: _ClassVar[HolderType]
HOLDER_TYPE_UNSPECIFIED: HolderType
HOLDER_TYPE_USER: HolderType
HOLDER_TYPE_GROUP: HolderType

class Role(_message.Message):
    __slots__ = ("id", "name", "description", "client_role", "client_id", "composite")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ROLE_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    COMPOSITE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    description: str
    client_role: bool
    client_id: str
    composite: bool
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., client_role: _Optional[bool] = ..., client_id: _Optional[str] = ..., composite: _Optional[bool] = ...) -> None: ...

class RoleInput(_message.Message):
    __slots__ = ("name", "description")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ...) -> None: ...

class RoleNames(_message.Message):
    __slots__ = ("role_names", "client_id")
    ROLE_NAMES_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    role_names: _containers.RepeatedScalarFieldContainer[str]
    client_id: str
    def __init__(self, role_names: _Optional[_Iterable[str]] = ..., client_id: _Optional[str] = ...) -> None: ...

class CreateRoleRequest(_message.Message):
    __slots__ = ("realm", "client_id", "role")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    role: RoleInput
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., role: _Optional[_Union[RoleInput, _Mapping]] = ...) -> None: ...

class CreateRoleResponse(_message.Message):
    __slots__ = ("role",)
    ROLE_FIELD_NUMBER: _ClassVar[int]
    role: Role
    def __init__(self, role: _Optional[_Union[Role, _Mapping]] = ...) -> None: ...

class ListRolesRequest(_message.Message):
    __slots__ = ("realm", "client_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ...) -> None: ...

class ListRolesResponse(_message.Message):
    __slots__ = ("roles",)
    ROLES_FIELD_NUMBER: _ClassVar[int]
    roles: _containers.RepeatedCompositeFieldContainer[Role]
    def __init__(self, roles: _Optional[_Iterable[_Union[Role, _Mapping]]] = ...) -> None: ...

class GetRoleRequest(_message.Message):
    __slots__ = ("realm", "client_id", "name")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    name: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class GetRoleResponse(_message.Message):
    __slots__ = ("role",)
    ROLE_FIELD_NUMBER: _ClassVar[int]
    role: Role
    def __init__(self, role: _Optional[_Union[Role, _Mapping]] = ...) -> None: ...

class DeleteRoleRequest(_message.Message):
    __slots__ = ("realm", "client_id", "name")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    name: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class DeleteRoleResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListRoleMappingsRequest(_message.Message):
    __slots__ = ("realm", "holder_type", "holder_id", "client_id", "effective")
    REALM_FIELD_NUMBER: _ClassVar[int]
    HOLDER_TYPE_FIELD_NUMBER: _ClassVar[int]
    HOLDER_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    EFFECTIVE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    holder_type: HolderType
    holder_id: str
    client_id: str
    effective: bool
    def __init__(self, realm: _Optional[str] = ..., holder_type: _Optional[_Union[HolderType, str]] = ..., holder_id: _Optional[str] = ..., client_id: _Optional[str] = ..., effective: _Optional[bool] = ...) -> None: ...

class ListRoleMappingsResponse(_message.Message):
    __slots__ = ("roles",)
    ROLES_FIELD_NUMBER: _ClassVar[int]
    roles: _containers.RepeatedCompositeFieldContainer[Role]
    def __init__(self, roles: _Optional[_Iterable[_Union[Role, _Mapping]]] = ...) -> None: ...

class AssignRoleMappingsRequest(_message.Message):
    __slots__ = ("realm", "holder_type", "holder_id", "client_id", "role_names")
    REALM_FIELD_NUMBER: _ClassVar[int]
    HOLDER_TYPE_FIELD_NUMBER: _ClassVar[int]
    HOLDER_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_NAMES_FIELD_NUMBER: _ClassVar[int]
    realm: str
    holder_type: HolderType
    holder_id: str
    client_id: str
    role_names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, realm: _Optional[str] = ..., holder_type: _Optional[_Union[HolderType, str]] = ..., holder_id: _Optional[str] = ..., client_id: _Optional[str] = ..., role_names: _Optional[_Iterable[str]] = ...) -> None: ...

class AssignRoleMappingsResponse(_message.Message):
    __slots__ = ("role_names",)
    ROLE_NAMES_FIELD_NUMBER: _ClassVar[int]
    role_names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, role_names: _Optional[_Iterable[str]] = ...) -> None: ...

class RemoveRoleMappingsRequest(_message.Message):
    __slots__ = ("realm", "holder_type", "holder_id", "client_id", "role_names")
    REALM_FIELD_NUMBER: _ClassVar[int]
    HOLDER_TYPE_FIELD_NUMBER: _ClassVar[int]
    HOLDER_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_NAMES_FIELD_NUMBER: _ClassVar[int]
    realm: str
    holder_type: HolderType
    holder_id: str
    client_id: str
    role_names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, realm: _Optional[str] = ..., holder_type: _Optional[_Union[HolderType, str]] = ..., holder_id: _Optional[str] = ..., client_id: _Optional[str] = ..., role_names: _Optional[_Iterable[str]] = ...) -> None: ...

class RemoveRoleMappingsResponse(_message.Message):
    __slots__ = ("role_names",)
    ROLE_NAMES_FIELD_NUMBER: _ClassVar[int]
    role_names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, role_names: _Optional[_Iterable[str]] = ...) -> None: ...

class UpdateRoleRequest(_message.Message):
    __slots__ = ("realm", "client_id", "name", "update")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    name: str
    update: RoleInput
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., name: _Optional[str] = ..., update: _Optional[_Union[RoleInput, _Mapping]] = ...) -> None: ...

class UpdateRoleResponse(_message.Message):
    __slots__ = ("role",)
    ROLE_FIELD_NUMBER: _ClassVar[int]
    role: Role
    def __init__(self, role: _Optional[_Union[Role, _Mapping]] = ...) -> None: ...

class ListRoleCompositesRequest(_message.Message):
    __slots__ = ("realm", "client_id", "name")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    name: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class ListRoleCompositesResponse(_message.Message):
    __slots__ = ("roles",)
    ROLES_FIELD_NUMBER: _ClassVar[int]
    roles: _containers.RepeatedCompositeFieldContainer[Role]
    def __init__(self, roles: _Optional[_Iterable[_Union[Role, _Mapping]]] = ...) -> None: ...

class AddRoleCompositesRequest(_message.Message):
    __slots__ = ("realm", "client_id", "name", "role_names", "composite_client_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ROLE_NAMES_FIELD_NUMBER: _ClassVar[int]
    COMPOSITE_CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    name: str
    role_names: _containers.RepeatedScalarFieldContainer[str]
    composite_client_id: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., name: _Optional[str] = ..., role_names: _Optional[_Iterable[str]] = ..., composite_client_id: _Optional[str] = ...) -> None: ...

class AddRoleCompositesResponse(_message.Message):
    __slots__ = ("role_names",)
    ROLE_NAMES_FIELD_NUMBER: _ClassVar[int]
    role_names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, role_names: _Optional[_Iterable[str]] = ...) -> None: ...

class RemoveRoleCompositesRequest(_message.Message):
    __slots__ = ("realm", "client_id", "name", "role_names", "composite_client_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ROLE_NAMES_FIELD_NUMBER: _ClassVar[int]
    COMPOSITE_CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    name: str
    role_names: _containers.RepeatedScalarFieldContainer[str]
    composite_client_id: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., name: _Optional[str] = ..., role_names: _Optional[_Iterable[str]] = ..., composite_client_id: _Optional[str] = ...) -> None: ...

class RemoveRoleCompositesResponse(_message.Message):
    __slots__ = ("role_names",)
    ROLE_NAMES_FIELD_NUMBER: _ClassVar[int]
    role_names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, role_names: _Optional[_Iterable[str]] = ...) -> None: ...
