from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListCredentialsRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class CredentialMetadata(_message.Message):
    __slots__ = ("id", "type", "user_label", "created_date")
    ID_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    USER_LABEL_FIELD_NUMBER: _ClassVar[int]
    CREATED_DATE_FIELD_NUMBER: _ClassVar[int]
    id: str
    type: str
    user_label: str
    created_date: int
    def __init__(self, id: _Optional[str] = ..., type: _Optional[str] = ..., user_label: _Optional[str] = ..., created_date: _Optional[int] = ...) -> None: ...

class ListCredentialsResponse(_message.Message):
    __slots__ = ("credentials",)
    CREDENTIALS_FIELD_NUMBER: _ClassVar[int]
    credentials: _containers.RepeatedCompositeFieldContainer[CredentialMetadata]
    def __init__(self, credentials: _Optional[_Iterable[_Union[CredentialMetadata, _Mapping]]] = ...) -> None: ...

class ChangeOwnPasswordRequest(_message.Message):
    __slots__ = ("realm", "user_id", "current_password", "new_password", "ip_address")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    CURRENT_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    NEW_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    current_password: str
    new_password: str
    ip_address: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., current_password: _Optional[str] = ..., new_password: _Optional[str] = ..., ip_address: _Optional[str] = ...) -> None: ...

class ChangeOwnPasswordResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RegenerateRecoveryCodesRequest(_message.Message):
    __slots__ = ("realm", "user_id", "current_password")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    CURRENT_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    current_password: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., current_password: _Optional[str] = ...) -> None: ...

class RegenerateRecoveryCodesResponse(_message.Message):
    __slots__ = ("recovery_codes",)
    RECOVERY_CODES_FIELD_NUMBER: _ClassVar[int]
    recovery_codes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, recovery_codes: _Optional[_Iterable[str]] = ...) -> None: ...

class GetMfaStatusRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class GetMfaStatusResponse(_message.Message):
    __slots__ = ("enabled",)
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    enabled: bool
    def __init__(self, enabled: _Optional[bool] = ...) -> None: ...

class ResetMfaRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class ResetMfaResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListLockedUsersRequest(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: str
    def __init__(self, realm: _Optional[str] = ...) -> None: ...

class LockedUser(_message.Message):
    __slots__ = ("user_id", "username", "failure_count", "last_failure", "locked_until", "permanent", "temporary_lockouts")
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    FAILURE_COUNT_FIELD_NUMBER: _ClassVar[int]
    LAST_FAILURE_FIELD_NUMBER: _ClassVar[int]
    LOCKED_UNTIL_FIELD_NUMBER: _ClassVar[int]
    PERMANENT_FIELD_NUMBER: _ClassVar[int]
    TEMPORARY_LOCKOUTS_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    username: str
    failure_count: int
    last_failure: int
    locked_until: int
    permanent: bool
    temporary_lockouts: int
    def __init__(self, user_id: _Optional[str] = ..., username: _Optional[str] = ..., failure_count: _Optional[int] = ..., last_failure: _Optional[int] = ..., locked_until: _Optional[int] = ..., permanent: _Optional[bool] = ..., temporary_lockouts: _Optional[int] = ...) -> None: ...

class ListLockedUsersResponse(_message.Message):
    __slots__ = ("users",)
    USERS_FIELD_NUMBER: _ClassVar[int]
    users: _containers.RepeatedCompositeFieldContainer[LockedUser]
    def __init__(self, users: _Optional[_Iterable[_Union[LockedUser, _Mapping]]] = ...) -> None: ...

class UnlockUserRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class UnlockUserResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ImportUsersRequest(_message.Message):
    __slots__ = ("realm", "users")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USERS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    users: _containers.RepeatedCompositeFieldContainer[_struct_pb2.Struct]
    def __init__(self, realm: _Optional[str] = ..., users: _Optional[_Iterable[_Union[_struct_pb2.Struct, _Mapping]]] = ...) -> None: ...

class ImportError(_message.Message):
    __slots__ = ("index", "username", "error", "message")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    index: int
    username: str
    error: str
    message: str
    def __init__(self, index: _Optional[int] = ..., username: _Optional[str] = ..., error: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class ImportUsersResponse(_message.Message):
    __slots__ = ("imported", "skipped", "failed", "errors")
    IMPORTED_FIELD_NUMBER: _ClassVar[int]
    SKIPPED_FIELD_NUMBER: _ClassVar[int]
    FAILED_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    imported: int
    skipped: int
    failed: int
    errors: _containers.RepeatedCompositeFieldContainer[ImportError]
    def __init__(self, imported: _Optional[int] = ..., skipped: _Optional[int] = ..., failed: _Optional[int] = ..., errors: _Optional[_Iterable[_Union[ImportError, _Mapping]]] = ...) -> None: ...
