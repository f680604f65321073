from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class VerifyEmailOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VERIFY_EMAIL_OUTCOME_UNSPECIFIED: _ClassVar[VerifyEmailOutcome]
    VERIFY_EMAIL_OUTCOME_VERIFIED: _ClassVar[VerifyEmailOutcome]
    VERIFY_EMAIL_OUTCOME_INVALID: _ClassVar[VerifyEmailOutcome]
    VERIFY_EMAIL_OUTCOME_ALREADY_USED: _ClassVar[VerifyEmailOutcome]
VERIFY_EMAIL_OUTCOME_UNSPECIFIED: VerifyEmailOutcome
VERIFY_EMAIL_OUTCOME_VERIFIED: VerifyEmailOutcome
VERIFY_EMAIL_OUTCOME_INVALID: VerifyEmailOutcome
VERIFY_EMAIL_OUTCOME_ALREADY_USED: VerifyEmailOutcome

class RegisterUserRequest(_message.Message):
    __slots__ = ("realm", "username", "email", "first_name", "last_name", "password")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    FIRST_NAME_FIELD_NUMBER: _ClassVar[int]
    LAST_NAME_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    realm: str
    username: str
    email: str
    first_name: str
    last_name: str
    password: str
    def __init__(self, realm: _Optional[str] = ..., username: _Optional[str] = ..., email: _Optional[str] = ..., first_name: _Optional[str] = ..., last_name: _Optional[str] = ..., password: _Optional[str] = ...) -> None: ...

class RegisterUserResponse(_message.Message):
    __slots__ = ("user_id", "username")
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    username: str
    def __init__(self, user_id: _Optional[str] = ..., username: _Optional[str] = ...) -> None: ...

class SendOwnVerificationEmailRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class SendOwnVerificationEmailResponse(_message.Message):
    __slots__ = ("email",)
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    email: str
    def __init__(self, email: _Optional[str] = ...) -> None: ...

class VerifyEmailRequest(_message.Message):
    __slots__ = ("realm", "key")
    REALM_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    realm: str
    key: str
    def __init__(self, realm: _Optional[str] = ..., key: _Optional[str] = ...) -> None: ...

class VerifyEmailResponse(_message.Message):
    __slots__ = ("outcome", "user_id", "email")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    outcome: VerifyEmailOutcome
    user_id: str
    email: str
    def __init__(self, outcome: _Optional[_Union[VerifyEmailOutcome, str]] = ..., user_id: _Optional[str] = ..., email: _Optional[str] = ...) -> None: ...
