from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class UpsertOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    UPSERT_OUTCOME_UNSPECIFIED: _ClassVar[UpsertOutcome]
    UPSERT_OUTCOME_CREATED: _ClassVar[UpsertOutcome]
    UPSERT_OUTCOME_UPDATED: _ClassVar[UpsertOutcome]
    UPSERT_OUTCOME_UNCHANGED: _ClassVar[UpsertOutcome]
    UPSERT_OUTCOME_FAILED: _ClassVar[UpsertOutcome]
UPSERT_OUTCOME_UNSPECIFIED: UpsertOutcome
UPSERT_OUTCOME_CREATED: UpsertOutcome
UPSERT_OUTCOME_UPDATED: UpsertOutcome
UPSERT_OUTCOME_UNCHANGED: UpsertOutcome
UPSERT_OUTCOME_FAILED: UpsertOutcome

class FederatedEntry(_message.Message):
    __slots__ = ("external_id", "dn", "username", "email", "first_name", "last_name")
    EXTERNAL_ID_FIELD_NUMBER: _ClassVar[int]
    DN_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    FIRST_NAME_FIELD_NUMBER: _ClassVar[int]
    LAST_NAME_FIELD_NUMBER: _ClassVar[int]
    external_id: str
    dn: str
    username: str
    email: str
    first_name: str
    last_name: str
    def __init__(self, external_id: _Optional[str] = ..., dn: _Optional[str] = ..., username: _Optional[str] = ..., email: _Optional[str] = ..., first_name: _Optional[str] = ..., last_name: _Optional[str] = ...) -> None: ...

class UpsertFederatedUsersRequest(_message.Message):
    __slots__ = ("realm", "provider_id", "entries")
    REALM_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_ID_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    realm: str
    provider_id: str
    entries: _containers.RepeatedCompositeFieldContainer[FederatedEntry]
    def __init__(self, realm: _Optional[str] = ..., provider_id: _Optional[str] = ..., entries: _Optional[_Iterable[_Union[FederatedEntry, _Mapping]]] = ...) -> None: ...

class UpsertResult(_message.Message):
    __slots__ = ("outcome", "user_id", "error", "message")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    outcome: UpsertOutcome
    user_id: str
    error: str
    message: str
    def __init__(self, outcome: _Optional[_Union[UpsertOutcome, str]] = ..., user_id: _Optional[str] = ..., error: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class UpsertFederatedUsersResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[UpsertResult]
    def __init__(self, results: _Optional[_Iterable[_Union[UpsertResult, _Mapping]]] = ...) -> None: ...

class ListFederationLinksRequest(_message.Message):
    __slots__ = ("realm", "provider_id", "skip", "limit")
    REALM_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_ID_FIELD_NUMBER: _ClassVar[int]
    SKIP_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    realm: str
    provider_id: str
    skip: int
    limit: int
    def __init__(self, realm: _Optional[str] = ..., provider_id: _Optional[str] = ..., skip: _Optional[int] = ..., limit: _Optional[int] = ...) -> None: ...

class FederationLink(_message.Message):
    __slots__ = ("user_id", "external_id", "missing")
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    EXTERNAL_ID_FIELD_NUMBER: _ClassVar[int]
    MISSING_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    external_id: str
    missing: bool
    def __init__(self, user_id: _Optional[str] = ..., external_id: _Optional[str] = ..., missing: _Optional[bool] = ...) -> None: ...

class ListFederationLinksResponse(_message.Message):
    __slots__ = ("links",)
    LINKS_FIELD_NUMBER: _ClassVar[int]
    links: _containers.RepeatedCompositeFieldContainer[FederationLink]
    def __init__(self, links: _Optional[_Iterable[_Union[FederationLink, _Mapping]]] = ...) -> None: ...

class ReleaseFederatedUsersRequest(_message.Message):
    __slots__ = ("realm", "provider_id", "user_ids", "unlink")
    REALM_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_ID_FIELD_NUMBER: _ClassVar[int]
    USER_IDS_FIELD_NUMBER: _ClassVar[int]
    UNLINK_FIELD_NUMBER: _ClassVar[int]
    realm: str
    provider_id: str
    user_ids: _containers.RepeatedScalarFieldContainer[str]
    unlink: bool
    def __init__(self, realm: _Optional[str] = ..., provider_id: _Optional[str] = ..., user_ids: _Optional[_Iterable[str]] = ..., unlink: _Optional[bool] = ...) -> None: ...

class ReleaseFederatedUsersResponse(_message.Message):
    __slots__ = ("released",)
    RELEASED_FIELD_NUMBER: _ClassVar[int]
    released: int
    def __init__(self, released: _Optional[int] = ...) -> None: ...

class RemoveFederatedUsersRequest(_message.Message):
    __slots__ = ("realm", "provider_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    provider_id: str
    def __init__(self, realm: _Optional[str] = ..., provider_id: _Optional[str] = ...) -> None: ...

class RemoveFederatedUsersResponse(_message.Message):
    __slots__ = ("removed",)
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    removed: int
    def __init__(self, removed: _Optional[int] = ...) -> None: ...
