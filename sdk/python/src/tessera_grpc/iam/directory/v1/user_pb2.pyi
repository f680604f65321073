import datetime

from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class User(_message.Message):
    __slots__ = ("id", "username", "email", "first_name", "last_name", "enabled", "email_verified", "require_password_reset", "created_at", "updated_at", "attributes", "federation_link", "required_actions")
    ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    FIRST_NAME_FIELD_NUMBER: _ClassVar[int]
    LAST_NAME_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_PASSWORD_RESET_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    FEDERATION_LINK_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    id: str
    username: str
    email: str
    first_name: str
    last_name: str
    enabled: bool
    email_verified: bool
    require_password_reset: bool
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    attributes: _struct_pb2.Struct
    federation_link: str
    required_actions: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., username: _Optional[str] = ..., email: _Optional[str] = ..., first_name: _Optional[str] = ..., last_name: _Optional[str] = ..., enabled: _Optional[bool] = ..., email_verified: _Optional[bool] = ..., require_password_reset: _Optional[bool] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., attributes: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., federation_link: _Optional[str] = ..., required_actions: _Optional[_Iterable[str]] = ...) -> None: ...

class UserInput(_message.Message):
    __slots__ = ("username", "email", "first_name", "last_name", "enabled", "email_verified", "require_password_reset", "password", "attributes", "required_actions")
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    FIRST_NAME_FIELD_NUMBER: _ClassVar[int]
    LAST_NAME_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_PASSWORD_RESET_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    username: str
    email: str
    first_name: str
    last_name: str
    enabled: bool
    email_verified: bool
    require_password_reset: bool
    password: str
    attributes: _struct_pb2.Struct
    required_actions: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, username: _Optional[str] = ..., email: _Optional[str] = ..., first_name: _Optional[str] = ..., last_name: _Optional[str] = ..., enabled: _Optional[bool] = ..., email_verified: _Optional[bool] = ..., require_password_reset: _Optional[bool] = ..., password: _Optional[str] = ..., attributes: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., required_actions: _Optional[_Iterable[str]] = ...) -> None: ...

class UserUpdate(_message.Message):
    __slots__ = ("username", "email", "first_name", "last_name", "enabled", "email_verified", "require_password_reset", "attributes", "required_actions", "required_actions_present")
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    FIRST_NAME_FIELD_NUMBER: _ClassVar[int]
    LAST_NAME_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_PASSWORD_RESET_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_ACTIONS_PRESENT_FIELD_NUMBER: _ClassVar[int]
    username: str
    email: str
    first_name: str
    last_name: str
    enabled: bool
    email_verified: bool
    require_password_reset: bool
    attributes: _struct_pb2.Struct
    required_actions: _containers.RepeatedScalarFieldContainer[str]
    required_actions_present: bool
    def __init__(self, username: _Optional[str] = ..., email: _Optional[str] = ..., first_name: _Optional[str] = ..., last_name: _Optional[str] = ..., enabled: _Optional[bool] = ..., email_verified: _Optional[bool] = ..., require_password_reset: _Optional[bool] = ..., attributes: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., required_actions: _Optional[_Iterable[str]] = ..., required_actions_present: _Optional[bool] = ...) -> None: ...

class CreateUserRequest(_message.Message):
    __slots__ = ("realm", "user")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user: UserInput
    def __init__(self, realm: _Optional[str] = ..., user: _Optional[_Union[UserInput, _Mapping]] = ...) -> None: ...

class CreateUserResponse(_message.Message):
    __slots__ = ("user",)
    USER_FIELD_NUMBER: _ClassVar[int]
    user: User
    def __init__(self, user: _Optional[_Union[User, _Mapping]] = ...) -> None: ...

class ListUsersRequest(_message.Message):
    __slots__ = ("realm", "skip", "limit", "search", "username", "email", "enabled")
    REALM_FIELD_NUMBER: _ClassVar[int]
    SKIP_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    SEARCH_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    realm: str
    skip: int
    limit: int
    search: str
    username: str
    email: str
    enabled: bool
    def __init__(self, realm: _Optional[str] = ..., skip: _Optional[int] = ..., limit: _Optional[int] = ..., search: _Optional[str] = ..., username: _Optional[str] = ..., email: _Optional[str] = ..., enabled: _Optional[bool] = ...) -> None: ...

class ListUsersResponse(_message.Message):
    __slots__ = ("total", "users")
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    USERS_FIELD_NUMBER: _ClassVar[int]
    total: int
    users: _containers.RepeatedCompositeFieldContainer[User]
    def __init__(self, total: _Optional[int] = ..., users: _Optional[_Iterable[_Union[User, _Mapping]]] = ...) -> None: ...

class GetUserRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class GetUserResponse(_message.Message):
    __slots__ = ("user",)
    USER_FIELD_NUMBER: _ClassVar[int]
    user: User
    def __init__(self, user: _Optional[_Union[User, _Mapping]] = ...) -> None: ...

class UpdateUserRequest(_message.Message):
    __slots__ = ("realm", "user_id", "update")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    UPDATE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    update: UserUpdate
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., update: _Optional[_Union[UserUpdate, _Mapping]] = ...) -> None: ...

class UpdateUserResponse(_message.Message):
    __slots__ = ("user",)
    USER_FIELD_NUMBER: _ClassVar[int]
    user: User
    def __init__(self, user: _Optional[_Union[User, _Mapping]] = ...) -> None: ...

class GetOwnProfileRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class GetOwnProfileResponse(_message.Message):
    __slots__ = ("user", "username_editable")
    USER_FIELD_NUMBER: _ClassVar[int]
    USERNAME_EDITABLE_FIELD_NUMBER: _ClassVar[int]
    user: User
    username_editable: bool
    def __init__(self, user: _Optional[_Union[User, _Mapping]] = ..., username_editable: _Optional[bool] = ...) -> None: ...

class UpdateOwnProfileRequest(_message.Message):
    __slots__ = ("realm", "user_id", "username", "email", "first_name", "last_name", "complete_update_profile")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    FIRST_NAME_FIELD_NUMBER: _ClassVar[int]
    LAST_NAME_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_UPDATE_PROFILE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    username: str
    email: str
    first_name: str
    last_name: str
    complete_update_profile: bool
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., username: _Optional[str] = ..., email: _Optional[str] = ..., first_name: _Optional[str] = ..., last_name: _Optional[str] = ..., complete_update_profile: _Optional[bool] = ...) -> None: ...

class UpdateOwnProfileResponse(_message.Message):
    __slots__ = ("user", "previous_username", "previous_email")
    USER_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_USERNAME_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_EMAIL_FIELD_NUMBER: _ClassVar[int]
    user: User
    previous_username: str
    previous_email: str
    def __init__(self, user: _Optional[_Union[User, _Mapping]] = ..., previous_username: _Optional[str] = ..., previous_email: _Optional[str] = ...) -> None: ...

class DeleteUserRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class DeleteUserResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ResetPasswordRequest(_message.Message):
    __slots__ = ("realm", "user_id", "password", "temporary")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    TEMPORARY_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    password: str
    temporary: bool
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., password: _Optional[str] = ..., temporary: _Optional[bool] = ...) -> None: ...

class ResetPasswordResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SendVerificationEmailRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class SendVerificationEmailResponse(_message.Message):
    __slots__ = ("message",)
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class ExecuteActionsEmailRequest(_message.Message):
    __slots__ = ("realm", "user_id", "actions", "lifespan", "client_id", "redirect_uri")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URI_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    actions: _containers.RepeatedScalarFieldContainer[str]
    lifespan: int
    client_id: str
    redirect_uri: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., actions: _Optional[_Iterable[str]] = ..., lifespan: _Optional[int] = ..., client_id: _Optional[str] = ..., redirect_uri: _Optional[str] = ...) -> None: ...

class ExecuteActionsEmailResponse(_message.Message):
    __slots__ = ("email",)
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    email: str
    def __init__(self, email: _Optional[str] = ...) -> None: ...

class SendTestEmailRequest(_message.Message):
    __slots__ = ("realm", "to")
    REALM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    realm: str
    to: str
    def __init__(self, realm: _Optional[str] = ..., to: _Optional[str] = ...) -> None: ...

class SendTestEmailResponse(_message.Message):
    __slots__ = ("message",)
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class UserDeleted(_message.Message):
    __slots__ = ("realm_id", "realm_name", "user_id")
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    REALM_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm_id: str
    realm_name: str
    user_id: str
    def __init__(self, realm_id: _Optional[str] = ..., realm_name: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class UserDisabled(_message.Message):
    __slots__ = ("realm_id", "realm_name", "user_id")
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    REALM_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm_id: str
    realm_name: str
    user_id: str
    def __init__(self, realm_id: _Optional[str] = ..., realm_name: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class ServiceAccountChanged(_message.Message):
    __slots__ = ("realm_id", "realm_name", "user_id")
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    REALM_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm_id: str
    realm_name: str
    user_id: str
    def __init__(self, realm_id: _Optional[str] = ..., realm_name: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class PasswordChanged(_message.Message):
    __slots__ = ("realm_id", "realm_name", "user_id", "temporary")
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    REALM_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    TEMPORARY_FIELD_NUMBER: _ClassVar[int]
    realm_id: str
    realm_name: str
    user_id: str
    temporary: bool
    def __init__(self, realm_id: _Optional[str] = ..., realm_name: _Optional[str] = ..., user_id: _Optional[str] = ..., temporary: _Optional[bool] = ...) -> None: ...
