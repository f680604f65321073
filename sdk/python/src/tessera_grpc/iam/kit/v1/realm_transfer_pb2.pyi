from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ExportRealmPartRequest(_message.Message):
    __slots__ = ("realm", "section", "include_users", "include_secrets", "page_token", "user_ids")
    REALM_FIELD_NUMBER: _ClassVar[int]
    SECTION_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_USERS_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_SECRETS_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    USER_IDS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    section: str
    include_users: bool
    include_secrets: bool
    page_token: str
    user_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, realm: _Optional[str] = ..., section: _Optional[str] = ..., include_users: _Optional[bool] = ..., include_secrets: _Optional[bool] = ..., page_token: _Optional[str] = ..., user_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class ExportRealmPartResponse(_message.Message):
    __slots__ = ("json", "next_page_token", "paged_sections", "user_fields")
    JSON_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PAGED_SECTIONS_FIELD_NUMBER: _ClassVar[int]
    USER_FIELDS_FIELD_NUMBER: _ClassVar[int]
    json: bytes
    next_page_token: str
    paged_sections: _containers.RepeatedScalarFieldContainer[str]
    user_fields: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, json: _Optional[bytes] = ..., next_page_token: _Optional[str] = ..., paged_sections: _Optional[_Iterable[str]] = ..., user_fields: _Optional[_Iterable[str]] = ...) -> None: ...

class ValidateRealmPartRequest(_message.Message):
    __slots__ = ("realm", "json", "overwrite")
    REALM_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    OVERWRITE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    json: bytes
    overwrite: bool
    def __init__(self, realm: _Optional[str] = ..., json: _Optional[bytes] = ..., overwrite: _Optional[bool] = ...) -> None: ...

class ImportRealmPartRequest(_message.Message):
    __slots__ = ("realm", "realm_id", "json", "offset")
    REALM_FIELD_NUMBER: _ClassVar[int]
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    realm: str
    realm_id: str
    json: bytes
    offset: int
    def __init__(self, realm: _Optional[str] = ..., realm_id: _Optional[str] = ..., json: _Optional[bytes] = ..., offset: _Optional[int] = ...) -> None: ...

class ValidateRealmPartResponse(_message.Message):
    __slots__ = ("problems",)
    PROBLEMS_FIELD_NUMBER: _ClassVar[int]
    problems: _containers.RepeatedCompositeFieldContainer[ImportProblem]
    def __init__(self, problems: _Optional[_Iterable[_Union[ImportProblem, _Mapping]]] = ...) -> None: ...

class ImportRealmPartResponse(_message.Message):
    __slots__ = ("notes",)
    NOTES_FIELD_NUMBER: _ClassVar[int]
    notes: _containers.RepeatedCompositeFieldContainer[ImportProblem]
    def __init__(self, notes: _Optional[_Iterable[_Union[ImportProblem, _Mapping]]] = ...) -> None: ...

class ImportProblem(_message.Message):
    __slots__ = ("path", "message")
    PATH_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    path: str
    message: str
    def __init__(self, path: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...
