from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ResetAccountOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RESET_ACCOUNT_OUTCOME_UNSPECIFIED: _ClassVar[ResetAccountOutcome]
    RESET_ACCOUNT_OUTCOME_FOUND: _ClassVar[ResetAccountOutcome]
    RESET_ACCOUNT_OUTCOME_NOT_FOUND: _ClassVar[ResetAccountOutcome]
    RESET_ACCOUNT_OUTCOME_DISABLED: _ClassVar[ResetAccountOutcome]
    RESET_ACCOUNT_OUTCOME_NO_EMAIL: _ClassVar[ResetAccountOutcome]

class ResetKeyOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RESET_KEY_OUTCOME_UNSPECIFIED: _ClassVar[ResetKeyOutcome]
    RESET_KEY_OUTCOME_VALID: _ClassVar[ResetKeyOutcome]
    RESET_KEY_OUTCOME_INVALID: _ClassVar[ResetKeyOutcome]
    RESET_KEY_OUTCOME_ALREADY_USED: _ClassVar[ResetKeyOutcome]
RESET_ACCOUNT_OUTCOME_UNSPECIFIED: ResetAccountOutcome
RESET_ACCOUNT_OUTCOME_FOUND: ResetAccountOutcome
RESET_ACCOUNT_OUTCOME_NOT_FOUND: ResetAccountOutcome
RESET_ACCOUNT_OUTCOME_DISABLED: ResetAccountOutcome
RESET_ACCOUNT_OUTCOME_NO_EMAIL: ResetAccountOutcome
RESET_KEY_OUTCOME_UNSPECIFIED: ResetKeyOutcome
RESET_KEY_OUTCOME_VALID: ResetKeyOutcome
RESET_KEY_OUTCOME_INVALID: ResetKeyOutcome
RESET_KEY_OUTCOME_ALREADY_USED: ResetKeyOutcome

class FindResetAccountRequest(_message.Message):
    __slots__ = ("realm", "identifier")
    REALM_FIELD_NUMBER: _ClassVar[int]
    IDENTIFIER_FIELD_NUMBER: _ClassVar[int]
    realm: str
    identifier: str
    def __init__(self, realm: _Optional[str] = ..., identifier: _Optional[str] = ...) -> None: ...

class FindResetAccountResponse(_message.Message):
    __slots__ = ("outcome", "user_id", "username")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    outcome: ResetAccountOutcome
    user_id: str
    username: str
    def __init__(self, outcome: _Optional[_Union[ResetAccountOutcome, str]] = ..., user_id: _Optional[str] = ..., username: _Optional[str] = ...) -> None: ...

class SendResetCredentialsEmailRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class SendResetCredentialsEmailResponse(_message.Message):
    __slots__ = ("email",)
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    email: str
    def __init__(self, email: _Optional[str] = ...) -> None: ...

class CheckResetKeyRequest(_message.Message):
    __slots__ = ("realm", "key")
    REALM_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    realm: str
    key: str
    def __init__(self, realm: _Optional[str] = ..., key: _Optional[str] = ...) -> None: ...

class CheckResetKeyResponse(_message.Message):
    __slots__ = ("outcome", "user_id", "username")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    outcome: ResetKeyOutcome
    user_id: str
    username: str
    def __init__(self, outcome: _Optional[_Union[ResetKeyOutcome, str]] = ..., user_id: _Optional[str] = ..., username: _Optional[str] = ...) -> None: ...

class ResetPasswordWithKeyRequest(_message.Message):
    __slots__ = ("realm", "key", "password")
    REALM_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    realm: str
    key: str
    password: str
    def __init__(self, realm: _Optional[str] = ..., key: _Optional[str] = ..., password: _Optional[str] = ...) -> None: ...

class ResetPasswordWithKeyResponse(_message.Message):
    __slots__ = ("outcome", "user_id", "username")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    outcome: ResetKeyOutcome
    user_id: str
    username: str
    def __init__(self, outcome: _Optional[_Union[ResetKeyOutcome, str]] = ..., user_id: _Optional[str] = ..., username: _Optional[str] = ...) -> None: ...

class ConsumeActionsKeyRequest(_message.Message):
    __slots__ = ("realm", "key")
    REALM_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    realm: str
    key: str
    def __init__(self, realm: _Optional[str] = ..., key: _Optional[str] = ...) -> None: ...

class ConsumeActionsKeyResponse(_message.Message):
    __slots__ = ("outcome", "user_id", "username", "actions", "client_id", "redirect_uri", "email")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URI_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    outcome: ResetKeyOutcome
    user_id: str
    username: str
    actions: _containers.RepeatedScalarFieldContainer[str]
    client_id: str
    redirect_uri: str
    email: str
    def __init__(self, outcome: _Optional[_Union[ResetKeyOutcome, str]] = ..., user_id: _Optional[str] = ..., username: _Optional[str] = ..., actions: _Optional[_Iterable[str]] = ..., client_id: _Optional[str] = ..., redirect_uri: _Optional[str] = ..., email: _Optional[str] = ...) -> None: ...
