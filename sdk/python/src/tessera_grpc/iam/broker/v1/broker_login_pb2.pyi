from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListLoginProvidersRequest(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: str
    def __init__(self, realm: _Optional[str] = ...) -> None: ...

class LoginProvider(_message.Message):
    __slots__ = ("alias", "display_name")
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    alias: str
    display_name: str
    def __init__(self, alias: _Optional[str] = ..., display_name: _Optional[str] = ...) -> None: ...

class ListLoginProvidersResponse(_message.Message):
    __slots__ = ("providers",)
    PROVIDERS_FIELD_NUMBER: _ClassVar[int]
    providers: _containers.RepeatedCompositeFieldContainer[LoginProvider]
    def __init__(self, providers: _Optional[_Iterable[_Union[LoginProvider, _Mapping]]] = ...) -> None: ...

class StartLoginRequest(_message.Message):
    __slots__ = ("realm", "alias", "transaction_id", "csrf_token", "browser_id", "ip_address", "login_hint")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    TRANSACTION_ID_FIELD_NUMBER: _ClassVar[int]
    CSRF_TOKEN_FIELD_NUMBER: _ClassVar[int]
    BROWSER_ID_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    LOGIN_HINT_FIELD_NUMBER: _ClassVar[int]
    realm: str
    alias: str
    transaction_id: str
    csrf_token: str
    browser_id: str
    ip_address: str
    login_hint: str
    def __init__(self, realm: _Optional[str] = ..., alias: _Optional[str] = ..., transaction_id: _Optional[str] = ..., csrf_token: _Optional[str] = ..., browser_id: _Optional[str] = ..., ip_address: _Optional[str] = ..., login_hint: _Optional[str] = ...) -> None: ...

class StartLoginResponse(_message.Message):
    __slots__ = ("redirect", "error")
    REDIRECT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    redirect: str
    error: BrokerError
    def __init__(self, redirect: _Optional[str] = ..., error: _Optional[_Union[BrokerError, _Mapping]] = ...) -> None: ...

class HandleCallbackRequest(_message.Message):
    __slots__ = ("realm", "alias", "state", "code", "error", "browser_id", "ip_address", "iss", "sso_cookie")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    BROWSER_ID_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    ISS_FIELD_NUMBER: _ClassVar[int]
    SSO_COOKIE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    alias: str
    state: str
    code: str
    error: str
    browser_id: str
    ip_address: str
    iss: str
    sso_cookie: str
    def __init__(self, realm: _Optional[str] = ..., alias: _Optional[str] = ..., state: _Optional[str] = ..., code: _Optional[str] = ..., error: _Optional[str] = ..., browser_id: _Optional[str] = ..., ip_address: _Optional[str] = ..., iss: _Optional[str] = ..., sso_cookie: _Optional[str] = ...) -> None: ...

class ConfirmLinkRequest(_message.Message):
    __slots__ = ("realm", "alias", "pending", "password", "browser_id", "ip_address")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    BROWSER_ID_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    alias: str
    pending: str
    password: str
    browser_id: str
    ip_address: str
    def __init__(self, realm: _Optional[str] = ..., alias: _Optional[str] = ..., pending: _Optional[str] = ..., password: _Optional[str] = ..., browser_id: _Optional[str] = ..., ip_address: _Optional[str] = ...) -> None: ...

class BrokerError(_message.Message):
    __slots__ = ("error", "description", "status")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    error: str
    description: str
    status: int
    def __init__(self, error: _Optional[str] = ..., description: _Optional[str] = ..., status: _Optional[int] = ...) -> None: ...

class BrokerAuthenticated(_message.Message):
    __slots__ = ("user_id", "transaction_id", "csrf_token", "alias")
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    TRANSACTION_ID_FIELD_NUMBER: _ClassVar[int]
    CSRF_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    transaction_id: str
    csrf_token: str
    alias: str
    def __init__(self, user_id: _Optional[str] = ..., transaction_id: _Optional[str] = ..., csrf_token: _Optional[str] = ..., alias: _Optional[str] = ...) -> None: ...

class BrokerConfirmLink(_message.Message):
    __slots__ = ("pending", "username", "provider_display_name", "message")
    PENDING_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    pending: str
    username: str
    provider_display_name: str
    message: str
    def __init__(self, pending: _Optional[str] = ..., username: _Optional[str] = ..., provider_display_name: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class BrokerOutcome(_message.Message):
    __slots__ = ("authenticated", "confirm_link", "error", "redirect")
    AUTHENTICATED_FIELD_NUMBER: _ClassVar[int]
    CONFIRM_LINK_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_FIELD_NUMBER: _ClassVar[int]
    authenticated: BrokerAuthenticated
    confirm_link: BrokerConfirmLink
    error: BrokerError
    redirect: str
    def __init__(self, authenticated: _Optional[_Union[BrokerAuthenticated, _Mapping]] = ..., confirm_link: _Optional[_Union[BrokerConfirmLink, _Mapping]] = ..., error: _Optional[_Union[BrokerError, _Mapping]] = ..., redirect: _Optional[str] = ...) -> None: ...

class HandleCallbackResponse(_message.Message):
    __slots__ = ("outcome",)
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    outcome: BrokerOutcome
    def __init__(self, outcome: _Optional[_Union[BrokerOutcome, _Mapping]] = ...) -> None: ...

class ConfirmLinkResponse(_message.Message):
    __slots__ = ("outcome",)
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    outcome: BrokerOutcome
    def __init__(self, outcome: _Optional[_Union[BrokerOutcome, _Mapping]] = ...) -> None: ...

class CreateAccountLinkRequest(_message.Message):
    __slots__ = ("realm", "alias", "user_id", "session_id", "client_id", "redirect_uri")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URI_FIELD_NUMBER: _ClassVar[int]
    realm: str
    alias: str
    user_id: str
    session_id: str
    client_id: str
    redirect_uri: str
    def __init__(self, realm: _Optional[str] = ..., alias: _Optional[str] = ..., user_id: _Optional[str] = ..., session_id: _Optional[str] = ..., client_id: _Optional[str] = ..., redirect_uri: _Optional[str] = ...) -> None: ...

class CreateAccountLinkResponse(_message.Message):
    __slots__ = ("account_link_uri", "nonce", "hash")
    ACCOUNT_LINK_URI_FIELD_NUMBER: _ClassVar[int]
    NONCE_FIELD_NUMBER: _ClassVar[int]
    HASH_FIELD_NUMBER: _ClassVar[int]
    account_link_uri: str
    nonce: str
    hash: str
    def __init__(self, account_link_uri: _Optional[str] = ..., nonce: _Optional[str] = ..., hash: _Optional[str] = ...) -> None: ...

class StartAccountLinkRequest(_message.Message):
    __slots__ = ("realm", "alias", "client_id", "redirect_uri", "nonce", "hash", "sso_cookie", "browser_id", "ip_address")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URI_FIELD_NUMBER: _ClassVar[int]
    NONCE_FIELD_NUMBER: _ClassVar[int]
    HASH_FIELD_NUMBER: _ClassVar[int]
    SSO_COOKIE_FIELD_NUMBER: _ClassVar[int]
    BROWSER_ID_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    alias: str
    client_id: str
    redirect_uri: str
    nonce: str
    hash: str
    sso_cookie: str
    browser_id: str
    ip_address: str
    def __init__(self, realm: _Optional[str] = ..., alias: _Optional[str] = ..., client_id: _Optional[str] = ..., redirect_uri: _Optional[str] = ..., nonce: _Optional[str] = ..., hash: _Optional[str] = ..., sso_cookie: _Optional[str] = ..., browser_id: _Optional[str] = ..., ip_address: _Optional[str] = ...) -> None: ...

class StartAccountLinkResponse(_message.Message):
    __slots__ = ("redirect", "error")
    REDIRECT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    redirect: str
    error: BrokerError
    def __init__(self, redirect: _Optional[str] = ..., error: _Optional[_Union[BrokerError, _Mapping]] = ...) -> None: ...
