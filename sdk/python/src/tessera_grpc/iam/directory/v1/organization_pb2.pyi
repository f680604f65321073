from google.protobuf import struct_pb2 as _struct_pb2
from tessera_grpc.iam.directory.v1 import user_pb2 as _user_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class OrganizationDomain(_message.Message):
    __slots__ = ("name", "verified")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERIFIED_FIELD_NUMBER: _ClassVar[int]
    name: str
    verified: bool
    def __init__(self, name: _Optional[str] = ..., verified: _Optional[bool] = ...) -> None: ...

class Organization(_message.Message):
    __slots__ = ("id", "name", "alias", "enabled", "description", "redirect_url", "domains", "attributes", "identity_providers")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    DOMAINS_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_PROVIDERS_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    alias: str
    enabled: bool
    description: str
    redirect_url: str
    domains: _containers.RepeatedCompositeFieldContainer[OrganizationDomain]
    attributes: _struct_pb2.Struct
    identity_providers: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., alias: _Optional[str] = ..., enabled: _Optional[bool] = ..., description: _Optional[str] = ..., redirect_url: _Optional[str] = ..., domains: _Optional[_Iterable[_Union[OrganizationDomain, _Mapping]]] = ..., attributes: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., identity_providers: _Optional[_Iterable[str]] = ...) -> None: ...

class OrganizationInput(_message.Message):
    __slots__ = ("id", "name", "alias", "enabled", "description", "redirect_url", "domains", "attributes", "identity_providers")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    DOMAINS_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_PROVIDERS_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    alias: str
    enabled: bool
    description: str
    redirect_url: str
    domains: _struct_pb2.ListValue
    attributes: _struct_pb2.Struct
    identity_providers: _struct_pb2.ListValue
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., alias: _Optional[str] = ..., enabled: _Optional[bool] = ..., description: _Optional[str] = ..., redirect_url: _Optional[str] = ..., domains: _Optional[_Union[_struct_pb2.ListValue, _Mapping]] = ..., attributes: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., identity_providers: _Optional[_Union[_struct_pb2.ListValue, _Mapping]] = ...) -> None: ...

class CreateOrganizationRequest(_message.Message):
    __slots__ = ("realm", "organization")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization: OrganizationInput
    def __init__(self, realm: _Optional[str] = ..., organization: _Optional[_Union[OrganizationInput, _Mapping]] = ...) -> None: ...

class CreateOrganizationResponse(_message.Message):
    __slots__ = ("organization",)
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    organization: Organization
    def __init__(self, organization: _Optional[_Union[Organization, _Mapping]] = ...) -> None: ...

class ListOrganizationsRequest(_message.Message):
    __slots__ = ("realm", "search", "exact", "first", "max", "brief")
    REALM_FIELD_NUMBER: _ClassVar[int]
    SEARCH_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    BRIEF_FIELD_NUMBER: _ClassVar[int]
    realm: str
    search: str
    exact: bool
    first: int
    max: int
    brief: bool
    def __init__(self, realm: _Optional[str] = ..., search: _Optional[str] = ..., exact: _Optional[bool] = ..., first: _Optional[int] = ..., max: _Optional[int] = ..., brief: _Optional[bool] = ...) -> None: ...

class ListOrganizationsResponse(_message.Message):
    __slots__ = ("organizations",)
    ORGANIZATIONS_FIELD_NUMBER: _ClassVar[int]
    organizations: _containers.RepeatedCompositeFieldContainer[Organization]
    def __init__(self, organizations: _Optional[_Iterable[_Union[Organization, _Mapping]]] = ...) -> None: ...

class CountOrganizationsRequest(_message.Message):
    __slots__ = ("realm", "search", "exact")
    REALM_FIELD_NUMBER: _ClassVar[int]
    SEARCH_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    realm: str
    search: str
    exact: bool
    def __init__(self, realm: _Optional[str] = ..., search: _Optional[str] = ..., exact: _Optional[bool] = ...) -> None: ...

class CountOrganizationsResponse(_message.Message):
    __slots__ = ("count",)
    COUNT_FIELD_NUMBER: _ClassVar[int]
    count: int
    def __init__(self, count: _Optional[int] = ...) -> None: ...

class GetOrganizationRequest(_message.Message):
    __slots__ = ("realm", "organization_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization_id: str
    def __init__(self, realm: _Optional[str] = ..., organization_id: _Optional[str] = ...) -> None: ...

class GetOrganizationResponse(_message.Message):
    __slots__ = ("organization",)
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    organization: Organization
    def __init__(self, organization: _Optional[_Union[Organization, _Mapping]] = ...) -> None: ...

class UpdateOrganizationRequest(_message.Message):
    __slots__ = ("realm", "organization_id", "organization")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization_id: str
    organization: OrganizationInput
    def __init__(self, realm: _Optional[str] = ..., organization_id: _Optional[str] = ..., organization: _Optional[_Union[OrganizationInput, _Mapping]] = ...) -> None: ...

class UpdateOrganizationResponse(_message.Message):
    __slots__ = ("organization",)
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    organization: Organization
    def __init__(self, organization: _Optional[_Union[Organization, _Mapping]] = ...) -> None: ...

class DeleteOrganizationRequest(_message.Message):
    __slots__ = ("realm", "organization_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization_id: str
    def __init__(self, realm: _Optional[str] = ..., organization_id: _Optional[str] = ...) -> None: ...

class DeleteOrganizationResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Member(_message.Message):
    __slots__ = ("user", "membership_type")
    USER_FIELD_NUMBER: _ClassVar[int]
    MEMBERSHIP_TYPE_FIELD_NUMBER: _ClassVar[int]
    user: _user_pb2.User
    membership_type: str
    def __init__(self, user: _Optional[_Union[_user_pb2.User, _Mapping]] = ..., membership_type: _Optional[str] = ...) -> None: ...

class AddMemberRequest(_message.Message):
    __slots__ = ("realm", "organization_id", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization_id: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., organization_id: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class AddMemberResponse(_message.Message):
    __slots__ = ("member",)
    MEMBER_FIELD_NUMBER: _ClassVar[int]
    member: Member
    def __init__(self, member: _Optional[_Union[Member, _Mapping]] = ...) -> None: ...

class ListMembersRequest(_message.Message):
    __slots__ = ("realm", "organization_id", "search", "first", "max", "membership_type")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    SEARCH_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    MEMBERSHIP_TYPE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization_id: str
    search: str
    first: int
    max: int
    membership_type: str
    def __init__(self, realm: _Optional[str] = ..., organization_id: _Optional[str] = ..., search: _Optional[str] = ..., first: _Optional[int] = ..., max: _Optional[int] = ..., membership_type: _Optional[str] = ...) -> None: ...

class ListMembersResponse(_message.Message):
    __slots__ = ("members",)
    MEMBERS_FIELD_NUMBER: _ClassVar[int]
    members: _containers.RepeatedCompositeFieldContainer[Member]
    def __init__(self, members: _Optional[_Iterable[_Union[Member, _Mapping]]] = ...) -> None: ...

class CountMembersRequest(_message.Message):
    __slots__ = ("realm", "organization_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization_id: str
    def __init__(self, realm: _Optional[str] = ..., organization_id: _Optional[str] = ...) -> None: ...

class CountMembersResponse(_message.Message):
    __slots__ = ("count",)
    COUNT_FIELD_NUMBER: _ClassVar[int]
    count: int
    def __init__(self, count: _Optional[int] = ...) -> None: ...

class GetMemberRequest(_message.Message):
    __slots__ = ("realm", "organization_id", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization_id: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., organization_id: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class GetMemberResponse(_message.Message):
    __slots__ = ("member",)
    MEMBER_FIELD_NUMBER: _ClassVar[int]
    member: Member
    def __init__(self, member: _Optional[_Union[Member, _Mapping]] = ...) -> None: ...

class RemoveMemberRequest(_message.Message):
    __slots__ = ("realm", "organization_id", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization_id: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., organization_id: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class RemoveMemberResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SetMembershipTypeRequest(_message.Message):
    __slots__ = ("realm", "organization_id", "user_id", "membership_type")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    MEMBERSHIP_TYPE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization_id: str
    user_id: str
    membership_type: str
    def __init__(self, realm: _Optional[str] = ..., organization_id: _Optional[str] = ..., user_id: _Optional[str] = ..., membership_type: _Optional[str] = ...) -> None: ...

class SetMembershipTypeResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListMemberOrganizationsRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class ListMemberOrganizationsResponse(_message.Message):
    __slots__ = ("organizations",)
    ORGANIZATIONS_FIELD_NUMBER: _ClassVar[int]
    organizations: _containers.RepeatedCompositeFieldContainer[Organization]
    def __init__(self, organizations: _Optional[_Iterable[_Union[Organization, _Mapping]]] = ...) -> None: ...

class InviteUserRequest(_message.Message):
    __slots__ = ("realm", "organization_id", "email", "first_name", "last_name")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    FIRST_NAME_FIELD_NUMBER: _ClassVar[int]
    LAST_NAME_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization_id: str
    email: str
    first_name: str
    last_name: str
    def __init__(self, realm: _Optional[str] = ..., organization_id: _Optional[str] = ..., email: _Optional[str] = ..., first_name: _Optional[str] = ..., last_name: _Optional[str] = ...) -> None: ...

class InviteExistingUserRequest(_message.Message):
    __slots__ = ("realm", "organization_id", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization_id: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., organization_id: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class InviteUserResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class InviteExistingUserResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AcceptInvitationRequest(_message.Message):
    __slots__ = ("realm", "token", "username", "password", "first_name", "last_name", "inspect")
    REALM_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    FIRST_NAME_FIELD_NUMBER: _ClassVar[int]
    LAST_NAME_FIELD_NUMBER: _ClassVar[int]
    INSPECT_FIELD_NUMBER: _ClassVar[int]
    realm: str
    token: str
    username: str
    password: str
    first_name: str
    last_name: str
    inspect: bool
    def __init__(self, realm: _Optional[str] = ..., token: _Optional[str] = ..., username: _Optional[str] = ..., password: _Optional[str] = ..., first_name: _Optional[str] = ..., last_name: _Optional[str] = ..., inspect: _Optional[bool] = ...) -> None: ...

class AcceptInvitationResponse(_message.Message):
    __slots__ = ("organization_name", "email", "needs_account", "user_id", "redirect_url", "first_name", "last_name")
    ORGANIZATION_NAME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    NEEDS_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    FIRST_NAME_FIELD_NUMBER: _ClassVar[int]
    LAST_NAME_FIELD_NUMBER: _ClassVar[int]
    organization_name: str
    email: str
    needs_account: bool
    user_id: str
    redirect_url: str
    first_name: str
    last_name: str
    def __init__(self, organization_name: _Optional[str] = ..., email: _Optional[str] = ..., needs_account: _Optional[bool] = ..., user_id: _Optional[str] = ..., redirect_url: _Optional[str] = ..., first_name: _Optional[str] = ..., last_name: _Optional[str] = ...) -> None: ...

class FindByEmailDomainRequest(_message.Message):
    __slots__ = ("realm", "email")
    REALM_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    realm: str
    email: str
    def __init__(self, realm: _Optional[str] = ..., email: _Optional[str] = ...) -> None: ...

class FindByEmailDomainResponse(_message.Message):
    __slots__ = ("organization_id", "alias", "identity_providers")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_PROVIDERS_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    alias: str
    identity_providers: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, organization_id: _Optional[str] = ..., alias: _Optional[str] = ..., identity_providers: _Optional[_Iterable[str]] = ...) -> None: ...

class OrganizationRole(_message.Message):
    __slots__ = ("name", "description")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ...) -> None: ...

class CreateOrganizationRoleRequest(_message.Message):
    __slots__ = ("realm", "organization_id", "name", "description")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization_id: str
    name: str
    description: str
    def __init__(self, realm: _Optional[str] = ..., organization_id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ...) -> None: ...

class CreateOrganizationRoleResponse(_message.Message):
    __slots__ = ("role",)
    ROLE_FIELD_NUMBER: _ClassVar[int]
    role: OrganizationRole
    def __init__(self, role: _Optional[_Union[OrganizationRole, _Mapping]] = ...) -> None: ...

class ListOrganizationRolesRequest(_message.Message):
    __slots__ = ("realm", "organization_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization_id: str
    def __init__(self, realm: _Optional[str] = ..., organization_id: _Optional[str] = ...) -> None: ...

class ListOrganizationRolesResponse(_message.Message):
    __slots__ = ("roles",)
    ROLES_FIELD_NUMBER: _ClassVar[int]
    roles: _containers.RepeatedCompositeFieldContainer[OrganizationRole]
    def __init__(self, roles: _Optional[_Iterable[_Union[OrganizationRole, _Mapping]]] = ...) -> None: ...

class DeleteOrganizationRoleRequest(_message.Message):
    __slots__ = ("realm", "organization_id", "name")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization_id: str
    name: str
    def __init__(self, realm: _Optional[str] = ..., organization_id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class DeleteOrganizationRoleResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListMemberRolesRequest(_message.Message):
    __slots__ = ("realm", "organization_id", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization_id: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., organization_id: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class ListMemberRolesResponse(_message.Message):
    __slots__ = ("roles",)
    ROLES_FIELD_NUMBER: _ClassVar[int]
    roles: _containers.RepeatedCompositeFieldContainer[OrganizationRole]
    def __init__(self, roles: _Optional[_Iterable[_Union[OrganizationRole, _Mapping]]] = ...) -> None: ...

class ChangeMemberRolesRequest(_message.Message):
    __slots__ = ("realm", "organization_id", "user_id", "role_names", "remove")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_NAMES_FIELD_NUMBER: _ClassVar[int]
    REMOVE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    organization_id: str
    user_id: str
    role_names: _containers.RepeatedScalarFieldContainer[str]
    remove: bool
    def __init__(self, realm: _Optional[str] = ..., organization_id: _Optional[str] = ..., user_id: _Optional[str] = ..., role_names: _Optional[_Iterable[str]] = ..., remove: _Optional[bool] = ...) -> None: ...

class ChangeMemberRolesResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class OnboardBrokeredUserRequest(_message.Message):
    __slots__ = ("realm", "identity_provider_alias", "user_id", "created")
    REALM_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_PROVIDER_ALIAS_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    realm: str
    identity_provider_alias: str
    user_id: str
    created: bool
    def __init__(self, realm: _Optional[str] = ..., identity_provider_alias: _Optional[str] = ..., user_id: _Optional[str] = ..., created: _Optional[bool] = ...) -> None: ...

class OnboardBrokeredUserResponse(_message.Message):
    __slots__ = ("organization_ids",)
    ORGANIZATION_IDS_FIELD_NUMBER: _ClassVar[int]
    organization_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, organization_ids: _Optional[_Iterable[str]] = ...) -> None: ...
