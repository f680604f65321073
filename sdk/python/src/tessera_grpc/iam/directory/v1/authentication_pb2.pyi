from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AuthOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AUTH_OUTCOME_UNSPECIFIED: _ClassVar[AuthOutcome]
    AUTH_OUTCOME_OK: _ClassVar[AuthOutcome]
    AUTH_OUTCOME_INVALID_CREDENTIALS: _ClassVar[AuthOutcome]
    AUTH_OUTCOME_LOCKED: _ClassVar[AuthOutcome]
    AUTH_OUTCOME_DISABLED: _ClassVar[AuthOutcome]
    AUTH_OUTCOME_UNAVAILABLE: _ClassVar[AuthOutcome]

class RequiredAction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REQUIRED_ACTION_UNSPECIFIED: _ClassVar[RequiredAction]
    REQUIRED_ACTION_UPDATE_PASSWORD: _ClassVar[RequiredAction]
    REQUIRED_ACTION_VERIFY_EMAIL: _ClassVar[RequiredAction]
    REQUIRED_ACTION_CONFIGURE_TOTP: _ClassVar[RequiredAction]
    REQUIRED_ACTION_UPDATE_PROFILE: _ClassVar[RequiredAction]
    REQUIRED_ACTION_TERMS_AND_CONDITIONS: _ClassVar[RequiredAction]
AUTH_OUTCOME_UNSPECIFIED: AuthOutcome
AUTH_OUTCOME_OK: AuthOutcome
AUTH_OUTCOME_INVALID_CREDENTIALS: AuthOutcome
AUTH_OUTCOME_LOCKED: AuthOutcome
AUTH_OUTCOME_DISABLED: AuthOutcome
AUTH_OUTCOME_UNAVAILABLE: AuthOutcome
REQUIRED_ACTION_UNSPECIFIED: RequiredAction
REQUIRED_ACTION_UPDATE_PASSWORD: RequiredAction
REQUIRED_ACTION_VERIFY_EMAIL: RequiredAction
REQUIRED_ACTION_CONFIGURE_TOTP: RequiredAction
REQUIRED_ACTION_UPDATE_PROFILE: RequiredAction
REQUIRED_ACTION_TERMS_AND_CONDITIONS: RequiredAction

class AuthenticatePasswordRequest(_message.Message):
    __slots__ = ("realm", "username", "password", "client_id", "ip_address")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    username: str
    password: str
    client_id: str
    ip_address: str
    def __init__(self, realm: _Optional[str] = ..., username: _Optional[str] = ..., password: _Optional[str] = ..., client_id: _Optional[str] = ..., ip_address: _Optional[str] = ...) -> None: ...

class AuthenticatePasswordResponse(_message.Message):
    __slots__ = ("outcome", "user_id", "username", "otp_required", "required_actions", "event_error", "passkey_configured", "locale")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    OTP_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    EVENT_ERROR_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_CONFIGURED_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    outcome: AuthOutcome
    user_id: str
    username: str
    otp_required: bool
    required_actions: _containers.RepeatedScalarFieldContainer[RequiredAction]
    event_error: str
    passkey_configured: bool
    locale: str
    def __init__(self, outcome: _Optional[_Union[AuthOutcome, str]] = ..., user_id: _Optional[str] = ..., username: _Optional[str] = ..., otp_required: _Optional[bool] = ..., required_actions: _Optional[_Iterable[_Union[RequiredAction, str]]] = ..., event_error: _Optional[str] = ..., passkey_configured: _Optional[bool] = ..., locale: _Optional[str] = ...) -> None: ...

class VerifyOtpRequest(_message.Message):
    __slots__ = ("realm", "user_id", "code", "ip_address")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    code: str
    ip_address: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., code: _Optional[str] = ..., ip_address: _Optional[str] = ...) -> None: ...

class VerifyOtpResponse(_message.Message):
    __slots__ = ("outcome", "event_error")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    EVENT_ERROR_FIELD_NUMBER: _ClassVar[int]
    outcome: AuthOutcome
    event_error: str
    def __init__(self, outcome: _Optional[_Union[AuthOutcome, str]] = ..., event_error: _Optional[str] = ...) -> None: ...

class BeginOtpEnrollmentRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class BeginOtpEnrollmentResponse(_message.Message):
    __slots__ = ("secret", "otpauth_uri")
    SECRET_FIELD_NUMBER: _ClassVar[int]
    OTPAUTH_URI_FIELD_NUMBER: _ClassVar[int]
    secret: str
    otpauth_uri: str
    def __init__(self, secret: _Optional[str] = ..., otpauth_uri: _Optional[str] = ...) -> None: ...

class ConfirmOtpEnrollmentRequest(_message.Message):
    __slots__ = ("realm", "user_id", "code")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    code: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., code: _Optional[str] = ...) -> None: ...

class ConfirmOtpEnrollmentResponse(_message.Message):
    __slots__ = ("confirmed", "recovery_codes")
    CONFIRMED_FIELD_NUMBER: _ClassVar[int]
    RECOVERY_CODES_FIELD_NUMBER: _ClassVar[int]
    confirmed: bool
    recovery_codes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, confirmed: _Optional[bool] = ..., recovery_codes: _Optional[_Iterable[str]] = ...) -> None: ...

class ChangePasswordRequest(_message.Message):
    __slots__ = ("realm", "user_id", "new_password")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    NEW_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    new_password: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., new_password: _Optional[str] = ...) -> None: ...

class ChangePasswordResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetUserStatusRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class GetUserStatusResponse(_message.Message):
    __slots__ = ("exists", "enabled", "username", "required_actions", "otp_configured", "passkey_configured", "service_account")
    EXISTS_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    OTP_CONFIGURED_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_CONFIGURED_FIELD_NUMBER: _ClassVar[int]
    SERVICE_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    exists: bool
    enabled: bool
    username: str
    required_actions: _containers.RepeatedScalarFieldContainer[RequiredAction]
    otp_configured: bool
    passkey_configured: bool
    service_account: bool
    def __init__(self, exists: _Optional[bool] = ..., enabled: _Optional[bool] = ..., username: _Optional[str] = ..., required_actions: _Optional[_Iterable[_Union[RequiredAction, str]]] = ..., otp_configured: _Optional[bool] = ..., passkey_configured: _Optional[bool] = ..., service_account: _Optional[bool] = ...) -> None: ...

class AcceptTermsRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class AcceptTermsResponse(_message.Message):
    __slots__ = ("accepted_at",)
    ACCEPTED_AT_FIELD_NUMBER: _ClassVar[int]
    accepted_at: int
    def __init__(self, accepted_at: _Optional[int] = ...) -> None: ...
